import Clocks
import Foundation
import Logging
import Testing
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

// This file imports ThreeDS2SDK and not ThreeDS2Messages or ThreeDS2JOSE: the screens, answers, versions and UI
// types below come through the SDK's re-exports, as they do in an app (ImportAloneTests imports nothing else).

/// What every SwiftUI or UIKit app writes first: a main-actor view model that is the progress indicator, the
/// receiver and the presenter, with no `nonisolated`, `@preconcurrency` or `Sendable` workaround.
@MainActor
final class CheckoutViewModel: ChallengeStatusReceiver, ProgressIndicator, ChallengePresenter {
    var log: [String] = []
    let code: String

    init(code: String) { self.code = code }

    private func record(_ line: String) {
        // The run-time isolation check that crashed a `@preconcurrency` conformance: every call arrives on the main
        // actor's executor.
        MainActor.assertIsolated("called off the main actor")
        log.append(line)
    }

    func show(scheme: ProcessingScheme?, presentation: PresentationSettings) {
        record("show \(scheme?.name ?? "-")")
    }
    func hide() { record("hide") }
    /// Fires when the receiver is told the outcome.
    let told = AsyncSignal()
    func completed(_ event: CompletionEvent) {
        record("completed \(event.transactionStatus)")
        told.fire()
    }
    func cancelled() { record("cancelled") }
    func timedout() { record("timedout") }
    func protocolError(_ event: ProtocolErrorEvent) { record("protocolError \(event.errorMessage.errorCode)") }
    func runtimeError(_ event: RuntimeErrorEvent) { record("runtimeError \(event.errorCode)") }

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        record("screen \(form.screen.uiType.rawValue)")
        var form = form
        _ = form.perform(.type(code))
        return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
    }

    func dismiss(outcome: ChallengeOutcome) async { record("dismiss \(outcome.name)") }

    var oobAppOpener: (any OOBAppOpener)? { nil }
}

@Suite("The API an integrator meets")
struct IntegratorAPITests {
    @Test("a @MainActor view model is the indicator, receiver and presenter; the SDK calls it on the main actor")
    @MainActor
    func mainActorViewModel() async throws {
        let lab = try await LabPool.shared.lab()
        let (_, transaction, parameters, transport) = try await prepare(.text, lab: lab)
        let model = CheckoutViewModel(code: "123456")
        let progress = transaction.getProgressView(indicator: model, clock: ImmediateClock())
        await progress.start()
        await progress.stop()
        try transaction.doChallenge(
            challengeParameters: parameters, challengeStatusReceiver: model, timeout: .seconds(300), presenter: model,
            transport: transport)
        await model.told.wait()
        #expect(model.log.first?.hasPrefix("show ") == true, "the indicator showed the directory server: \(model.log)")
        #expect(Array(model.log.dropFirst()) == ["hide", "screen 01", "dismiss completed", "completed Y"])
        try await transport.shutdown()
    }

