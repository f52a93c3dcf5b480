import Clocks
import Foundation
import Testing
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

// The public API (and the testing product's lock), as an app's tests would use it.

/// The way back (issue 48, point 2): the 3DS Requestor App URL naming its transaction where the app marks it, the
/// returning link handed to the SDK (live, gone, unidentified, not ours), and the one-call API's confirmation step.
@Suite("The return link: the app URL marked, the transaction found live or gone", .timeLimit(.minutes(5)))
struct ReturnLinkTests {
    /// Answers every screen with a code; opens the bank's app when asked (the app-link suite's presenter).
    typealias CodePresenter = AppAPIThirdPassTests.CodePresenter

    static let placeholderURL = "https://shop.example/3ds/{sdkTransID}/back"
    static let id = "0f8fad5b-d9cb-469f-a165-70867728950e"

    /// Pays through `authenticate` with an app URL; returns the outcome, the AReq's sdkTransID and every CReq.
    func pay(version: MessageVersion, url: RequestorAppURL) async throws -> (
        AuthenticationOutcome, String, [JSONObject]
    ) {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("return-\(version)"))
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: version)], finalStatus: "Y")
        let sent = Locked("")
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: version, requestorAppURL: url,
            presenter: CodePresenter(code: "123456"), transport: transport, clock: TestClock()
        ) { areq in
            sent.withLock { $0 = areq.sdkTransactionID }
            return .challenge(try acs.challengeParameters(for: areq))
        }
        let creqs = try transport.log.requests.compactMap { request in
            acs.errorMessage(in: request) == nil ? try acs.challengeRequest(in: request) : nil
        }
        return (outcome, sent.withLock { $0 }, creqs)
    }

    @Test("a placeholder is replaced by the transaction's ID in every CReq; the AReq's sdkTransID is that ID")
    func placeholderFilledInEveryCReq() async throws {
        let url = try RequestorAppURL(Self.placeholderURL, transactionID: .sdkTransIDPlaceholder)
        let (outcome, id, creqs) = try await pay(version: .v2_3_1, url: url)
        guard case .challenged(.completed(.authenticated)) = outcome else {
            Issue.record("expected a completed challenge, got \(outcome)")
            return
        }
        #expect(creqs.count == 2 && !id.isEmpty)
        for creq in creqs { #expect(creq["threeDSRequestorAppURL"] == .string("https://shop.example/3ds/\(id)/back")) }
    }

    @Test("a query item is added, before the fragment, in every 2.2.0 CReq")
    func queryItemAddedInEveryCReq() async throws {
        let url = try RequestorAppURL("shop://3ds/return?order=42#top", transactionID: .queryItem("transID"))
        let (outcome, id, creqs) = try await pay(version: .v2_2_0, url: url)
        guard case .challenged(.completed(.authenticated)) = outcome else {
            Issue.record("expected a completed challenge, got \(outcome)")
            return
        }
        #expect(creqs.count == 2)
        for creq in creqs {
            #expect(creq["threeDSRequestorAppURL"] == .string("shop://3ds/return?order=42&transID=\(id)#top"))
        }
    }

    @Test("without a mark the URL travels unchanged, as the app wrote it")
    func unmarkedTravelsUnchanged() throws {
        let url = try RequestorAppURL("https://shop.example/3ds/return?order=42")
        #expect(url.transactionIDMark == nil)
        #expect(url.text(forTransaction: Self.id) == "https://shop.example/3ds/return?order=42")
        let bare = try RequestorAppURL("shop://3ds", transactionID: .queryItem("tx"))
        #expect(bare.text(forTransaction: Self.id) == "shop://3ds?tx=\(Self.id)")
        let open = try RequestorAppURL("https://shop.example/r?", transactionID: .queryItem("tx"))
        #expect(open.text(forTransaction: Self.id) == "https://shop.example/r?tx=\(Self.id)")
    }

    @Test(
        "a mark without its place, twice, in the host, with a bad name or a name already used is refused",
        arguments: [
            ("https://shop.example/3ds/back", RequestorAppURL.TransactionIDMark.sdkTransIDPlaceholder),
            ("https://shop.example/{sdkTransID}/{sdkTransID}", .sdkTransIDPlaceholder),
            ("https://{sdkTransID}.shop.example/back", .sdkTransIDPlaceholder),
            ("shop://{sdkTransID}", .sdkTransIDPlaceholder),
            ("https://shop.example/back", .placeholder("")),
            ("https://shop.example/back", .queryItem("")),
            ("https://shop.example/back", .queryItem("trans id")),
            ("https://shop.example/back", .queryItem("t&x")),
            ("https://shop.example/back", .queryItem(String(repeating: "t", count: 65))),
            ("https://shop.example/back?transID=1", .queryItem("transID")),
        ])
    func badMarksRefused(text: String, mark: RequestorAppURL.TransactionIDMark) {
        #expect(throws: ThreeDS2Error.self) { try RequestorAppURL(text, transactionID: mark) }
        do {
            _ = try RequestorAppURL(text, transactionID: mark)
        } catch {
            #expect(error.code == .invalidInput && !error.message.contains(text), "\(error)")
        }
    }

    @Test("the filled URL must fit the version: 2.2.0's 256 characters counted with the 36-character ID")
    func filledLengthChecked() throws {
        // 230 characters: fits 2.2.0 as written, not with "?transID=" and an ID (276).
        let text = "shop://3ds/" + String(repeating: "a", count: 219)
        #expect(text.count == 230)
        try RequestorAppURL(text).check(for: .v2_2_0)
        let marked = try RequestorAppURL(text, transactionID: .queryItem("transID"))
        #expect(throws: ThreeDS2Error.self) { try marked.check(for: .v2_2_0) }
        // 2.3.1 takes 2,048: the same marked https URL fits there.
        try RequestorAppURL(
            "https://shop.example/" + String(repeating: "a", count: 219), transactionID: .queryItem("t")
        )
        .check(for: .v2_3_1)
        // At the bound of every version: 2,040 characters fit alone, not with an ID.
        let long = "https://shop.example/" + String(repeating: "a", count: 2019)
        _ = try RequestorAppURL(long)
        #expect(throws: ThreeDS2Error.self) { try RequestorAppURL(long, transactionID: .queryItem("t")) }
    }

    @Test("a marked URL too long for the version is refused before the backend is asked")
    func tooLongRefusedBeforeSending() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("return-long"))
        let asked = Locked(false)
        let url = try RequestorAppURL(
            "shop://3ds/" + String(repeating: "a", count: 219), transactionID: .queryItem("transID"))
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_2_0, requestorAppURL: url, presenter: IdlePresenter(),
            transport: FailingTransport(), clock: TestClock()
        ) { _ in
            asked.withLock { $0 = true }
            return .frictionless(transStatus: .authenticated)
        }
        guard case .failed(let error) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(error.code == .invalidInput && error.message.contains("256"), "\(error)")
        #expect(!asked.withLock { $0 })
    }

    @Test("a link after a restart (no transaction in this process, service not even initialised) is gone, with its ID")
    func goneAfterRestart() throws {
        let service = ThreeDS2Service()
        let placeholder = try RequestorAppURL(Self.placeholderURL, transactionID: .sdkTransIDPlaceholder)
        let link = URL(string: "https://shop.example/3ds/\(Self.id.uppercased())/back")!
        #expect(
            service.returnedTransaction(from: link, requestorAppURL: placeholder) == .gone(sdkTransactionID: Self.id))
        // What the bank's app added is ignored.
        let added = URL(string: "https://shop.example/3ds/\(Self.id)/back?from=bank#done")!
        #expect(
            service.returnedTransaction(from: added, requestorAppURL: placeholder) == .gone(sdkTransactionID: Self.id))
        let query = try RequestorAppURL(
            "https://shop.example/3ds/return?order=42", transactionID: .queryItem("transID"))
        let queried = URL(string: "https://SHOP.example/3ds/return?from=bank&order=42&transID=\(Self.id)")!
        #expect(service.returnedTransaction(from: queried, requestorAppURL: query) == .gone(sdkTransactionID: Self.id))
    }

    @Test("hostile text in a returning link never becomes a transaction ID: controls, bidi, paths, doubled IDs")
    func hostileLinks() throws {
        let service = ThreeDS2Service()
        let placeholder = try RequestorAppURL(Self.placeholderURL, transactionID: .sdkTransIDPlaceholder)
        let query = try RequestorAppURL("https://shop.example/3ds/return", transactionID: .queryItem("transID"))
        let upper = Self.id.uppercased()
        let hostile: [(String, RequestorAppURL)] = [
            ("https://shop.example/3ds/\(Self.id)%0A/back", placeholder),
            ("https://shop.example/3ds/%0A\(Self.id.dropFirst())/back", placeholder),
            ("https://shop.example/3ds/\(Self.id)%E2%80%AE/back", placeholder),
            ("https://shop.example/3ds/..%2F\(Self.id.dropFirst(3))/back", placeholder),
            ("https://shop.example/3ds/\(Self.id)%00/back", placeholder),
            ("https://shop.example/3ds/return?transID=\(Self.id)%0D%0AX-Forged:%201", query),
            ("https://shop.example/3ds/return?transID=\(Self.id)&transID=\(Self.id)", query),
            ("https://shop.example/3ds/return?transID=%7B\(Self.id.dropFirst(2))%7D", query),
            ("https://shop.example/3ds/return?transID=\(Self.id.replacingOccurrences(of: "-", with: ""))0000", query),
            ("https://shop.example/3ds/return?transID=\(String(Self.id.dropLast()))%E2%80%8B", query),
        ]
        for (link, url) in hostile {
            let result = service.returnedTransaction(from: URL(string: link)!, requestorAppURL: url)
            // Not the app's link at all, or the app's link without an ID it can trust: never a transaction named.
            #expect(result == .notRequestorAppURL || result == .unidentified, "\(link): \(result)")
        }
        // The same ID in upper case is the transaction's, returned as the SDK writes it (lower case), never as sent.
        let shouted = service.returnedTransaction(
            from: URL(string: "https://shop.example/3ds/return?transID=\(upper)")!, requestorAppURL: query)
        #expect(shouted == .gone(sdkTransactionID: Self.id), "\(shouted)")
    }

    @Test("links that are not the app URL, or whose ID slot holds no ID, are not the SDK's")
    func notOurs() throws {
        let service = ThreeDS2Service()
        let placeholder = try RequestorAppURL(Self.placeholderURL, transactionID: .sdkTransIDPlaceholder)
        let query = try RequestorAppURL("https://shop.example/3ds/return", transactionID: .queryItem("transID"))
        let plain = try RequestorAppURL("shop://3ds/return")
        for (link, url) in [
            ("https://shop.example/3ds/settings/back", placeholder),
            ("https://shop.example/3ds/\(Self.id)/elsewhere", placeholder),
            ("https://shop.example/3ds/\(Self.id)/backdoor", placeholder),
            ("https://evil.example/3ds/\(Self.id)/back", placeholder),
            ("https://shop.example/3ds/other?transID=\(Self.id)", query),
            ("http://shop.example/3ds/return?transID=\(Self.id)", query),
            ("shop://3ds/other", plain),
            ("other://3ds/return", plain),
            ("https://shop.example/3ds/return?transID=" + String(repeating: "a", count: 5000), query),
        ] {
            #expect(
                service.returnedTransaction(from: URL(string: link)!, requestorAppURL: url) == .notRequestorAppURL,
                "\(link)")
        }
    }

    @Test(
        "the app URL without an ID (unmarked, or its query item missing or not an ID) and nothing running: unidentified"
    )
    func unidentified() throws {
        let service = ThreeDS2Service()
        let query = try RequestorAppURL("https://shop.example/3ds/return", transactionID: .queryItem("transID"))
        for link in [
            "https://shop.example/3ds/return", "https://shop.example/3ds/return?transID=42",
            "https://shop.example/3ds/return?transID=\(Self.id)&transID=\(Self.id)",
        ] {
            #expect(service.returnedTransaction(from: URL(string: link)!, requestorAppURL: query) == .unidentified)
        }
        let plain = try RequestorAppURL("shop://3ds/return")
        #expect(
            service.returnedTransaction(from: URL(string: "shop://3ds/return?x=1")!, requestorAppURL: plain)
                == .unidentified)
    }

    /// Starts a payment whose challenge shows its first screen and waits; returns the task, the presenter and the
    /// transaction ID the backend saw.
    func waitingPayment(
        _ service: ThreeDS2Service, _ pki: DirectoryServerPKI, url: RequestorAppURL
    ) async throws -> (Task<AuthenticationOutcome, Never>, String) {
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: .v2_3_1)], finalStatus: "Y")
        let presenter = IdlePresenter()
        let sent = Locked("")
        let clock = TestClock()
        let payment = Task {
            await service.authenticate(
                directoryServerID: "A000000004", messageVersion: .v2_3_1, requestorAppURL: url, presenter: presenter,
                transport: transport, clock: clock
            ) { areq in
                sent.withLock { $0 = areq.sdkTransactionID }
                return .challenge(try acs.challengeParameters(for: areq))
            }
        }
        await presenter.presented.wait()
        return (payment, sent.withLock { $0 })
    }

    @Test("while its challenge runs the link finds the transaction live; once it ended, the same late link is gone")
    func liveThenGone() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("return-live"))
        let url = try RequestorAppURL(Self.placeholderURL, transactionID: .sdkTransIDPlaceholder)
        let (payment, id) = try await waitingPayment(service, pki, url: url)
        let link = URL(string: url.text(forTransaction: id))!
        #expect(service.returnedTransaction(from: link, requestorAppURL: url) == .live(sdkTransactionID: id))
        // Another transaction's link is not this one.
        let other = URL(string: url.text(forTransaction: Self.id))!
        #expect(service.returnedTransaction(from: other, requestorAppURL: url) == .gone(sdkTransactionID: Self.id))
        payment.cancel()
        guard case .challenged(.cancelled) = await payment.value else {
            Issue.record("expected a cancelled challenge")
            return
        }
        #expect(service.returnedTransaction(from: link, requestorAppURL: url) == .gone(sdkTransactionID: id))
    }

    @Test("an unmarked link while one challenge runs is that challenge's; after it ended, unidentified")
    func unmarkedLive() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("return-unmarked"))
        let url = try RequestorAppURL("https://shop.example/3ds/return")
        let (payment, id) = try await waitingPayment(service, pki, url: url)
        let link = URL(string: "https://shop.example/3ds/return")!
        #expect(service.returnedTransaction(from: link, requestorAppURL: url) == .live(sdkTransactionID: id))
        payment.cancel()
        _ = await payment.value
        #expect(service.returnedTransaction(from: link, requestorAppURL: url) == .unidentified)
    }
}

