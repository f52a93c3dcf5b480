import Dispatch
import Foundation

#if canImport(Security)
    import Security
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` transport: the default on Apple platforms, where the system's trust store and TLS settings
/// apply. On Linux it reaches ACSs with publicly trusted certificates; for private roots (the TestLab, a test ACS)
/// use the AsyncHTTPClient transport of the `ThreeDS2NIOTransport` module, because Linux `URLSession` cannot take
/// custom trust roots.
///
/// Redirects are refused (the ACS URL is the one the ACS signed), no cookies or cache are kept, the whole response
/// must arrive before the request's deadline, and the body is bounded as it arrives: a length announced over the
/// request's bound is refused before any body is read, and the bytes delivered (after any content decoding the
/// system applies, so a gzip bomb is counted as what it expands to) are counted chunk by chunk, the request being
/// cancelled as soon as the count passes the bound. Memory held for one response is therefore the bound plus one
/// delivered chunk.
public final class URLSessionTransport: ChallengeTransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates the transport with an ephemeral session: no cookies, cache or credentials persisted.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        #if canImport(Darwin)
            configuration.tlsMinimumSupportedProtocolVersion = .TLSv12
        #endif
        let delegate = SessionDelegate()
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
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
        let delegate = self.delegate
        // URLRequest's own timeout is only an idle timer; the request's deadline covers the whole response.
        return try await request.withinDeadline {
            let data: [UInt8]
            let response: URLResponse
            do {
                (data, response) = try await Self.data(
                    for: urlRequest, limit: request.maxResponseBytes, in: session, delegate: delegate)
            } catch is ResponseTooLarge {
                return .failure(
                    TransportError(
                        .responseTooLarge,
                        "the response to \(request.target) is larger than \(request.maxResponseBytes) bytes"))
            } catch {
                return .failure(Self.classify(error, target: request.target))
            }
            return Self.response(response, body: data, target: request.target)
        }
    }

    /// The transport response for what came back, whatever its HTTP status; anything but an HTTP response is a
    /// failure.
    static func response(_ response: URLResponse, body: [UInt8], target: String) -> Result<
        TransportResponse, TransportError
    > {
        guard let http = response as? HTTPURLResponse else {
            return .failure(TransportError(.other, "\(target) did not return an HTTP response"))
        }
        return .success(
            TransportResponse(
                status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: body))
    }

    /// The body and response for `request`, read through the session's delegate and refused as soon as it passes
    /// `limit` bytes; cancelling the calling task cancels the request.
    ///
    /// Not `URLSession.data(for:)`: on Linux (swift-corelibs-foundation) its cancellation handler waits on the
    /// session's work queue while the runtime holds the task's status lock, and a request failing at that moment
    /// waits on that lock from the work queue, a deadlock seen in CI when a deadline cancelled a request. Here the
    /// cancellation handler never waits: it hands the cancel to another queue. `data(for:)` would also collect the
    /// whole body before the bound could be applied.
    static func data(
        for request: URLRequest, limit: Int, in session: URLSession, delegate: SessionDelegate
    ) async throws -> ([UInt8], URLResponse) {
        let handle = DataTaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request)
                delegate.register(task, BoundedReceiver(limit: limit, continuation: continuation))
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

    /// URLSession's idle timeout for a request's deadline: the deadline in whole seconds, rounded up, plus one second,
    /// so the SDK's own timer, never URLSession's truncated one, ends the wait.
    static func backstop(for timeout: Duration) -> TimeInterval {
        let (seconds, attoseconds) = timeout.components
        return (Double(seconds) + Double(attoseconds) / 1e18).rounded(.up) + 1
    }

    /// The `URLRequest` for a transport request.
    static func convert(_ request: TransportRequest) -> URLRequest {
        var converted = URLRequest(url: request.url)
        converted.httpMethod = request.method.rawValue
        converted.cachePolicy = .reloadIgnoringLocalCacheData
        // A backstop only: the request's deadline (`withinDeadline`, and the SDK's own timers above it) ends the wait.
        // URLSession's idle timer is padded past it, whole seconds rounded up plus one, because FoundationNetworking
        // truncates `timeoutInterval` to whole seconds (a remaining 9.998 s fired at 9.000 s).
        converted.timeoutInterval = backstop(for: request.timeout)
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

/// The body was refused for passing the request's bound (announced or counted).
struct ResponseTooLarge: Error {}

/// One request's body as it arrives, bounded, and the continuation its end resumes. Guarded by the delegate's lock.
final class BoundedReceiver {
    let limit: Int
    let continuation: CheckedContinuation<([UInt8], URLResponse), any Error>
    var response: URLResponse?
    var body: [UInt8] = []
    var tooLarge = false

    init(limit: Int, continuation: CheckedContinuation<([UInt8], URLResponse), any Error>) {
        self.limit = limit
        self.continuation = continuation
    }
}

/// The session's delegate: refuses every redirect (the redirect response itself is returned) and bounds each
/// task's body as it arrives. Its state is behind one lock; it never calls into the session while holding it, and
/// cancels over-long tasks from another queue, never waiting.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let receivers = Locked<[Int: BoundedReceiver]>([:])

    func register(_ task: URLSessionTask, _ receiver: BoundedReceiver) {
        receivers.withLock { $0[task.taskIdentifier] = receiver }
    }

    /// Runs `body` on the task's receiver under the lock; `true` when the task must be cancelled.
    private func withReceiver(_ task: URLSessionTask, _ body: (BoundedReceiver) -> Bool) -> Bool {
        receivers.withLock { receivers in
            guard let receiver = receivers[task.taskIdentifier], !receiver.tooLarge else { return false }
            return body(receiver)
        }
    }

    private static func cancelLater(_ task: URLSessionTask) {
        let task = UncheckedTask(task: task)
        DispatchQueue.global().async { task.task.cancel() }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let refuse = withReceiver(dataTask) { receiver in
            receiver.response = response
            // An announced length over the bound is refused before any of the body is read.
            if response.expectedContentLength > Int64(receiver.limit) { receiver.tooLarge = true }
            return receiver.tooLarge
        }
        completionHandler(refuse ? .cancel : .allow)
        if refuse { Self.cancelLater(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let refuse = withReceiver(dataTask) { receiver in
            guard data.count <= receiver.limit - receiver.body.count else {
                receiver.tooLarge = true
                receiver.body = []
                return true
            }
            receiver.body.append(contentsOf: data)
            return false
        }
        if refuse { Self.cancelLater(dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let receiver = receivers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        guard let receiver else { return }
        if receiver.tooLarge {
            receiver.continuation.resume(throwing: ResponseTooLarge())
        } else if let error {
            receiver.continuation.resume(throwing: error)
        } else if let response = receiver.response ?? task.response {
            receiver.continuation.resume(returning: (receiver.body, response))
        } else {
            receiver.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }

    #if canImport(Security)
        /// Apple platforms: after the system's own trust evaluation (default handling), the leaf must also name the
        /// host as RFC 9525 says (``ServiceIdentity``), the same rule as every other transport.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust
            else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            let leaf = (SecTrustCopyCertificateChain(trust) as? [SecCertificate])?.first
            let der = leaf.map { Array(SecCertificateCopyData($0) as Data) } ?? []
            guard ServiceIdentity.matches(certificateDER: der, host: challenge.protectionSpace.host) else {
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
            completionHandler(.performDefaultHandling, nil)
        }
    #endif

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A task handed to another queue for cancelling (`URLSessionTask` is thread-safe but not marked `Sendable`
/// everywhere).
private struct UncheckedTask: @unchecked Sendable {
    let task: URLSessionTask
}
