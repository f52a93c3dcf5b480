import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

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

    @Test("open app is an effect; the round trip is carried out once, in the core")
    func openAppRoundTrip() async throws {
        var asked = ChallengeFormState(screen: try formScreen("04", oob, version: .v2_3_1))
        #expect(asked.perform(.openApp) == .openApp(URL(string: "https://bank.example/app")!))

        var returned = ChallengeFormState(screen: try formScreen("04", oob, version: .v2_3_1))
        let opener = FixedOOBAppOpener(result: .returned)
        #expect(
            await returned.perform(.openApp, opener: opener) == .send(ChallengeAnswer(.oobContinue(automatic: true))))
        #expect(opener.openedURLs == [URL(string: "https://bank.example/app")!])
        #expect(returned.returnedFromApp && returned.appToOpen == nil)

        var opened = ChallengeFormState(screen: try formScreen("04", oob, version: .v2_3_1))
        #expect(
            await opened.perform(.openApp, opener: FixedOOBAppOpener(result: .opened))
                == .showNote(SDKStrings.english[.finishInApp])
        )
        #expect(opened.perform(.continueChallenge) == .send(ChallengeAnswer(.oobContinue(automatic: false))))

        var cannot = ChallengeFormState(screen: try formScreen("04", oob, version: .v2_3_1))
        #expect(await cannot.perform(.openApp, opener: nil) == .showNote(SDKStrings.english[.appOpenFailed]))
        #expect(
            cannot.perform(.continueChallenge)
                == .send(ChallengeAnswer(.oobContinue(automatic: false), oobAppOpenFailed: true)))

        var text = ChallengeFormState(screen: try formScreen("01"))
        #expect(await text.perform(.openApp, opener: opener) == .showNote("This screen offers no app to open."))
    }
}
