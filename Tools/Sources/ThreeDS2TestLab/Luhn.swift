/// The Luhn check of card numbers: the fault profiles' cards get their check digit here, and `threeds` warns about a
/// card number that fails it (not about the scenario cards, which need not pass).
public enum Luhn {
    /// Whether a string of digits passes the Luhn check; `false` when it holds anything but digits.
    ///
    /// - Parameter number: The card number.
    /// - Returns: Whether the check passes.
    public static func isValid(_ number: String) -> Bool {
        var sum = 0
        for (index, character) in number.reversed().enumerated() {
            guard var digit = character.wholeNumberValue else { return false }
            if index % 2 == 1 {
                digit *= 2
                if digit > 9 { digit -= 9 }
            }
            sum += digit
        }
        return sum % 10 == 0
    }

    /// The digit that makes `body` followed by it pass the check.
    ///
    /// - Parameter body: The card number without its check digit, digits only.
    /// - Returns: The check digit, 0–9.
    public static func checkDigit(for body: String) -> Int {
        (0...9).first { isValid(body + String($0)) } ?? 0
    }
}