/// The one-call API's confirmation step (issue 48, point 2): the backend's status beside the final CRes's.
@Suite("authenticate with a confirmation step: the backend's result beside the CRes status", .timeLimit(.minutes(5)))
struct ConfirmationStepTests {
    /// Pays a code challenge (final CRes `Y`, or a cancel) and confirms with `confirm`; returns the result and what
    /// the confirmation step was asked.
    func pay(
        cancel: Bool = false, clock: TestClock<Duration> = TestClock(),
        confirm: @escaping @Sendable (ConfirmationRequest) async throws -> BackendResult
    ) async throws -> (ConfirmedOutcome, [ConfirmationRequest], String) {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("confirm"))
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: .v2_2_0)], finalStatus: "Y")
        let asked = Locked<[ConfirmationRequest]>([])
        let presenter = ScriptedPresenter(answers: cancel ? [.cancel] : [.text("123456")])
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: presenter, transport: transport,
            clock: clock
        ) { areq in
            .challenge(
                try acs.challengeParameters(
                    for: areq, threeDSServerTransactionID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e"))
        } confirmation: { request in
            asked.withLock { $0.append(request) }
            return try await confirm(request)
        }
        return (outcome, asked.withLock { $0 }, "8a880dc0-d2d2-4067-bcb1-b08d1690b26e")
    }

    @Test("the backend confirms Y: asked once with both IDs; the payment goes on with Y, in agreement")
    func confirmed() async throws {
        let (result, asked, serverID) = try await pay { _ in .status(.authenticated) }
        guard case .confirmed(.authenticated) = result.confirmation else {
            Issue.record("expected a confirmed Y, got \(result.confirmation)")
            return
        }
        #expect(asked.count == 1 && asked.first?.threeDSServerTransactionID == serverID)
        #expect(asked.first.map { UUID(uuidString: $0.sdkTransactionID) != nil } == true)
        #expect(result.transStatus == .authenticated && result.challengeStatus == .authenticated && !result.disagrees)
    }

    @Test("the backend says N where the final CRes said Y: the backend's N decides, and the disagreement shows")
    func disagreement() async throws {
        let (result, _, _) = try await pay { _ in .status(.notAuthenticated) }
        #expect(result.transStatus == .notAuthenticated && result.challengeStatus == .authenticated)
        #expect(result.disagrees)
    }

    @Test("no result yet: pending, and no status to go on with (never the CRes's alone)")
    func pending() async throws {
        let (result, _, _) = try await pay { _ in .pending }
        guard case .pending = result.confirmation else {
            Issue.record("expected pending, got \(result.confirmation)")
            return
        }
        #expect(result.transStatus == nil && !result.disagrees)
    }

    @Test("a cancelled challenge is confirmed too: the ACS may have sent its Results Request")
    func cancelledIsConfirmed() async throws {
        let (result, asked, _) = try await pay(cancel: true) { _ in .status(.notAuthenticated) }
        guard case .challenged(.cancelled) = result.outcome else {
            Issue.record("expected a cancelled challenge, got \(result.outcome)")
            return
        }
        #expect(asked.count == 1 && result.transStatus == .notAuthenticated && result.challengeStatus == nil)
    }

    struct Refused: Error {}

    @Test("the backend's error is a failed confirmation, never a status")
    func backendFails() async throws {
        let (result, _, _) = try await pay { _ in throw Refused() }
        guard case .failed(let error) = result.confirmation else {
            Issue.record("expected a failure, got \(result.confirmation)")
            return
        }
        #expect(error.code == .runtime && result.transStatus == nil)
    }

    @Test("a backend that never answers fails at the requestor timeout, on the test clock")
    func backendSilent() async throws {
        let clock = TestClock()
        let started = AsyncSignal()
        let payment = Task {
            // Fired at the end too: a payment that never asks its backend fails below instead of waiting here.
            defer { started.fire() }
            return try await pay(clock: clock) { _ in
                started.fire()
                // Past the requestor timeout on the clock the test advances only 30 seconds.
                try await clock.sleep(for: .seconds(3600))
                return .status(.authenticated)
            }
        }
        await started.wait()
        await clock.advance(by: .seconds(30))
        let (result, _, _) = try await payment.value
        guard case .failed(let error) = result.confirmation else {
            Issue.record("expected a timeout, got \(result.confirmation)")
            return
        }
        #expect(error.message.contains("did not answer"), "\(error)")
    }

    @Test("frictionless: nothing to confirm, the ARes status goes on; the step is never called")
    func frictionlessNotAsked() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("confirm-frictionless"))
        let called = Locked(false)
        let result = await service.authenticate(
            directoryServerID: "A000000004", presenter: IdlePresenter(), transport: FailingTransport(),
            clock: TestClock()
        ) { _ in
            .frictionless(transStatus: .attempted)
        } confirmation: { _ in
            called.withLock { $0 = true }
            return .status(.authenticated)
        }
        guard case .notAsked = result.confirmation else {
            Issue.record("expected not asked, got \(result.confirmation)")
            return
        }
        #expect(result.transStatus == .attempted && !called.withLock { $0 })
    }

    @Test("a backend answer decodes to a status or pending; the authentication value and ECI are not kept")
    func decodes() throws {
        let decoder = JSONDecoder()
        let full = Data(#"{"transStatus":"Y","authenticationValue":"AAABBBCCCDDDEEEFFFGGGHHHIII=","eci":"05"}"#.utf8)
        #expect(try decoder.decode(BackendResult.self, from: full) == .status(.authenticated))
        #expect(try decoder.decode(BackendResult.self, from: Data("{}".utf8)) == .pending)
        #expect(try decoder.decode(BackendResult.self, from: Data(#"{"transStatus":null}"#.utf8)) == .pending)
        #expect(throws: DecodingError.self) {
            try decoder.decode(BackendResult.self, from: Data(#"{"transStatus":7}"#.utf8))
        }
    }
}
