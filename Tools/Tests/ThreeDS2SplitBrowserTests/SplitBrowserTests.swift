import Foundation
import Testing
import ThreeDS2BrowserSupport
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2TestLab

/// A 2.3.1 text challenge through the Split-SDK Server with the web client in Debian's headless Chromium: the
/// merchant's page on another site hands the frame its token by `postMessage`, the test plays the merchant's backend
/// (session, AReq to the TestLab's 3DS Server, challenge parameters), and a person's typing and clicking in the frame
/// decide the outcome. Timers run on the server's test clock: no test waits the 5 minutes of the challenge.
@Suite("Split-SDK: text challenges in headless Chromium", .serialized)
struct SplitBrowserTests {
    static let rightCode = "123456"

    @Test("the right code: completed Y, as the Default-SDK's challenge completes; a screenshot of the challenge screen")
    func rightCode() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame)
            try await frame.waitForScreen()
            try await Browser.screenshot(frame.browser, name: "split-text-challenge-2.3.1")
            try await frame.enter(Self.rightCode)
            try await frame.submit()
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["kind"]?.stringValue == "completed")
            #expect(finished["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.finalStatus == "Y")
            #expect(record.requests.last?["challengeDataEntry"]?.stringValue == Self.rightCode)
            #expect(record.refusals.isEmpty && record.unreadable.isEmpty)
            let state = try await rig.merchant.state(rig.session)
            #expect(state["state"]?.stringValue == "finished")
            #expect(state["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y")
        }
    }

    @Test("a wrong code: the ACS's note on the same screen, the entry cleared; then the right code completes")
    func wrongCode() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame)
            try await frame.waitForScreen()
            try await frame.enter("000000")
            try await frame.submit()
            try await frame.waitForText("The code was not correct. 2 attempts left.")
            #expect(try await frame.entryValue() == "")
            try await frame.enter(Self.rightCode)
            try await frame.submit()
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.requests.compactMap { $0["challengeDataEntry"]?.stringValue } == ["000000", Self.rightCode])
        }
    }

    @Test("resend: the ACS's new screen says a new code was sent; then the right code completes")
    func resend() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame)
            try await frame.waitForScreen()
            try await frame.resend()
            try await frame.waitForText("A new code was sent to your phone.")
            try await frame.enter(Self.rightCode)
            try await frame.submit()
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.requests.contains { $0["resendChallenge"]?.stringValue == "Y" })
        }
    }

    @Test("cancel: the CReq says so, the frame shows the cancelled text, the merchant's page gets cancelled")
    func cancel() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame)
            try await frame.waitForScreen()
            try await frame.cancel()
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["kind"]?.stringValue == "cancelled")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.requests.last?["challengeCancel"]?.stringValue == "01")
            let state = try await rig.merchant.state(rig.session)
            #expect(state["outcome"]?.objectValue?["kind"]?.stringValue == "cancelled")
        }
    }

    @Test("the keyboard: Enter in the code box submits, Escape cancels; the box is labelled for screen readers")
    func keyboard() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame)
            try await frame.waitForScreen()
            let labelled = try await frame.browser.execute(
                "const i = document.querySelector('\(ChallengeFrame.entry)'); const l = i && i.labels[0];"
                    + " return l ? l.textContent : null")
            #expect(labelled.stringValue?.isEmpty == false, "the code box has no label")
            let focused = try await frame.browser.execute(
                "return document.activeElement === document.querySelector('\(ChallengeFrame.entry)')")
            #expect(focused == .bool(true), "the focus does not start in the code box")
            try await frame.enter("000000\u{E007}")  // WebDriver's Enter key
            try await frame.waitForText("The code was not correct. 2 attempts left.")
            try await frame.browser.type("\u{E00C}", into: frame.browser.element(ChallengeFrame.entry))  // Escape
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["kind"]?.stringValue == "cancelled")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.requests.compactMap { $0["challengeDataEntry"]?.stringValue } == ["000000"])
            #expect(record.requests.last?["challengeCancel"]?.stringValue == "01")
        }
    }

    @Test("timeout: the server's test clock passes the challenge timeout; Erro 402 to the ACS, timedOut to the page")
    func timeout() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame)
            try await frame.waitForScreen()
            await rig.advanceClock(by: .seconds(5 * 60 + 1))
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["kind"]?.stringValue == "timedOut")
            try await frame.page.enterFrame()
            try await frame.waitForText("The authentication timed out.")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.errors.contains { $0["errorCode"]?.stringValue == "402" })
        }
    }
}
