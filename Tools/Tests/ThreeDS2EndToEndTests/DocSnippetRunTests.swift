// The integration article's and the README's one-call snippets, compiled and run: `BackendError`,
// `pay(service:scheme:backend:card:presenter:)`, and the confirmation and way-back snippets (`askResult`,
// `payAndConfirm`, `handleLink`) are pasted here unchanged, and `DocSnippetRunTests` runs them against
// the TestLab's 3DS Server over plain HTTP on loopback (URLSession on Linux cannot take the lab's TLS root). The SDK
// package's `DocSnippetTests` checks that every snippet of the README and the DocC articles appears in a compiled file.
import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The backend refused the request (its HTTP status was not 200).
struct BackendError: Error, CustomStringConvertible {
    let answer: String
    var description: String { "the payment server refused the request: \(answer)" }
}

func pay(
    service: ThreeDS2Service, scheme: DirectoryServerID, backend: URL, card: String, presenter: some ChallengePresenter
) async -> String {
    // The card's scheme: .visa, .mastercard… in production; .testRSA against the TestLab (`threeds testlab`).
    let outcome = await service.authenticate(directoryServerID: scheme, presenter: presenter) { areq in
        // The purchase your app owns, added to the AReq fields the SDK owns.
        let purchase: JSONObject = [
            "acctNumber": .string(card), "purchaseAmount": .string("1999"), "purchaseCurrency": .string("978"),
        ]
        var request = URLRequest(url: backend.appendingPathComponent("3ds/authenticate"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(areq.adding(purchase))
        let (answer, response) = try await URLSession.shared.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            throw BackendError(answer: String(decoding: answer, as: UTF8.self))
        }
        return try JSONDecoder().decode(RequestorResult.self, from: answer)  // the ARes fields
    }
    switch outcome {
    case .frictionless(let status), .challenged(.completed(let status)):
        // Y and A authenticate the cardholder; every other status does not. Confirm with your backend.
        if status == .authenticated || status == .attempted { return "authenticated" }
    default:
        break  // log `outcome` for yourself: its errors' descriptions name the cause, never for the screen
    }
    // What the cardholder reads: one of the SDK's texts, in the locale given to initialize.
    return service.cardholderText(for: outcome)
}

/// Asks the backend for a transaction's result: the status its 3DS Server got from the ACS's Results Request.
func askResult(backend: URL, _ request: ConfirmationRequest) async throws -> BackendResult {
    var url = URLComponents(url: backend.appendingPathComponent("3ds/result"), resolvingAgainstBaseURL: false)
    url?.queryItems = [URLQueryItem(name: "sdkTransID", value: request.sdkTransactionID)]
    guard let address = url?.url else { throw BackendError(answer: "no result address") }
    let (answer, response) = try await URLSession.shared.data(from: address)
    guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
        throw BackendError(answer: String(decoding: answer, as: UTF8.self))
    }
    return try JSONDecoder().decode(BackendResult.self, from: answer)  // {"transStatus":"Y"}, or none yet
}

