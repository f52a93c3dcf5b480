public import Foundation
public import ThreeDS2JOSE

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

/// A transport failure: no usable response came back, in the package's one error shape
/// (`CodedError`). Callers branch on ``code``; ``underlying`` keeps the adapter's own error for logs.
/// Two errors are equal when their codes are.
public struct TransportError: DetailedCodedError, Sendable {
    /// What kind of failure it was. New codes may be added; do not rely on the list being complete.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Name: Hashable, Sendable {
            case connectionFailed, tlsFailure, timedOut, responseTooLarge, cancelled, invalidRequest, other
        }

        private let name: Name

        private init(_ name: Name) { self.name = name }

        /// The name of the code, for messages.
        public var description: String { "\(name)" }

        /// No connection could be made (refused, unreachable, name not found).
        public static let connectionFailed = Code(.connectionFailed)
        /// The TLS handshake failed (untrusted certificate, protocol version).
        public static let tlsFailure = Code(.tlsFailure)
        /// The whole response did not arrive before the request's deadline.
        public static let timedOut = Code(.timedOut)
        /// The response body was larger than the request allowed.
        public static let responseTooLarge = Code(.responseTooLarge)
        /// The request was cancelled by its task.
        public static let cancelled = Code(.cancelled)
        /// The request could not be formed (bad URL, unsupported scheme).
        public static let invalidRequest = Code(.invalidRequest)
        /// Any other failure of the adapter.
        public static let other = Code(.other)
    }

    /// The code, message, cause and place.
    public let details: ErrorDetails<Code>

    /// Creates the error from its details (`DetailedCodedError.init(_:_:underlying:file:line:)` creates one raised
    /// where it is called).
    ///
    /// - Parameter details: The code, message, cause and place.
    public init(details: ErrorDetails<Code>) { self.details = details }
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
