public import Foundation
public import ThreeDS2SDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A payment app's checkout in its smallest form, linking only the SDK core (`import ThreeDS2SDK`, the only import an
/// app needs): the service is initialized once, when the checkout is made (an app does it at launch); each payment
/// asks the app's backend for authentication and runs the challenge when the backend says so, over `URLSession`.
///
/// The backend here speaks the TestLab's 3DS Server contract (`POST /3ds/authenticate`); a real app calls its own.
public struct MinimalCheckout<C: Clock>: Sendable where C.Duration == Duration {
    /// The app's backend.
    public let backend: URL
    /// The SDK, initialized once for every payment of this checkout.
    public let service: ThreeDS2Service
    /// The clock the SDK's timers run on (the 10-second wait for each CRes, the challenge's five minutes): the
    /// continuous clock in the app, a test clock in its tests.
    public let clock: C
    /// The app's 3DS Requestor App URL, where the bank's app sends the cardholder back; `nil` for none.
    public let requestorAppURL: RequestorAppURL?

    /// Creates a checkout and initializes the SDK for it, once.
    ///
    /// - Parameters:
    ///   - backend: The backend's base URL.
    ///   - configuration: The SDK configuration (directory servers, reference number).
    ///   - clock: The clock for the SDK's timers; a test passes one it moves itself.
    ///   - requestorAppURL: The app's 3DS Requestor App URL, for ``payConfirmed(cardNumber:directoryServerID:presenter:)``
    ///     and ``handle(_:)``.
    /// - Throws: ``ThreeDS2Error`` when the configuration is refused.
    public init(
        backend: URL, configuration: ConfigParameters, clock: C, requestorAppURL: RequestorAppURL? = nil
    ) throws(ThreeDS2Error) {
        self.backend = backend
        self.clock = clock
        self.requestorAppURL = requestorAppURL
        service = ThreeDS2Service()
        try service.initialize(configParameters: configuration)
    }

    /// What a payment ended with.
    public enum Result: Sendable, Hashable {
        /// The backend answered without a challenge.
        case frictionless(transStatus: TransactionStatus)
        /// A challenge ran and ended with this outcome.
        case challenged(ChallengeOutcome)
    }

    /// Pays: frictionless, or a challenge answered by ``CodePresenter``.
    ///
    /// - Parameters:
    ///   - cardNumber: The card number (sent to the backend only).
    ///   - amount: The amount in minor units.
    ///   - currency: The ISO 4217 numeric currency.
    ///   - directoryServerID: The directory server to use.
    ///   - code: The one-time code the presenter types on a code screen.
    /// - Returns: How the payment ended.
    /// - Throws: ``ThreeDS2Error`` or a ``CheckoutError`` from the backend call.
    public func pay(
        cardNumber: String, amount: String, currency: String, directoryServerID: DirectoryServerID, code: String
    )
        async throws -> Result
    {
        // One call: the SDK creates the transaction, builds the AReq value (with the presenter's render options),
        // shows progress while the backend is asked, runs the challenge, and closes the transaction.
        let outcome = await service.authenticate(
            directoryServerID: directoryServerID, presenter: CodePresenter(code: code),
            transport: URLSessionTransport(), clock: clock
        ) { request in
            let answer = try await authenticate(request, cardNumber: cardNumber, amount: amount, currency: currency)
            do {
                return try JSONDecoder().decode(RequestorResult.self, from: answer)
            } catch {
                throw CheckoutError(message: "the backend's answer is not an ARes: \(error)")
            }
        }
        switch outcome {
        case .frictionless(let status): return .frictionless(transStatus: status)
        case .challenged(let challenge): return .challenged(challenge)
        case .cancelled: throw CancellationError()
        case .failed(let error):
            if let backend = error.underlying as? CheckoutError { throw backend }
            throw error
        }
    }

    /// The backend call: the AReq fields and the purchase as JSON; the answer in ARes field names.
    func authenticate(
        _ areq: AuthenticationRequest, cardNumber: String, amount: String, currency: String
    ) async throws -> Data {
        var request = URLRequest(url: backend.appendingPathComponent("3ds/authenticate"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // The SDK's AReq value with the purchase the app owns added: encoded once, as it is.
        let purchase: JSONObject = [
            "acctNumber": .string(cardNumber), "purchaseAmount": .string(amount), "purchaseCurrency": .string(currency),
        ]
        request.httpBody = try JSONEncoder().encode(areq.adding(purchase))
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw CheckoutError(message: "the backend did not answer with a JSON object")
        }
        return data
    }
}

extension MinimalCheckout where C == ContinuousClock {
    /// Creates a checkout on the continuous clock, as an app does, and initializes the SDK for it, once.
    ///
    /// - Parameters:
    ///   - backend: The backend's base URL.
    ///   - configuration: The SDK configuration (directory servers, reference number).
    ///   - requestorAppURL: The app's 3DS Requestor App URL; `nil` for none.
    /// - Throws: ``ThreeDS2Error`` when the configuration is refused.
    public init(
        backend: URL, configuration: ConfigParameters, requestorAppURL: RequestorAppURL? = nil
    ) throws(ThreeDS2Error) {
        try self.init(
            backend: backend, configuration: configuration, clock: ContinuousClock(), requestorAppURL: requestorAppURL)
    }
}

/// A failure of the backend call.
public struct CheckoutError: Error, Sendable {
    /// What went wrong.
    public let message: String
}

/// A presenter that answers a code screen with a fixed code, as a cardholder would type it, through the shared
/// form state; any other screen is cancelled.
public struct CodePresenter: ChallengePresenter {
    /// The code typed.
    public let code: String

    /// Creates the presenter.
    ///
    /// - Parameter code: The code to type.
    public init(code: String) {
        self.code = code
    }

    /// Types the code and presses submit.
    ///
    /// - Parameter form: The screen's form state, as the SDK built it with the app's customization and locale.
    /// - Returns: The answer.
    public func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        var form = form
        guard form.screen.uiType == .text else { return ChallengeAnswer(.cancel) }
        _ = form.perform(.type(code))
        return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
    }
}
