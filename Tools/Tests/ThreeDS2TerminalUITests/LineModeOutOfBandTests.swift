import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

@testable import ThreeDS2TerminalUI

/// An out-of-band screen with a link to the bank's app and no continue label has no continue button in any mode: the
/// SDK continues when the app sends the cardholder back, and a continue before that sends `oobContinue` before the
/// approval (a real ACS may fail the payment for it).
@Suite("Line mode on an out-of-band screen without a continue button")
struct LineModeOutOfBandTests {
    static func outOfBand(continueLabel: String?) throws -> ChallengeScreen {
        var fields: [String: JSONValue] = [
            "acsUiType": .string("04"), "challengeInfoHeader": .string("Approve"),
            "challengeInfoText": .string("Approve in your bank's app."),
            "oobAppURL": .string("https://bank.example/approve"), "oobAppLabel": .string("Open the bank's app"),
        ]
        if let continueLabel { fields["oobContinueLabel"] = .string(continueLabel) }
        return try screen(fields, version: "2.3.1")
    }

    static let presenter = TerminalPresenter(
        mode: .line, strings: SDKStrings(locale: Locale(identifier: "en")), environment: ["TERM": "xterm"],
        outputIsTerminal: false)

    @Test("the question offers the open command, never Enter to continue")
    func noEnterToContinue() throws {
        let screen = try Self.outOfBand(continueLabel: nil)
        #expect(!screen.offersContinueButton)
        let (lines, question) = Self.presenter.lineQuestion(state(screen, locale: "en"), width: 200)
        #expect(!question.contains("Press Enter") && !lines.contains { $0.contains("Press Enter") }, "\(question)")
        #expect(question.contains("open") && question.contains("https://bank.example/approve"), "\(question)")
    }

    @Test("with a continue label the same screen offers Enter, as the full screen shows its button")
    func labelledContinue() throws {
        let screen = try Self.outOfBand(continueLabel: "I have approved")
        #expect(screen.offersContinueButton)
        let (_, question) = Self.presenter.lineQuestion(state(screen, locale: "en"), width: 200)
        #expect(question.contains("Press Enter: I have approved"), "\(question)")
        let buttons = state(screen, locale: "en").layout.elements.filter {
            if case .button(.continue, _) = $0 { return true }
            return false
        }
        #expect(buttons.count == 1)
    }
}
