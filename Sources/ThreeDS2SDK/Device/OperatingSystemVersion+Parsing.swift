public import Foundation

extension OperatingSystemVersion {
    /// The version at the start of `text`: one to three dot-separated numbers, anything after them ignored
    /// (`6.1.0-18-amd64` is 6.1.0, `17.5` is 17.5.0); `nil` when the text does not start with a number.
    ///
    /// - Parameter text: A version or a kernel release.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var numbers: [Int] = []
        var current = ""
        for character in trimmed {
            if let digit = character.wholeNumberValue, character.isASCII {
                guard current.count < 9 else { return nil }
                current.append(Character(String(digit)))
            } else if character == ".", !current.isEmpty, numbers.count < 2 {
                numbers.append(Int(current) ?? 0)
                current = ""
            } else {
                break
            }
        }
        if let last = Int(current) { numbers.append(last) }
        guard !numbers.isEmpty else { return nil }
        self.init(
            majorVersion: numbers[0], minorVersion: numbers.count > 1 ? numbers[1] : 0,
            patchVersion: numbers.count > 2 ? numbers[2] : 0)
    }

    /// `major.minor`, with `.patch` when it is not zero: `17.5`, `17.5.1`.
    public var dottedDescription: String {
        "\(majorVersion).\(minorVersion)" + (patchVersion == 0 ? "" : ".\(patchVersion)")
    }

    /// Whether this version is the same as or later than `minimum`, compared number by number.
    ///
    /// - Parameter minimum: The lowest acceptable version.
    public func isAtLeast(_ minimum: OperatingSystemVersion) -> Bool {
        (majorVersion, minorVersion, patchVersion) >= (minimum.majorVersion, minimum.minorVersion, minimum.patchVersion)
    }
}
