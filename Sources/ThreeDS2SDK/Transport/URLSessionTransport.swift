import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` transport: the default on Apple platforms, where the system's trust store and TLS settings
/// apply. On Linux it reaches ACSs with publicly trusted certificates; for private roots (the TestLab, a test ACS)
/// use the AsyncHTTPClient transport of the `ThreeDS2NIOTransport` module, because Linux `URLSession` cannot take
/// custom trust roots.
///
/// Redirects are refused (the ACS URL is the one the ACS signed), no cookies or cache are kept, the whole response
/// must arrive before the request's deadline, and a body over the request's bound is refused.
public final class URLSessionTransport: ChallengeTransport {
    private let session: URLSession

    /// Creates the transport with an ephemeral session: no cookies, cache or credentials persisted.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        #if canImport(Darwin)
            configuration.tlsMinimumSupportedProtocolVersion = .TLSv12
        #endif
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends the request with `URLSession`.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response.
    /// - Throws: ``TransportError`` classified by cause.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let urlRequest = Self.convert(request)
        let session = self.session
        // URLRequest's own timeout is only an idle timer; the request's deadline covers the whole response.
        return try await request.withinDeadline {
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await Self.data(for: urlRequest, in: session)
            } catch {
                return .failure(Self.classify(error, target: request.target))
            }
            guard let http = response as? HTTPURLResponse else {
                return .failure(TransportError(.other, "\(request.target) did not return an HTTP response"))
            }
            guard data.count <= request.maxResponseBytes else {
                return .failure(
                    TransportError(
                        .responseTooLarge,
                        "the response to \(request.target) is larger than \(request.maxResponseBytes) bytes"))
            }
            return .success(
                TransportResponse(
                    status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
                    body: Array(data)))
        }
    }

    /// The body and response for `request`, through the completion-handler API; cancelling the calling task cancels
    /// the request.
    ///
    /// Not `URLSession.data(for:)`: on Linux (swift-corelibs-foundation) its cancellation handler waits on the
    /// session's work queue while the runtime holds the task's status lock, and a request failing at that moment
    /// waits on that lock from the work queue, a deadlock seen in CI when a deadline cancelled a request. Here the
    /// cancellation handler never waits: it hands the cancel to another queue.
    static func data(for request: URLRequest, in session: URLSession) async throws -> (Data, URLResponse) {
        let handle = DataTaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                handle.start(task)
            }
        } onCancel: {
            DispatchQueue.global().async { handle.cancel() }
        }
    }

    /// The data task of one request, and whether it was cancelled before it existed.
    private final class DataTaskHandle: Sendable {
        private let state = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

        func start(_ task: URLSessionDataTask) {
            let cancelled = state.withLock { state -> Bool in
                state.task = task
                return state.cancelled
            }
            task.resume()
            if cancelled { task.cancel() }
        }

        func cancel() {
            state.withLock { state -> URLSessionDataTask? in
                state.cancelled = true
                return state.task
            }?.cancel()
        }
    }

    /// The `URLRequest` for a transport request.
    static func convert(_ request: TransportRequest) -> URLRequest {
        var converted = URLRequest(url: request.url)
        converted.httpMethod = request.method.rawValue
        converted.cachePolicy = .reloadIgnoringLocalCacheData
        converted.timeoutInterval = max(1, Double(request.timeout.components.seconds))
        if let contentType = request.contentType { converted.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if request.method == .post { converted.httpBody = Data(request.body) }
        return converted
    }

    /// Sorts a `URLError` into a transport error code.
    static func classify(_ error: any Error, target: String) -> TransportError {
        if error is CancellationError {
            return TransportError(.cancelled, "\(target) was cancelled", underlying: error)
        }
        guard let urlError = error as? URLError else {
            return TransportError(.other, "\(target) failed", underlying: error)
        }
        let code: TransportError.Code
        switch urlError.code {
        case .timedOut: code = .timedOut
        case .cancelled: code = .cancelled
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet,
            .dnsLookupFailed:
            code = .connectionFailed
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            code = .tlsFailure
        case .badURL, .unsupportedURL: code = .invalidRequest
        case .dataLengthExceedsMaximum: code = .responseTooLarge
        default: code = .other
        }
        return TransportError(code, "\(target) failed (URLError \(urlError.code.rawValue))", underlying: urlError)
    }
}

/// Answers every redirect with "do not follow": the redirect response itself is returned.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
