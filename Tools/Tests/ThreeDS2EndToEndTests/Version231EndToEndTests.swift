import Clocks
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// The 2.3.1 flows against the TestLab, whose ACS checks every CReq as a conforming ACS does (a CReq breaking the
/// tables is answered with an Erro and recorded as a refusal), and where they exist the same flows in 2.2.0.
@Suite("2.3.1 flows end to end against the TestLab over HTTPS")
struct Version231EndToEndTests {
    /// The checks every run shares: no refusal by the ACS, no Erro from the SDK, `oobAppURLInd` exactly in 2.3.1.
    func expectConforming(_ run: Run, version: String, indicator: String = "01") throws {
        let record = try #require(run.record)
        #expect(record.refusals.isEmpty, "the ACS refused a CReq: \(record.refusals)")
        #expect(record.errors.isEmpty)
        for request in record.requests {
            #expect(request["oobAppURLInd"] == (version == "2.3.1" ? .string(indicator) : nil))
            #expect(request["messageVersion"] == .string(version))
        }
    }

    @Test("two entry boxes: both entries sent; the box settings reach the screen")
    func twoEntryBoxes() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .twoEntryBoxes, version: "2.3.1", answers: [.text("123456", second: "1990")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.infoLabel == nil && screen.entryBoxes.count == 2)
        let first = try #require(screen.entryBoxes.first)
        #expect(first.label == "One-time code" && first.maxLength == 6 && first.keyboard == .numeric)
        #expect(first.isMasked && first.offersRevealToggle && first.autofill == .smsOneTimeCode)
        #expect(screen.entryBoxes[1].label == "Year of birth" && !screen.entryBoxes[1].isMasked)
        #expect(screen.styled(screen.infoText ?? "").runs.contains { $0.isBold && $0.text == "one-time code" })
        let dark = try #require(screen.issuerImage?.url(for: .high, appearance: .dark))
        #expect(dark.hasSuffix("/issuer-dark.png"))
        #expect(
            screen.paymentSystemImage?.url(for: .high, appearance: .monochrome)?.hasSuffix("/ps-default.png") == true)
        let request = try #require(run.record?.requests.last)
        #expect(request["challengeDataEntry"] == .string("123456"))
        #expect(request["challengeDataEntryTwo"] == .string("1990"))
    }

    @Test("a wrong second entry is a wrong answer; 2.2.0 shows one box and never sends challengeDataEntryTwo")
    func twoEntryBoxesWrongAndOlder() async throws {
        let wrong = try await ThreeDS2EndToEndTests.run(
            .twoEntryBoxes, version: "2.3.1",
            answers: [.text("123456", second: "2000"), .text("123456", second: "1990")])
        #expect(wrong.outcome == .completed(transStatus: .authenticated))
        #expect(wrong.presenter.screens.map(\.showsWarningIndicator) == [false, true])
        try expectConforming(wrong, version: "2.3.1")
        let older = try await ThreeDS2EndToEndTests.run(.twoEntryBoxes, version: "2.2.0", answers: [.text("123456")])
        #expect(older.outcome == .completed(transStatus: .authenticated))
        try expectConforming(older, version: "2.2.0")
        #expect(older.presenter.screens.first?.entryBoxes.isEmpty == true)
        let refused = try await ThreeDS2EndToEndTests.run(
            .twoEntryBoxes, version: "2.2.0", answers: [.text("123456", second: "1990")])
        #expect(refused.outcome == .cancelled)
        #expect(refused.presenter.problems.first?.contains("no entry box 2") == true)
    }

    @Test("the additional-code button: challengeAddCode Y alone, then the out-of-band screen")
    func additionalCode() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .additionalCode, version: "2.3.1", answers: [.additional(), .continue()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        let requests = try #require(run.record?.requests)
        #expect(requests.map { $0["challengeAddCode"]?.stringValue } == [nil, "Y", nil])
        #expect(requests[1]["challengeDataEntry"] == nil && requests[1]["trustListDataEntry"] == .string("N"))
        #expect(run.presenter.screens.map(\.uiType) == [.text, .outOfBand])
        #expect(run.presenter.screens.first?.additionalCodeLabel == "Use my banking app instead")
        let older = try await ThreeDS2EndToEndTests.run(.additionalCode, version: "2.2.0", answers: [.additional()])
        #expect(older.outcome == .cancelled, "2.2.0 screens offer no additional-code button")
        #expect(older.record?.requests.allSatisfy { $0["challengeAddCode"] == nil } == true)
    }

    @Test(
        "trust list and device binding: Y/N as chosen, N when untouched, above the buttons; 2.2.0 whitelisting only",
        arguments: [(true, false), (false, true)])
    func consents(trust: Bool, binding: Bool) async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .consents, version: "2.3.1", answers: [.text("123456", whitelist: trust, deviceBinding: binding)])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.consentsAboveActions && screen.deviceBindingText != nil && screen.whitelistingText != nil)
        let request = try #require(run.record?.requests.last)
        #expect(request["trustListDataEntry"] == .string(trust ? "Y" : "N"))
        #expect(request["deviceBindingDataEntry"] == .string(binding ? "Y" : "N"))
        #expect(request["whitelistingDataEntry"] == nil)
        let untouched = try await ThreeDS2EndToEndTests.run(.consents, version: "2.3.1", answers: [.resend, .cancel])
        try expectConforming(untouched, version: "2.3.1")
        let requests = try #require(untouched.record?.requests)
        #expect(
            requests[1]["trustListDataEntry"] == .string("N") && requests[1]["deviceBindingDataEntry"] == .string("N"))
        #expect(requests[2]["trustListDataEntry"] == nil && requests[2]["deviceBindingDataEntry"] == nil)
        let older = try await ThreeDS2EndToEndTests.run(
            .consents, version: "2.2.0", answers: [.text("123456", whitelist: trust)])
        try expectConforming(older, version: "2.2.0")
        #expect(older.record?.requests.last?["whitelistingDataEntry"] == .string(trust ? "Y" : "N"))
        #expect(older.record?.requests.last?["deviceBindingDataEntry"] == nil)
    }

    @Test("out of band: the app link, back from the app continues on its own with oobContinue 02")
    func oobAppReturns() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .outOfBand, version: "2.3.1", answers: [.openApp(result: .returned)])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.oobAppURL == "https://bank.testlab.example/approve" && screen.oobAppLabel == "Open banking app")
        #expect(run.record?.requests.last?["oobContinue"] == .string("02"))
        #expect(run.record?.requests.last?["oobAppStatus"] == nil)
    }

    @Test("out of band: a failed open keeps the screen; continue then carries oobAppStatus 01")
    func oobAppFails() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .outOfBand, version: "2.3.1", answers: [.openApp(result: .failed), .continue()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        #expect(run.presenter.screens.count == 1)
        let request = try #require(run.record?.requests.last)
        #expect(request["oobContinue"] == .string("01") && request["oobAppStatus"] == .string("01"))
    }

    @Test("out of band: an app handed the link but not back yet; the cardholder continues (01, no status)")
    func oobAppOpened() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .outOfBand, version: "2.3.1", answers: [.openApp(result: .opened), .continue()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        #expect(run.record?.requests.last?["oobContinue"] == .string("01"))
        #expect(run.record?.requests.last?["oobAppStatus"] == nil)
    }

    @Test("out of band: no opener says 02, an app that forbids it says 03; neither gets an app link")
    func oobAppNotSupported() async throws {
        let device = try await ThreeDS2EndToEndTests.run(
            .outOfBand, version: "2.3.1", answers: [.continue()], opensApps: false)
        #expect(device.outcome == .completed(transStatus: .authenticated))
        try expectConforming(device, version: "2.3.1", indicator: "02")
        #expect(device.presenter.screens.first?.oobAppURL == nil)
        let requestor = try await ThreeDS2EndToEndTests.run(
            .outOfBand, version: "2.3.1", answers: [.continue()], appsAllowed: false)
        try expectConforming(requestor, version: "2.3.1", indicator: "03")
        #expect(requestor.presenter.screens.first?.oobAppURL == nil)
        let refused = try await ThreeDS2EndToEndTests.run(
            .outOfBand, version: "2.3.1", answers: [.openApp()], opensApps: false)
        #expect(refused.outcome == .cancelled)
        #expect(refused.presenter.problems.first?.contains("no app to open") == true)
    }

    @Test("out of band in 2.2.0: oobContinue is the JSON true, with no 2.3.1 field")
    func oob220() async throws {
        let run = try await ThreeDS2EndToEndTests.run(.outOfBand, version: "2.2.0", answers: [.continue()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.2.0")
        #expect(run.record?.requests.last?["oobContinue"] == .bool(true))
        #expect(run.presenter.screens.first?.oobAppURL == nil)
    }

    @Test("HTML out of band (UI 06): the page's button sends oobContinue 01 with its form data")
    func htmlOOBButton() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .htmlOutOfBand, version: "2.3.1", answers: [.html(fields: [:], button: "I have approved")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.uiType == .htmlOutOfBand && screen.oobAppURL != nil && screen.html?.contains("<form") == true)
        let request = try #require(run.record?.requests.last)
        let acsTransID = try #require(run.authentication.challengeParameters?.acsTransactionID)
        #expect(request["oobContinue"] == .string("01"))
        #expect(request["challengeHTMLDataEntry"] == .string("txid=\(acsTransID)&action=approved"))
    }

    @Test("HTML out of band (UI 06): back from the bank's app sends oobContinue 02 alone")
    func htmlOOBApp() async throws {
        let run = try await ThreeDS2EndToEndTests.run(.htmlOutOfBand, version: "2.3.1", answers: [.openApp()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        let request = try #require(run.record?.requests.last)
        #expect(request["oobContinue"] == .string("02") && request["challengeHTMLDataEntry"] == nil)
    }

    @Test("the information screen continues with infoContinueIndicator true; its text has bold runs")
    func information() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .information, version: "2.3.1", answers: [.continue(), .text("123456")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        try expectConforming(run, version: "2.3.1")
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.styled(screen.infoText ?? "").runs.map(\.isBold) == [false, true, false])
        #expect(run.record?.requests[1]["infoContinueIndicator"] == .bool(true))
    }

    @Test(
        "threeDSRequestorAppURL: 2.3.1 an https link of at most 2048, 2.2.0 a URL of at most 256, never spaces",
        arguments: [
            ("2.3.1", "shopapp://return", false),
            ("2.3.1", "https://shop.example/" + String(repeating: "a", count: 2028), false),
            ("2.3.1", "https://shop.example/" + String(repeating: "a", count: 2027), true),
            ("2.3.1", "https:///x", false),
            ("2.2.0", "shopapp://return", true),
            ("2.2.0", "https://shop.example/" + String(repeating: "a", count: 240), false),
            ("2.1.0", "shopapp://return", true),
            ("2.1.0", "anything at all", false),
        ])
    func requestorAppURL(version: String, url: String, accepted: Bool) async throws {
        do {
            let run = try await ThreeDS2EndToEndTests.run(
                .text, version: version, answers: [.text("123456")], requestorAppURL: url)
            #expect(accepted, "\(url.prefix(30)) (\(url.count)) was accepted in \(version)")
            #expect(run.outcome == .completed(transStatus: .authenticated))
            try expectConforming(run, version: version)
            let sent = run.record?.requests.map { $0["threeDSRequestorAppURL"] }
            #expect(sent?.allSatisfy { $0 == (version == "2.1.0" ? nil : .string(url)) } == true, "passed on unchanged")
        } catch let error as ThreeDS2Error {
            #expect(!accepted, "\(error)")
            #expect(error.code == .invalidInput && error.message.contains("3DS Requestor App URL"))
        }
    }

    @Test("the bank's app never comes back and nobody continues: the overall timer ends it as timed out")
    func oobAppTimeout() async throws {
        let lab = try await LabPool.shared.lab()
        let service = ThreeDS2Service()
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: temporaryDirectory()))
        defer { try? service.cleanup() }
        let transaction = try service.createTransaction(
            directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.3.1")
        let transport = try lab.makeTransport()
        let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
            parameters: try transaction.getAuthenticationRequestParameters(),
            purchase: Purchase(cardNumber: Scenario.outOfBand.cardNumber, amount: "100", currency: "978"))
        let parameters = try #require(response.challengeParameters)
        let presenter = AppOpeningPresenter()
        let clock = TestClock()
        let task = Task {
            try await transaction.challenge(
                parameters, presenter: presenter, timeout: .seconds(300), transport: transport, clock: clock)
        }
        await presenter.opened.wait()
        await clock.advance(by: .seconds(300) + .milliseconds(1))
        let outcome = try await task.value
        #expect(outcome == .timedOut)
        let record = try #require(await lab.acsRecord(acsTransID: parameters.acsTransactionID))
        #expect(record.requests.count == 1 && record.refusals.isEmpty)
        #expect(record.errors.first?["errorCode"] == .string("402"))
        try await transport.shutdown()
    }
}

/// Presses the open-app button on the first screen; the bank's app never comes back.
final class AppOpeningPresenter: ChallengePresenter, Sendable {
    let opened = AsyncSignal()
    var oobAppOpener: (any OOBAppOpener)? { HangingOpener(presenter: self) }

    /// Opens the app, which never comes back: the open waits for the challenge's own timer to cancel it.
    struct HangingOpener: OOBAppOpener {
        let presenter: AppOpeningPresenter
        func open(_ url: URL) async -> OOBAppOpenResult {
            presenter.opened.fire()
            try? await TestClock().sleep(for: .seconds(3600))
            return .failed
        }
    }

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        var state = form
        guard case .openApp(let url)? = state.perform(.openApp), let opener = oobAppOpener else {
            return ChallengeAnswer(.cancel)
        }
        return state.perform(.appOpenResult(await opener.open(url)))?.answer ?? ChallengeAnswer(.cancel)
    }
}
