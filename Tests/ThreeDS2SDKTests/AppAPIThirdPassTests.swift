import Clocks
import Foundation
import Testing
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

/// The app-facing API's third pass: the app link carried into the challenge, outcomes that always arrive.
@Suite("The app link in every CReq, outcomes that always arrive", .timeLimit(.minutes(5)))
struct AppAPIThirdPassTests {
    /// Answers every screen with a code; opens the bank's app when asked (so 2.2.0 announces Bridging).
    struct CodePresenter: ChallengePresenter {
        let code: String
        var oobAppOpener: (any OOBAppOpener)? { FixedOOBAppOpener(result: .opened) }
        func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
            var form = form
            _ = form.perform(.type(code))
            return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
        }
    }

    /// Pays through `authenticate` with an app URL; returns the outcome, the AReq the backend got and every CReq.
    func pay(version: MessageVersion, url: RequestorAppURL) async throws -> (
        AuthenticationOutcome, JSONObject?, [JSONObject]
    ) {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("app-link-\(version)"))
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: version)], finalStatus: "Y")
        let sent = Locked<JSONObject?>(nil)
        let clock = TestClock()
        let payment = Task {
            await service.authenticate(
                directoryServerID: "A000000004", messageVersion: version, requestorAppURL: url,
                presenter: CodePresenter(code: "123456"), transport: transport, clock: clock
            ) { areq in
                sent.withLock { $0 = areq.json }
                return .challenge(try acs.challengeParameters(for: areq))
            }
        }
        let outcome = await payment.value
        let creqs = try transport.log.requests.compactMap { request in
            acs.errorMessage(in: request) == nil ? try acs.challengeRequest(in: request) : nil
        }
        return (outcome, sent.withLock { $0 }, creqs)
    }

    @Test("2.2.0 Bridging card: every CReq carries the app URL, the first announces Bridging, the AReq has none")
    func bridgingCardCarriesTheAppLink() async throws {
        let url = try RequestorAppURL("shop://3ds/return")
        let (outcome, areq, creqs) = try await pay(version: .v2_2_0, url: url)
        guard case .challenged(.completed(.authenticated)) = outcome else {
            Issue.record("expected a completed challenge, got \(outcome)")
            return
        }
        #expect(creqs.count == 2)
        for creq in creqs { #expect(creq["threeDSRequestorAppURL"] == .string("shop://3ds/return")) }
        guard case .array(let extensions)? = creqs.first?["messageExtension"] else {
            Issue.record("the first CReq announces no Bridging: the bank's-app button could never appear")
            return
        }
        #expect(extensions.count == 1)
        #expect(areq?["threeDSRequestorAppURL"] == nil, "the AReq must not carry the app URL")
    }

    @Test("2.3.1 app-switch card: every CReq carries the https app link and oobAppURLInd 01, the AReq has none")
    func appSwitchCardCarriesTheAppLink() async throws {
        let url = try RequestorAppURL("https://shop.example/3ds/return?order=42")
        let (outcome, areq, creqs) = try await pay(version: .v2_3_1, url: url)
        guard case .challenged(.completed(.authenticated)) = outcome else {
            Issue.record("expected a completed challenge, got \(outcome)")
            return
        }
        #expect(creqs.count == 2)
        for creq in creqs {
            #expect(creq["threeDSRequestorAppURL"] == .string("https://shop.example/3ds/return?order=42"))
            #expect(creq["oobAppURLInd"] == .string("01"))
        }
        #expect(areq?["threeDSRequestorAppURL"] == nil, "the AReq must not carry the app URL")
    }

    @Test("an app URL the version refuses fails the payment before the backend is asked")
    func refusedBeforeAnythingIsSent() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("app-link-refused"))
        let asked = Locked(false)
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_3_1, requestorAppURL: try RequestorAppURL("shop://x"),
            presenter: CodePresenter(code: "1"), transport: FailingTransport(), clock: TestClock()
        ) { _ in
            asked.withLock { $0 = true }
            return .frictionless(transStatus: .authenticated)
        }
        guard case .failed(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(error.code == .invalidInput && !asked.withLock { $0 })
    }

    @Test(
        "RequestorAppURL states what it takes: a scheme, no spaces or controls, no user, at most 2,048",
        arguments: [
            ("https://shop.example/return", true), ("shop://3ds", true), ("", false), ("shop.example/return", false),
            ("https://shop.example/a b", false), ("https://user:pw@shop.example/", false),
            ("https://shop.example/\u{202E}", false),
            ("https://shop.example/" + String(repeating: "a", count: 2100), false),
        ])
    func validator(text: String, accepted: Bool) {
        #expect(((try? RequestorAppURL(text)) != nil) == accepted)
    }

    @Test("the version's rule: 2.2.0 at most 256 characters, any scheme; 2.3.1 https with a host")
    func versionRule() throws {
        let custom = try RequestorAppURL("shop://3ds")
        let long = try RequestorAppURL("https://shop.example/" + String(repeating: "a", count: 300))
        #expect(throws: Never.self) { try custom.check(for: .v2_2_0) }
        #expect(throws: ThreeDS2Error.self) { try custom.check(for: .v2_3_1) }
        #expect(throws: ThreeDS2Error.self) { try long.check(for: .v2_2_0) }
        #expect(throws: Never.self) { try long.check(for: .v2_3_1) }
        #expect(throws: Never.self) { try custom.check(for: .v2_1_0) }
    }

    @Test("an app adding threeDSRequestorAppURL to the AReq is refused and told where it goes")
    func notAnAReqField() throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("app-link-areq"))
        let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: .v2_2_0)
        var areq = try transaction.authenticationRequest(presenter: CodePresenter(code: "1"))
        #expect(throws: ThreeDS2Error.self) { try areq.addField("threeDSRequestorAppURL", .string("shop://x")) }
        transaction.close()
    }

    @Test("the ACS never answers and the transport never gives up: timed out within 10 s + the Erro's 5 s")
    func outcomeArrivesWithANeverReturningTransport() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("never-returns"))
        let acs = ScriptedACS(pki: pki)
        let transport = ScriptedTransport { _ in .neverReturn }
        let clock = TestClock()
        let payment = Task {
            await service.authenticate(
                directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: CodePresenter(code: "1"),
                transport: transport, clock: clock
            ) { areq in .challenge(try acs.challengeParameters(for: areq)) }
        }
        _ = await transport.log.request(at: 0)
        await clock.advance(by: .seconds(10) + .milliseconds(1))
        let erro = await transport.log.request(at: 1)
        #expect(acs.errorMessage(in: erro)?["errorCode"] == .string("402"))
        await clock.advance(by: .seconds(5) + .milliseconds(1))
        let outcome = await payment.value
        guard case .challenged(.timedOut) = outcome else {
            Issue.record("expected timed out, got \(outcome)")
            return
        }
    }
}