func payAndConfirm(
    service: ThreeDS2Service, scheme: DirectoryServerID, backend: URL, card: String,
    requestorAppURL: RequestorAppURL, presenter: some ChallengePresenter
) async -> String {
    let result = await service.authenticate(
        directoryServerID: scheme, requestorAppURL: requestorAppURL, presenter: presenter
    ) { areq in
        let purchase: JSONObject = [
            "acctNumber": .string(card), "purchaseAmount": .string("1999"), "purchaseCurrency": .string("978"),
        ]
        var request = URLRequest(url: backend.appendingPathComponent("3ds/authenticate"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(areq.adding(purchase))
        let (answer, response) = try await URLSession.shared.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            throw BackendError(answer: String(decoding: answer, as: UTF8.self))
        }
        return try JSONDecoder().decode(RequestorResult.self, from: answer)
    } confirmation: { request in
        try await askResult(backend: backend, request)
    }
    // The backend's status decides (the frictionless ARes status, or the Results Request's); never the CRes's alone.
    if let status = result.transStatus {
        return status == .authenticated || status == .attempted ? "authenticated" : "not authenticated"
    }
    if case .pending = result.confirmation { return "waiting for your bank's answer" }
    return service.cardholderText(for: result.outcome)
}

/// What the app shows when a link opens it; `nil` when the SDK has nothing to say.
func handleLink(
    _ link: URL, service: ThreeDS2Service, requestorAppURL: RequestorAppURL, backend: URL
) async -> String? {
    switch service.returnedTransaction(from: link, requestorAppURL: requestorAppURL) {
    case .live:
        return nil  // the running payment goes on and returns its outcome
    case .gone(let sdkTransactionID):
        let request = ConfirmationRequest(sdkTransactionID: sdkTransactionID)
        switch try? await askResult(backend: backend, request) {
        case .status(let status)?:
            return status == .authenticated || status == .attempted ? "authenticated" : "not authenticated"
        case .pending?: return "waiting for your bank's answer"
        case nil: return "the payment server could not be reached; please try again"
        }
    case .unidentified:
        return "waiting for your bank's answer"  // ask the backend about your latest payment, by your own reference
    case .notRequestorAppURL:
        return nil  // another of your links
    }
}

/// The way-back snippet's app URL, as written.
func snippetRequestorAppURL() throws -> RequestorAppURL {
    let requestorAppURL = try RequestorAppURL(
        "https://shop.example/3ds/return", transactionID: .queryItem("transID"))
    return requestorAppURL
}

@Suite("The one-call snippet as written, against the TestLab")
struct DocSnippetRunTests {
    /// A service configured as the README says: the TestLab's own SDK configuration, nothing added, so the lab's
    /// test directory servers are the only ones the snippet can name.
    func service(_ lab: TestLab) throws -> ThreeDS2Service {
        let service = ThreeDS2Service()
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: scratchDirectory("snippet")))
        return service
    }

    @Test(
        "a code challenge: authenticated; a frictionless N: the SDK's text; the lab's HTTP 400 (no card): the SDK's text, not the body"
    )
    func runsAsWritten() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions(useTLS: false))
        let service = try service(lab)
        let code = ScriptedPresenter(answers: [.text("123456")])
        #expect(
            await pay(
                service: service, scheme: .testRSA, backend: lab.baseURL, card: "4000000000002000", presenter: code)
                == "authenticated")
        let declined = await pay(
            service: service, scheme: .testRSA, backend: lab.baseURL, card: "4000000000001018",
            presenter: ScriptedPresenter(answers: []))
        #expect(declined == SDKStrings.english[.outcomeNotAuthenticated])
        // The backend's refusal (its response body in BackendError) never reaches the cardholder's text.
        let refused = await pay(
            service: service, scheme: .testRSA, backend: lab.baseURL, card: "",
            presenter: ScriptedPresenter(answers: []))
        #expect(refused == SDKStrings.english[.outcomeUnavailable], "\(refused)")
    }

    @Test(
        "the confirmation snippet: a code challenge confirmed Y by the lab's 3DS Server; the way-back snippet: a gone transaction's link gets Y, another link nothing"
    )
    func confirmationAndWayBackRunAsWritten() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions(useTLS: false))
        // The lab's configuration, as above, with a listener that names this service's transaction.
        let events = RecordingEventListener()
        let service = ThreeDS2Service(clientEventListener: events)
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: scratchDirectory("snippet")))
        let requestorAppURL = try snippetRequestorAppURL()
        let code = ScriptedPresenter(answers: [.text("123456")])
        let confirmed = await payAndConfirm(
            service: service, scheme: .testRSA, backend: lab.baseURL, card: "4000000000002000",
            requestorAppURL: requestorAppURL, presenter: code)
        #expect(confirmed == "authenticated")
        // The payment's own link, after it ended (as after a restart): gone, and the backend has its Y.
        let created = events.events.compactMap { event -> String? in
            if case .transactionCreated(let id, _, _) = event { return id }
            return nil
        }
        let sdkTransID = try #require(created.first)
        #expect(created.count == 1)
        #expect(lab.result(sdkTransID: sdkTransID)?.transStatus == .authenticated)
        let link = try #require(URL(string: requestorAppURL.text(forTransaction: sdkTransID)))
        let back = await handleLink(link, service: service, requestorAppURL: requestorAppURL, backend: lab.baseURL)
        #expect(back == "authenticated")
        let other = await handleLink(
            try #require(URL(string: "https://shop.example/account")), service: service,
            requestorAppURL: requestorAppURL, backend: lab.baseURL)
        #expect(other == nil)
    }
}
