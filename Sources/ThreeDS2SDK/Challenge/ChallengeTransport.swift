public import Foundation

/// An HTTP response from the ACS.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The `Content-Type`, when sent.
    public var contentType: String?
    /// The body, bounded by the transport.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, contentType: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// A transport failure: nothing usable came back.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// How the SDK reaches the ACS: HTTPS POSTs with bounded bodies. On Linux this is AsyncHTTPClient
/// (``HTTPClientTransport``); Apple builds may supply a URLSession-based one.
public protocol ChallengeTransport: Sendable {
    /// Posts a body and returns the response.
    ///
    /// - Parameters:
    ///   - url: The ACS URL.
    ///   - body: The request body.
    ///   - contentType: The `Content-Type` header.
    ///   - timeout: How long to wait for the whole response.
    /// - Returns: The response.
    /// - Throws: ``TransportError`` when no response came back (connection, TLS, size bound, timeout).
    func post(url: URL, body: [UInt8], contentType: String, timeout: Duration) async throws -> TransportResponse
}