/// Two texts per failure, one answer check, the entered code forgotten once sent, an ACS's Erro named and escaped.
@Suite("Cardholder texts, the one answer check, Erro peer text", .timeLimit(.minutes(5)))
struct CardholderTextTests {
    /// A backend error whose description holds what must never reach a screen.
    struct LeakyBackendError: Error, CustomStringConvertible {
        var description: String { "POST http://10.0.0.7/internal/3ds failed: {\"stack\":\"at Backend.swift:42\"}" }
    }

    /// Runs one failure path through `authenticate` with an Arabic service; returns the cardholder text and the
    /// Arabic table's entries.
    func cardholderText(
        _ name: String, transport: (ScriptedACS) -> any ChallengeTransport = { _ in FailingTransport() },
        presenter: any ChallengePresenter = IdlePresenter(), challengeTimeout: Duration = .seconds(300),
        requestor: @escaping @Sendable (ScriptedACS, AuthenticationRequest) async throws -> RequestorResult
    ) async throws -> (text: String, table: Set<String>, outcome: AuthenticationOutcome) {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(
            dataDirectory: scratchDirectory("cardholder-\(name)"), locale: Locale(identifier: "ar"))
        let acs = ScriptedACS(pki: pki)
        let clock = TestClock()
        let used = transport(acs)
        let payment = Task {
            await service.authenticate(
                directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: presenter,
                challengeTimeout: challengeTimeout, requestorTimeout: .seconds(30), transport: used, clock: clock
            ) { areq in try await requestor(acs, areq) }
        }
        let outcome = await payment.value
        let strings = service.strings
        #expect(strings.language == "ar")
        return (service.cardholderText(for: outcome), Set(SDKStrings.Key.allCases.map { strings[$0] }), outcome)
    }

