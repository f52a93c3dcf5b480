import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

@Suite("Form actions return effects")
struct FormEffectTests {
    private let oob: [String: JSONValue] = [
        "oobContinueLabel": .string("Done"), "oobAppURL": .string("https://bank.example/app"),
        "oobAppLabel": .string("Open"),
    ]

    @Test("an answer to send, a note to show, or nothing to do but redraw")
    func sendAndNote() throws {
        var state = ChallengeFormState(screen: try formScreen("01"))
        #expect(state.perform(.type("12")) == nil)
        #expect(state.perform(.resend) == .showNote("This screen offers no new code."))
        #expect(state.perform(.submit()) == .send(ChallengeAnswer(.submitText("12"))))
        #expect(state.perform(.cancel) == .send(ChallengeAnswer(.cancel)))
    }

    @Test("open app is an effect; what became of it goes back in through the same entry point")
    func openAppRoundTrip() throws {
        let link = URL(string: "https://bank.example/app")!
        var returned = ChallengeFormState(screen: try formScreen("04", oob, version: .v2_3_1))
        #expect(returned.perform(.openApp) == .openApp(link))
        #expect(returned.perform(.appOpenResult(.returned)) == .send(ChallengeAnswer(.oobContinue(automatic: true))))
        #expect(returned.returnedFromApp && returned.appToOpen == nil)

        var opened = ChallengeFormState(screen: try formScreen("04", oob, version: .v2_3_1))
        #expect(opened.perform(.openApp) == .openApp(link))
        #expect(opened.perform(.appOpenResult(.opened)) == .showNote(SDKStrings.english[.finishInApp]))
        #expect(opened.perform(.continueChallenge) == .send(ChallengeAnswer(.oobContinue(automatic: false))))

        var cannot = ChallengeFormState(screen: try formScreen("04", oob, version: .v2_3_1))
        #expect(cannot.perform(.openApp) == .openApp(link))
        #expect(cannot.perform(.appOpenResult(.failed)) == .showNote(SDKStrings.english[.appOpenFailed]))
        #expect(
            cannot.perform(.continueChallenge)
                == .send(ChallengeAnswer(.oobContinue(automatic: false), oobAppOpenFailed: true)))

        var text = ChallengeFormState(screen: try formScreen("01"))
        #expect(text.perform(.openApp) == .showNote("This screen offers no app to open."))
        #expect(text.perform(.appOpenResult(.returned)) == nil, "no app was asked for: nothing happens")
    }
}
