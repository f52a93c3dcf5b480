import Testing
import ThreeDS2TestLab

@Suite("The Luhn check, one implementation for the fault profiles' cards and the CLI's warning")
struct LuhnTests {
    @Test("known numbers, check digits, and anything but digits refused")
    func knownNumbers() {
        #expect(Luhn.isValid("4111111111111111"))
        #expect(!Luhn.isValid("4111111111111112"))
        #expect(Luhn.checkDigit(for: "411111111111111") == 1)
        #expect(Luhn.checkDigit(for: "7992739871") == 3)
        #expect(!Luhn.isValid("4111 1111 1111 1111") && !Luhn.isValid("41111111111111x1"))
    }

    @Test("every fault profile's card passes (the scenario cards need not: `pay` skips the warning for them)")
    func faultProfileCards() {
        for profile in ACSFaultProfile.all { #expect(Luhn.isValid(profile.cardNumber), "\(profile)") }
    }
}