    @Test("every failure path gives one entry of the locale's table, with no placeholder, URL or error text")
    func everyFailureIsATableEntry() async throws {
        var texts: [(String, String, Set<String>)] = []
        let backendFails = try await cardholderText("backend") { _, _ in throw LeakyBackendError() }
        texts.append(("backend failed", backendFails.text, backendFails.table))
        let tooShort = try await cardholderText("timeout-input", challengeTimeout: .seconds(60)) { _, _ in
            .frictionless(transStatus: .authenticated)
        }
        texts.append(("challenge timeout refused", tooShort.text, tooShort.table))
        let refused = try await cardholderText("refused") { _, _ in .frictionless(transStatus: .notAuthenticated) }
        texts.append(("frictionless N", refused.text, refused.table))
        let unreachable = try await cardholderText("unreachable") { acs, areq in
            .challenge(try acs.challengeParameters(for: areq))
        }
        texts.append(("ACS unreachable", unreachable.text, unreachable.table))
        let erro = try await cardholderText(
            "erro",
            transport: { acs in
                ScriptedTransport { _ in
                    .respond(
                        TransportResponse(
                            status: 200, contentType: "application/json",
                            body: Array(
                                #"{"messageType":"Erro","errorCode":"305","errorDescription":"http://acs/x"}"#.utf8)))
                }
            }
        ) { acs, areq in .challenge(try acs.challengeParameters(for: areq)) }
        texts.append(("ACS Erro", erro.text, erro.table))
        let cancelled = try await cardholderText(
            "cancel",
            transport: { acs in acs.transport(screens: [ScriptedACS.textScreen(for: .v2_2_0)], finalStatus: "Y") },
            presenter: ScriptedPresenter(answers: [.cancel])
        ) { acs, areq in .challenge(try acs.challengeParameters(for: areq)) }
        texts.append(("cancelled", cancelled.text, cancelled.table))
        let english = Set(SDKStrings.Key.allCases.map { SDKStrings.english[$0] })
        for (path, text, table) in texts {
            #expect(table.contains(text), "\(path): \(text) is not an entry of the table")
            #expect(!text.contains("%") && !text.contains("http") && !text.contains("Backend"), "\(path): \(text)")
            // Every cardholder text is shown in Arabic, not in English.
            #expect(!english.contains(text), "\(path): \(text) is English")
        }
        guard case .failed(let failure) = backendFails.outcome else {
            Issue.record("expected a failure, got \(backendFails.outcome)")
            return
        }
        // The developer text names the error's type only; the error itself is kept for logs.
        #expect(!failure.message.contains("10.0.0.7") && failure.underlying is LeakyBackendError)
    }

    @Test("an answer the CReq cannot carry stays on the screen with a note, never aborts the challenge")
    func oneAnswerCheck() {
        var screen = ChallengeScreen(uiType: .text, messageVersion: .v2_2_0)
        screen.additionalCodeLabel = "Another code"  // a 2.2.0 screen cannot ask for one: the CReq has no field
        var form = PresentationSettings().formState(for: screen)
        let effect = form.perform(.additionalCode)
        guard case .showNote? = effect else {
            Issue.record("expected a note, got \(String(describing: effect))")
            return
        }
        #expect(form.noteKey == .noteCannotSend)
    }

    @Test("the entered code leaves the form state once its answer is sent")
    func enteredCodeForgotten() {
        var form = PresentationSettings().formState(for: ScriptedACS.textScreen(for: .v2_2_0))
        _ = form.perform(.type("123456"))
        guard case .send(let answer)? = form.perform(.submit()) else {
            Issue.record("expected an answer")
            return
        }
        #expect(answer.action == .submitText("123456", second: nil))
        #expect(form.entries.allSatisfy { $0.isEmpty })
    }

    @Test("an ACS's Erro for another transaction is named so; its text is offered escaped")
    func erroPeerText() {
        let ids = TransactionIdentifiers(threeDSServerTransID: "s", acsTransID: "a", sdkTransID: "k")
        let other = ErrorMessage(received: [
            "messageType": .string("Erro"), "errorCode": .string("305"), "sdkTransID": .string("another"),
            "errorDescription": .string("bad\u{202E}txt"),
        ])
        #expect(other.names(anotherTransactionThan: ids))
        #expect(other.escapedPeerText.description == "bad\\u{202E}txt")
        let same = ErrorMessage(received: [
            "messageType": .string("Erro"), "errorCode": .string("305"), "sdkTransID": .string("k"),
        ])
        #expect(!same.names(anotherTransactionThan: ids))
    }
}

@Suite("The app API's smaller points")
struct AppAPISmallPointsTests {
    @Test("a directory server ID is found without case at createTransaction, as the docs say")
    func directoryServerIDWithoutCase() throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(id: "A000000004", dataDirectory: scratchDirectory("ds-case"))
        let transaction = try service.createTransaction(directoryServerID: "a000000004", messageVersion: .v2_2_0)
        transaction.close()
    }
}

@Suite("The testing product's clock and named errors", .timeLimit(.minutes(5)))
struct TestingProductTests {
    @Test("ManualClock: the never-answering ACS ends timed out with no real time and no other package's clock")
    func manualClock() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("manual-clock"))
        let acs = ScriptedACS(pki: pki)
        let transport = ScriptedTransport { _ in .neverReturn }
        let clock = ManualClock()
        let payment = Task {
            await service.authenticate(
                directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: IdlePresenter(),
                transport: transport, clock: clock
            ) { areq in .challenge(try acs.challengeParameters(for: areq)) }
        }
        _ = await transport.log.request(at: 0)
        await clock.advance(by: .seconds(10) + .milliseconds(1))
        _ = await transport.log.request(at: 1)
        await clock.advance(by: .seconds(5) + .milliseconds(1))
        guard case .challenged(.timedOut) = await payment.value else {
            Issue.record("expected timed out")
            return
        }
        #expect(clock.now.offset > .seconds(15))
    }

