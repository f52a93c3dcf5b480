import Foundation
import Testing
import ThreeDS2BrowserSupport
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2TestLab

/// Every TestLab challenge kind through the Split-SDK Server with the web client in headless Chromium (2.3.1), each
/// with a screenshot of its first screen in `.build-artifacts/split-browser/`: what a person clicks and types in the
/// frame decides the outcome, and the ACS's record says what the client's JWE carried.
@Suite("Split-SDK: every challenge kind in headless Chromium", .serialized)
struct SplitKindsBrowserTests {
    /// Runs a scenario to its first screen of `uiType`, takes the screenshot, runs `body`, and expects `Y` on the
    /// merchant's page; returns the CReqs the ACS received.
    @discardableResult
    static func pay(
        _ scenario: Scenario, uiType: String, locale: String? = nil, screenshot: String,
        _ body: (ChallengeFrame, ChallengeParameters) async throws -> Void
    ) async throws -> [JSONObject] {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame, scenario: scenario, locale: locale)
            try await frame.page.event("challengeShown")
            try await frame.waitForScreen(uiType: uiType)
            try await Browser.screenshot(frame.browser, name: screenshot)
            try await body(frame, challenge)
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y", "\(finished.serialized)")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.finalStatus == "Y")
            #expect(record.refusals.isEmpty && record.unreadable.isEmpty)
            return record.requests
        }
    }

    @Test("single select: a radio button chosen → Y; the ACS receives its key")
    func singleSelect() async throws {
        let requests = try await Self.pay(.singleSelect, uiType: "02", screenshot: "split-single-select-2.3.1") {
            frame, _ in
            try await frame.choose("mail")
            try await frame.submit()
        }
        #expect(requests.last?["challengeDataEntry"]?.stringValue == "mail")
    }

    @Test("multi select: two checkboxes ticked → Y; the ACS receives both keys in the screen's order")
    func multiSelect() async throws {
        let requests = try await Self.pay(.multiSelect, uiType: "03", screenshot: "split-multi-select-2.3.1") {
            frame, _ in
            try await frame.choose("q3")
            try await frame.choose("q1")
            try await frame.submit()
        }
        #expect(requests.last?["challengeDataEntry"]?.stringValue == "q1,q3")
    }

    @Test("out of band: the browser cannot open apps (oobAppURLInd 02), the continue button → Y")
    func outOfBand() async throws {
        let requests = try await Self.pay(.outOfBand, uiType: "04", screenshot: "split-out-of-band-2.3.1") { frame, _ in
            try await frame.press(button: "continue")
        }
        #expect(requests.first?["oobAppURLInd"]?.stringValue == "02")
        #expect(requests.last?["oobContinue"] != nil)
    }

    @Test("HTML: the page in its sandboxed frame; the resend link, then the code and Verify → Y")
    func html() async throws {
        let requests = try await Self.pay(.html, uiType: "05", screenshot: "split-html-2.3.1") { frame, challenge in
            try await frame.enterPage()
            // The page's own script never ran (the sandbox and the page's policy allow none).
            #expect(try await frame.browser.execute("return document.title") == .string("Verify"))
            try await frame.browser.click(frame.browser.element("a[href*='resend']"))
            try await frame.page.enterFrame()
            try await frame.browser.waitUntil(
                "document.querySelector('.html iframe[data-ready]')?.contentDocument?.body?.innerText"
                    + ".includes('A new code was sent')")
            try await frame.enterPage()
            try await frame.browser.type("123456", into: frame.browser.element("#otp"))
            try await frame.browser.click(frame.browser.element("button[value='verify']"))
        }
        let entries = requests.compactMap { $0["challengeHTMLDataEntry"]?.stringValue }
        #expect(entries.first == "action=resend")
        #expect(entries.last?.hasSuffix("&otp=123456&action=verify") == true)
    }

    @Test("HTML out of band (UI 06): the page's approve button → Y, with oobContinue")
    func htmlOutOfBand() async throws {
        let requests = try await Self.pay(.htmlOutOfBand, uiType: "06", screenshot: "split-html-oob-2.3.1") {
            frame, _ in
            try await frame.enterPage()
            try await frame.browser.click(frame.browser.element("button[value='approved']"))
        }
        #expect(requests.last?["challengeHTMLDataEntry"]?.stringValue?.hasSuffix("action=approved") == true)
        #expect(requests.last?["oobContinue"] != nil)
    }

    @Test("information (UI 07): continue, then the code screen → Y")
    func information() async throws {
        try await Self.pay(.information, uiType: "07", screenshot: "split-information-2.3.1") { frame, _ in
            try await frame.press(button: "continue")
            try await frame.waitForScreen(uiType: "01")
            try await frame.enter("123456")
            try await frame.submit()
        }
    }

    @Test("two entry boxes: the code and the year of birth → Y")
    func twoEntryBoxes() async throws {
        let requests = try await Self.pay(.twoEntryBoxes, uiType: "01", screenshot: "split-two-entry-boxes-2.3.1") {
            frame, _ in
            try await frame.enter("123456", box: 0)
            try await frame.enter("1990", box: 1)
            try await frame.submit()
        }
        #expect(requests.last?["challengeDataEntryTwo"]?.stringValue == "1990")
    }

    @Test("additional code: its button, then the out-of-band screen's continue → Y")
    func additionalCode() async throws {
        let requests = try await Self.pay(.additionalCode, uiType: "01", screenshot: "split-additional-code-2.3.1") {
            frame, _ in
            try await frame.press(button: "additional")
            try await frame.waitForScreen(uiType: "04")
            try await frame.press(button: "continue")
        }
        #expect(requests.contains { $0["challengeAddCode"]?.stringValue == "Y" })
    }

    @Test("consents: the trust-list question ticked, device binding left → Y with Y and N in the CReq")
    func consents() async throws {
        let requests = try await Self.pay(.consents, uiType: "01", screenshot: "split-consents-2.3.1") { frame, _ in
            try await frame.tickConsent(0)
            try await frame.enter("123456")
            try await frame.submit()
        }
        #expect(requests.last?["trustListDataEntry"]?.stringValue == "Y")
        #expect(requests.last?["deviceBindingDataEntry"]?.stringValue == "N")
    }

    @Test(
        "the Shell variant: the open-app button asks the page's host, which opens the bank's app; back from it → Y"
    )
    func shellOpensTheBankApp() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame, scenario: .outOfBand, host: "shell")
            try await frame.page.event("challengeShown")
            try await frame.waitForScreen(uiType: "04")
            try await Browser.screenshot(frame.browser, name: "split-shell-out-of-band-2.3.1")
            try await frame.press(button: "open_oob_app")
            // The test plays the app hosting the page: it takes the link, "opens" the bank's app, and reports the
            // cardholder's return through the page, as a web-view host does.
            let open = try await frame.page.event("openApp")
            #expect(open["url"]?.stringValue?.hasPrefix("https://") == true)
            try await frame.browser.execute("window.challenge.appResult('returned'); return true")
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.requests.first?["oobAppURLInd"]?.stringValue == "01")
            #expect(record.requests.last?["oobContinue"]?.stringValue == "02")
        }
    }

    @Test("a CRes with a flipped tag bit: the client cannot decrypt it; Erro 302 to the ACS, the bank's error shown")
    func badTag() async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame, scenario: .faultBadTag)
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["kind"]?.stringValue == "protocolError")
            #expect(finished["outcome"]?.objectValue?["errorCode"]?.stringValue == "302")
            try await frame.page.enterFrame()
            try await frame.browser.waitUntil("document.querySelector('.message.ended')")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.errors.compactMap { $0["errorCode"]?.stringValue } == ["302"])
        }
    }

    @Test(
        "the other fault cards end in the frame as the Default-SDK's challenge ends, with its Erro to the ACS",
        arguments: [
            (Scenario.faultWrongCounter, "302", "302"), (.faultWrongTransactionID, "301", "301"),
            (.faultMissingField, "201", "201"), (.faultCriticalExtension, "202", "202"), (.faultErro, nil, "305"),
        ] as [(Scenario, String?, String)])
    func faults(_ fault: (Scenario, String?, String)) async throws {
        try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame, scenario: fault.0)
            let finished = try await frame.page.event("finished")
            #expect(finished["outcome"]?.objectValue?["kind"]?.stringValue == "protocolError")
            #expect(finished["outcome"]?.objectValue?["errorCode"]?.stringValue == fault.2)
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(record.errors.compactMap { $0["errorCode"]?.stringValue } == (fault.1.map { [$0] } ?? []))
        }
    }

    @Test("the Bridging card in 2.3.1 is an out-of-band screen: a browser opens no app, continue → Y")
    func bridgingCard() async throws {
        try await Self.pay(.bridging, uiType: "04", screenshot: "split-bridging-card-2.3.1") { frame, _ in
            try await frame.press(button: "continue")
        }
    }

    @Test("Japanese and Arabic sessions: the SDK's texts in the language, right to left for Arabic; screenshots")
    func languages() async throws {
        for (locale, direction) in [("ja-JP", "ltr"), ("ar", "rtl")] {
            try await Self.pay(.singleSelect, uiType: "02", locale: locale, screenshot: "split-single-select-\(locale)")
            {
                frame, _ in
                #expect(
                    try await frame.browser.execute("return document.getElementById('challenge').dir")
                        == .string(direction))
                #expect(
                    try await frame.browser.execute("return document.getElementById('challenge').lang") != .string("en")
                )
                try await frame.choose("sms")
                try await frame.submit()
            }
        }
    }
}