    @Test(
        "the AReq value encodes as a 3DS Server expects; the lab accepts it; its ARes decodes to challenge parameters")
    func authenticationRequestRoundTrip() async throws {
        let lab = try await LabPool.shared.lab()
        let service = ThreeDS2Service()
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: temporaryDirectory()))
        defer { try? service.cleanup() }
        let transaction = try service.createTransaction(
            directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.3.1")
        let presenter = ScriptedPresenter(answers: [.text("123456")])
        let request = try transaction.authenticationRequest(
            presenter: presenter, challengeTimeout: .seconds(10 * 60),
            requestorAppURL: try RequestorAppURL("https://shop.example/3ds"))
        let encoded = try JSONEncoder().encode(request)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        let key = try #require(object["sdkEphemPubKey"] as? [String: String], "the key is a JSON object")
        #expect(key["kty"] == "EC" && key["crv"] == "P-256" && key["x"] != nil && key["y"] != nil && key.count == 4)
        #expect(object["deviceChannel"] as? String == "01")
        #expect(object["sdkMaxTimeout"] as? String == "10")
        #expect(object["messageVersion"] as? String == "2.3.1")
        #expect(object["sdkTransID"] as? String == transaction.sdkTransactionID)
        #expect(object["threeDSRequestorAppURL"] == nil, "no AReq carries the app URL; the CReqs do")
        let render = try #require(object["deviceRenderOptions"] as? [String: Any])
        #expect(render["sdkInterface"] as? String == "03")
        #expect(render["sdkUiType"] as? [String] == ["01", "02", "03", "04", "05", "06", "07"])
        #expect(object["sdkType"] as? String == "01", "a 2.3.1 AReq says Default-SDK")
        #expect(object["defaultSdkType"] as? [String: String] == ["sdkVariant": "01", "wrappedInd": "N"])
        #expect(AuthenticationRequest.maxTimeoutText(.seconds(60)) == "05")
        #expect(AuthenticationRequest.maxTimeoutText(.seconds(200 * 60)) == "99")

        // The app adds its purchase fields and posts; the lab's 3DS Server takes it.
        let transport = try lab.makeTransport()
        let url = lab.baseURL.appendingPathComponent("3ds/authenticate")
        func post(_ body: [String: Any]) async throws -> TransportResponse {
            try await transport.post(
                url: url, body: Array(try JSONSerialization.data(withJSONObject: body)),
                contentType: "application/json", timeout: .seconds(30))
        }
        var body = object
        body["acctNumber"] = Scenario.text.cardNumber
        body["purchaseAmount"] = "1999"
        body["purchaseCurrency"] = "978"
        let answer = try await post(body)
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        let challenge = try JSONDecoder().decode(ChallengeParameters.self, from: Data(answer.body))
        #expect(challenge.acsRefNumber == TestLab.acsReferenceNumber && challenge.threeDSRequestorAppURL == nil)
        let outcome = try await transaction.challenge(
            challenge, presenter: presenter, timeout: .seconds(300), transport: transport, clock: TestClock())
        #expect(outcome == .completed(transStatus: .authenticated))

        // A missing ARes field is a decoding error naming it.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ChallengeParameters.self, from: Data(#"{"acsTransID":"x"}"#.utf8))
        }

        // As strict as a real 3DS Server: the key as a string, a one-digit timeout, no or bad render options.
        let keyText = String(decoding: try JSONSerialization.data(withJSONObject: key), as: UTF8.self)
        var variants: [(String, [String: Any])] = []
        var stringKey = body
        stringKey["sdkEphemPubKey"] = keyText
        variants.append(("sdkEphemPubKey must be a JSON object", stringKey))
        var shortTimeout = body
        shortTimeout["sdkMaxTimeout"] = "5"
        variants.append(("sdkMaxTimeout must be two digits", shortTimeout))
        var noRender = body
        noRender["deviceRenderOptions"] = nil
        variants.append(("deviceRenderOptions must be a JSON object", noRender))
        var badInterface = body
        badInterface["deviceRenderOptions"] = ["sdkInterface": "04", "sdkUiType": ["01"]]
        variants.append(("sdkInterface must be 01, 02 or 03", badInterface))
        var badTypes = body
        badTypes["deviceRenderOptions"] = ["sdkInterface": "01", "sdkUiType": [String]()]
        variants.append(("sdkUiType must be a non-empty array", badTypes))
        var futureType = body
        futureType["messageVersion"] = "2.2.0"
        futureType["deviceRenderOptions"] = ["sdkInterface": "01", "sdkUiType": ["01", "07"]]
        variants.append(("UI types message version 2.2.0 defines", futureType))
        var noSDKType = body
        noSDKType["sdkType"] = nil
        variants.append(("sdkType must be 01", noSDKType))
        // A Split-SDK's 02 (issue 49) needs the split fields: without them the lab names the first missing one.
        var splitSDK = body
        splitSDK["sdkType"] = "02"
        variants.append(("splitSdkType must be an object", splitSDK))
        var noDefaultType = body
        noDefaultType["defaultSdkType"] = nil
        variants.append(("defaultSdkType must be an object", noDefaultType))
        var badVariant = body
        badVariant["defaultSdkType"] = ["sdkVariant": "native", "wrappedInd": "N"]
        variants.append(("defaultSdkType must be an object", badVariant))
        var sdkTypeIn220 = body
        sdkTypeIn220["messageVersion"] = "2.2.0"
        sdkTypeIn220["deviceRenderOptions"] = ["sdkInterface": "03", "sdkUiType": ["01", "02", "03", "04", "05"]]
        variants.append(("a 2.2.0 AReq cannot carry it", sdkTypeIn220))
        for (expected, variant) in variants {
            let refused = try await post(variant)
            let text = String(decoding: refused.body, as: UTF8.self)
            #expect(refused.status == 400 && text.contains(expected), "\(expected): \(refused.status) \(text)")
        }
        try await transport.shutdown()
    }

    @Test("an app that never set up logging hears nothing: the lifecycle and every transaction log at debug")
    func loggingLevels() async throws {
        let capture = LogCapture()
        var logger = Logger(label: "threeds2.sdk", factory: capture.handler)
        logger.logLevel = .info
        let quiet = try await run(.text, answers: [.text("123456")], logger: logger)
        #expect(quiet.outcome == .completed(transStatus: .authenticated))
        #expect(capture.text.isEmpty, "logged at info or above: \(capture.text)")
        logger.logLevel = .debug
        _ = try await run(.text, answers: [.text("123456")], logger: logger)
        let log = capture.text
        for message in ["3DS SDK initialised", "transaction created", "challenge started", "challenge finished"] {
            #expect(log.contains("debug \(message)"), "\(message) at debug: \(log)")
        }
        #expect(!log.contains("info ") && !log.contains("notice "), "\(log)")
    }
}