    @Test("a scripted screen of another version than the transaction's is named, not left as an Erro 201")
    func versionMismatchNamed() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("version-mismatch"))
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: .v2_3_1)], finalStatus: "Y")
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: IdlePresenter(), transport: transport,
            clock: ManualClock()
        ) { areq in .challenge(try acs.challengeParameters(for: areq)) }
        guard case .challenged(.runtimeError(let failure)) = outcome else {
            Issue.record("expected the script's refusal, got \(outcome)")
            return
        }
        let mismatch = try #require(failure.transportCode.flatMap { _ in failure.underlying as? TransportError })
        #expect(
            mismatch.underlying as? ScriptedACS.VersionMismatch
                == ScriptedACS.VersionMismatch(screenVersion: .v2_3_1, transactionVersion: .v2_2_0))
    }
}

@Suite("Client events name their transaction", .timeLimit(.minutes(5)))
struct ClientEventTests {
    @Test("CReq, CRes, screen and outcome events carry the transaction ID; the screen its UI type; the end its outcome")
    func eventsNameTheTransaction() async throws {
        let pki = try DirectoryServerPKI.make()
        let listener = RecordingEventListener()
        let service = try pki.initializedService(
            dataDirectory: scratchDirectory("events"), clientEventListener: listener)
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: .v2_2_0)], finalStatus: "Y")
        let id = Locked("")
        _ = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_2_0,
            presenter: ScriptedPresenter(answers: [.text("123456")]), transport: transport, clock: ManualClock()
        ) { areq in
            id.withLock { $0 = areq.sdkTransactionID }
            return .challenge(try acs.challengeParameters(for: areq))
        }
        let sdkTransactionID = id.withLock { $0 }
        let challenge = listener.events.filter {
            switch $0 {
            case .challengeRequestSent, .challengeResponseReceived, .challengeScreenShown, .challengeFinished: true
            default: false
            }
        }
        #expect(
            challenge == [
                .challengeRequestSent(sdkTransactionID: sdkTransactionID, counter: 0),
                .challengeResponseReceived(sdkTransactionID: sdkTransactionID),
                .challengeScreenShown(sdkTransactionID: sdkTransactionID, uiType: .text),
                .challengeRequestSent(sdkTransactionID: sdkTransactionID, counter: 1),
                .challengeResponseReceived(sdkTransactionID: sdkTransactionID),
                .challengeFinished(
                    sdkTransactionID: sdkTransactionID, outcome: .completed(transStatus: .authenticated)),
            ])
    }
}
