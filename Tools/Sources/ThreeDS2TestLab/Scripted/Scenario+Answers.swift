public import ThreeDS2Messages
public import ThreeDS2SDKTesting

extension Scenario {
    /// The scripted answers that walk the scenario's happy path in a message version (`threeds demo --auto`, and the
    /// Split-SDK tests through the Swift client). Older versions show the 2.3.1 scenarios as their plain text-code or
    /// HTML screens; the out-of-band HTML page of 2.3.1 is answered by opening the bank's app (a host that can).
    ///
    /// - Parameter version: The transaction's message version.
    /// - Returns: The answers, screen by screen.
    public func happyPathAnswers(in version: MessageVersion) -> [ScriptedAnswer] {
        let v231 = version == .v2_3_1
        return switch self {
        case .singleSelect: [.select(["sms"])]
        case .multiSelect: [.select(["q1", "q3"])]
        case .outOfBand, .bridging: [.continue()]
        case .html: [.html(fields: ["otp": "123456"], button: "Verify")]
        case .information where v231: [.continue(), .text("123456")]
        case .twoEntryBoxes where v231: [.text("123456", second: "1990")]
        case .additionalCode where v231: [.additional(), .continue()]
        case .consents: [.text("123456", whitelist: true, deviceBinding: true)]
        case .htmlOutOfBand where v231: [.openApp()]
        case .htmlOutOfBand: [.html(fields: ["otp": "123456"], button: "Verify")]
        default: [.text("123456", whitelist: false)]
        }
    }
}
