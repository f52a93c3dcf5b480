public import Foundation

/// One HTTP request the SDK makes: a CReq or Erro `POST` to the ACS, or an image `GET`.
public struct TransportRequest: Sendable, Hashable {
    /// The HTTP method.
    public enum Method: String, Sendable, Hashable {
        /// `GET`, for challenge images.
        case get = "GET"
        /// `POST`, for CReq and Erro messages.
        case post = "POST"
    }

    /// The method.
    public var method: Method
    /// The URL.
    public var url: URL
    /// The `Content-Type` of the body, for a `POST`.
    public var contentType: String?
    /// The body; empty for a `GET`.
    public var body: [UInt8]
    /// A deadline for the whole response, headers and body together (never an idle timer).
    public var timeout: Duration
    /// The largest response body accepted; a larger one is a ``TransportError/Code/responseTooLarge``.
    public var maxResponseBytes: Int

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - url: The URL.
    ///   - contentType: The body's `Content-Type`.
    ///   - body: The body.
    ///   - timeout: The deadline for the whole response.
    ///   - maxResponseBytes: The largest response body accepted.
    public init(
        method: Method, url: URL, contentType: String? = nil, body: [UInt8] = [], timeout: Duration,
        maxResponseBytes: Int
    ) {
        self.method = method
        self.url = url
        self.contentType = contentType
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }
}

/// An HTTP response, whatever its status.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The `Content-Type`, when sent.
    public var contentType: String?
    /// The body, at most the request's `maxResponseBytes`.
    public var body: [UInt8]

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - contentType: The `Content-Type` header.
    ///   - body: The body.
    public init(status: Int, contentType: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// A transport failure: no usable response came back. Callers branch on ``code``; ``underlying`` keeps the
/// adapter's own error for logs.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Code: String, Sendable, Hashable {
        /// No connection could be made (refused, unreachable, name not found).
        case connectionFailed
        /// The TLS handshake failed (untrusted certificate, protocol version).
        case tlsFailure
        /// The whole response did not arrive before the request's deadline.
        case timedOut
        /// The response body was larger than the request allowed.
        case responseTooLarge
        /// The request was cancelled by its task.
        case cancelled
        /// The request could not be formed (bad URL, unsupported scheme).
        case invalidRequest
        /// Any other failure of the adapter.
        case other
    }

    /// What kind of failure it was.
    public let code: Code
    /// What failed, in words.
    public let message: String
    /// The adapter's error, when there is one.
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What failed.
    ///   - underlying: The adapter's error.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

extension TransportRequest {
    /// `METHOD url`, for messages.
    public var target: String { "\(method.rawValue) \(url.absoluteString)" }

    /// Runs `exchange` under the request's deadline for the whole response: when the deadline passes first the
    /// exchange is cancelled (and not waited for) and the result is ``TransportError/Code/timedOut``; when the calling
    /// task is cancelled, ``TransportError/Code/cancelled``. Adapters wrap their client call in it, so no client's idle or head-only
    /// timeout can let a trickling server hold the caller.
    ///
    /// - Parameter exchange: The adapter's request, returning a response or a classified error.
    /// - Returns: The response.
    /// - Throws: ``TransportError``.
    public func withinDeadline(
        _ exchange: @escaping @Sendable () async -> Result<TransportResponse, TransportError>
    ) async throws(TransportError) -> TransportResponse {
        let clock = ContinuousClock()
        switch await Race.first(clock: clock, until: clock.now.advanced(by: timeout), exchange) {
        case .finished(let result): return try result.get()
        case .timedOut: throw TransportError(.timedOut, "\(target) did not answer in full in time")
        case .cancelled: throw TransportError(.cancelled, "\(target) was cancelled")
        }
    }
}

/// How the SDK reaches the ACS and fetches challenge images: one request, one response. The core never builds a
/// transport itself; ``URLSessionTransport`` is the default, and the `ThreeDS2NIOTransport` module offers one
/// built on AsyncHTTPClient with custom trust roots.
///
/// Conforming types must honour task cancellation, give up at the request's deadline for the whole response, and
/// refuse bodies over its size bound.
public protocol ChallengeTransport: Sendable {
    /// Sends a request and returns the response, whatever its status.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response.
    /// - Throws: ``TransportError`` when no usable response came back.
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}

extension ChallengeTransport {
    /// Posts a body.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body.
    ///   - contentType: The body's `Content-Type`.
    ///   - timeout: The deadline for the whole response.
    ///   - maxResponseBytes: The largest response body accepted.
    /// - Returns: The response.
    /// - Throws: ``TransportError`` when no usable response came back.
    public func post(
        url: URL, body: [UInt8], contentType: String, timeout: Duration, maxResponseBytes: Int = 256 * 1024
    ) async throws(TransportError) -> TransportResponse {
        try await send(
            TransportRequest(
                method: .post, url: url, contentType: contentType, body: body, timeout: timeout,
                maxResponseBytes: maxResponseBytes))
    }
}
