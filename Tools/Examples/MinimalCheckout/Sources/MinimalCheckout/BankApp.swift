public import Foundation
public import ThreeDS2SDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checkout's way back from the bank's app (issue 48): a payment whose challenge switches to the bank's app, the
/// backend's result beside the final CRes, and the link that brings the cardholder back, handled by a process that
/// may not be the one that paid.
extension MinimalCheckout {
    /// What a link that opened the app led to.
    public enum Return: Sendable, Hashable {
        /// The payment runs in this process: it goes on by itself.
        case live(sdkTransactionID: String)
        /// The payment is not in this process: the backend's answer for it.
        case result(sdkTransactionID: String, BackendResult)
        /// The app's link, naming no payment.
        case unidentified
        /// Another link.
        case notRequestorAppURL
    }

    /// Pays with the 3DS Requestor App URL, challenge screens answered by `presenter`, then asks the backend for the
    /// result of the ACS's Results Request.
    ///
    /// - Parameters:
    ///   - cardNumber: The card number (sent to the backend only).
    ///   - directoryServerID: The directory server to use.
    ///   - presenter: Answers the screens (and opens the bank's app).
    /// - Returns: The SDK's outcome beside the backend's confirmation.
    public func payConfirmed(
        cardNumber: String, directoryServerID: DirectoryServerID, presenter: some ChallengePresenter
    ) async -> ConfirmedOutcome {
        await service.authenticate(
            directoryServerID: directoryServerID, requestorAppURL: requestorAppURL, presenter: presenter,
            transport: URLSessionTransport(), clock: clock
        ) { request in
            let answer = try await authenticate(request, cardNumber: cardNumber, amount: "1999", currency: "978")
            return try JSONDecoder().decode(RequestorResult.self, from: answer)
        } confirmation: { request in
            try await result(for: request)
        }
    }

    /// Handles a link that opened the app: a live payment goes on; a gone one is asked of the backend.
    ///
    /// - Parameter link: The URL that opened the app.
    /// - Returns: What the link led to.
    /// - Throws: A ``CheckoutError`` when the backend cannot answer.
    public func handle(_ link: URL) async throws -> Return {
        guard let requestorAppURL else { return .notRequestorAppURL }
        switch service.returnedTransaction(from: link, requestorAppURL: requestorAppURL) {
        case .live(let id): return .live(sdkTransactionID: id)
        case .gone(let id):
            return .result(sdkTransactionID: id, try await result(for: ConfirmationRequest(sdkTransactionID: id)))
        case .unidentified: return .unidentified
        case .notRequestorAppURL: return .notRequestorAppURL
        }
    }

    /// The backend's result for a transaction (the TestLab's `GET /3ds/result?sdkTransID=…`): a status only, read
    /// from its answer; the authentication value and the ECI in it are not kept.
    ///
    /// - Parameter request: The transaction.
    /// - Returns: The status, or pending.
    /// - Throws: A ``CheckoutError`` when the backend does not answer 200 with a result.
    public func result(for request: ConfirmationRequest) async throws -> BackendResult {
        var url = URLComponents(url: backend.appendingPathComponent("3ds/result"), resolvingAgainstBaseURL: false)
        url?.queryItems = [URLQueryItem(name: "sdkTransID", value: request.sdkTransactionID)]
        guard let address = url?.url else { throw CheckoutError(message: "no result address") }
        let (data, response) = try await URLSession.shared.data(from: address)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            throw CheckoutError(message: "the backend has no result for this transaction")
        }
        do {
            return try JSONDecoder().decode(BackendResult.self, from: data)
        } catch {
            throw CheckoutError(message: "the backend's answer is not a result: \(error)")
        }
    }
}

/// A presenter for a challenge in the bank's app: types the code on a code screen; on an out-of-band screen with an
/// app link, opens the bank's app through its opener (and continues when the cardholder comes back); cancels
/// anything else.
public struct AppSwitchPresenter: ChallengePresenter {
    /// The code typed on a code screen.
    public let code: String
    /// How the bank's app is opened.
    public let oobAppOpener: (any OOBAppOpener)?

    /// Creates the presenter.
    ///
    /// - Parameters:
    ///   - code: The code to type on a code screen.
    ///   - opener: How the bank's app is opened.
    public init(code: String, opener: any OOBAppOpener) {
        self.code = code
        self.oobAppOpener = opener
    }

    /// Answers a screen.
    ///
    /// - Parameter form: The screen's form state.
    /// - Returns: The answer.
    public func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        var form = form
        if form.screen.oobAppURL != nil, let opener = oobAppOpener {
            if case .openApp(let url)? = form.perform(.openApp),
                let answer = form.perform(.appOpenResult(await opener.open(url)))?.answer
            {
                return answer
            }
            return form.perform(.continueChallenge)?.answer ?? ChallengeAnswer(.cancel)
        }
        guard form.screen.uiType == .text else { return ChallengeAnswer(.cancel) }
        _ = form.perform(.type(code))
        return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
    }
}

/// The bank's app as a process sees it: announces that the cardholder is in the bank's app, then waits for a line
/// on standard input (the cardholder came back) or its end (the app could not be opened). A process killed meanwhile
/// is the app the system reclaimed while the cardholder approved.
public struct StandardInputBankApp: OOBAppOpener {
    /// Told the bank's app link when the cardholder switches to it.
    public let announce: @Sendable (URL) -> Void

    /// Creates the opener.
    ///
    /// - Parameter announce: Told the link when the cardholder switches to the bank's app.
    public init(announce: @escaping @Sendable (URL) -> Void) {
        self.announce = announce
    }

    /// Announces the link, then waits for standard input.
    ///
    /// - Parameter url: The bank's app link.
    /// - Returns: `returned` after a line, `failed` at the end of input.
    public func open(_ url: URL) async -> OOBAppOpenResult {
        announce(url)
        return await withCheckedContinuation { continuation in
            // A thread of its own: the blocking read never holds one of the concurrency pool's threads.
            Thread.detachNewThread { continuation.resume(returning: readLine() == nil ? .failed : .returned) }
        }
    }
}
