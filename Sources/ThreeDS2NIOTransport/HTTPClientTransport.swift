import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
public import ThreeDS2SDK

/// The AsyncHTTPClient transport: TLS 1.2 or newer with full certificate validation against the system roots plus
/// any extra roots (which `URLSession` cannot take on Linux), no redirects, and response bodies bounded in size.
///
/// Call ``shutdown()`` when the transport is no longer used; a transport released without it shuts its client down
/// in the background, so no exit path can trip AsyncHTTPClient's not-shut-down check.
public final class HTTPClientTransport: ChallengeTransport {
    private let client: HTTPClient
    private let isShutDown = Locked(false)

    /// Creates the transport.
    ///
    /// - Parameters:
    ///   - additionalTrustRootsPEM: PEM certificates trusted in addition to the system's.
    ///   - maxConnectionsPerHost: The most HTTP/1.1 connections kept to one host (AsyncHTTPClient's default is 8;
    ///     a load run raises it).
    /// - Throws: ``TransportError`` of code `invalidRequest` when a root cannot be read.
    public init(additionalTrustRootsPEM: [String] = [], maxConnectionsPerHost: Int = 8) throws(TransportError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.certificateVerification = .fullVerification
        do {
            let roots = try additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
            if !roots.isEmpty { tls.additionalTrustRoots = [.certificates(roots)] }
        } catch {
            throw TransportError(.invalidRequest, "a TLS trust root could not be read", underlying: error)
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        // A refused connection fails at once instead of being retried until the deadline, where it would be
        // indistinguishable from an ACS that does not answer.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, maxConnectionsPerHost)
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(10))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends the request with AsyncHTTPClient.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response.
    /// - Throws: ``TransportError`` classified by cause.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let client = self.client
        // AsyncHTTPClient's deadline covers the head; the request's deadline covers the body too, so a server that
        // trickles its answer a byte at a time cannot hold the caller.
        return try await request.withinDeadline {
            do {
                let response = try await client.execute(
                    Self.convert(request), timeout: Self.timeAmount(request.timeout))
                var buffer = try await response.body.collect(upTo: request.maxResponseBytes)
                return .success(
                    TransportResponse(
                        status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"),
                        body: buffer.readBytes(length: buffer.readableBytes) ?? []))
            } catch {
                return .failure(Self.classify(error, request: request))
            }
        }
    }

    /// The AsyncHTTPClient request for a transport request.
    static func convert(_ request: TransportRequest) -> HTTPClientRequest {
        var converted = HTTPClientRequest(url: request.url.absoluteString)
        converted.method = request.method == .post ? .POST : .GET
        if let contentType = request.contentType { converted.headers.add(name: "Content-Type", value: contentType) }
        if request.method == .post { converted.body = .bytes(ByteBuffer(bytes: request.body)) }
        return converted
    }

    /// Sorts an AsyncHTTPClient or NIO error into a transport error code, keeping the error itself.
    static func classify(_ error: any Error, request: TransportRequest) -> TransportError {
        let target = request.target
        switch error {
        case is NIOTooManyBytesError:
            return TransportError(
                .responseTooLarge, "the response to \(target) is larger than \(request.maxResponseBytes) bytes",
                underlying: error)
        case is CancellationError:
            return TransportError(.cancelled, "\(target) was cancelled", underlying: error)
        case is NIOSSLError, is BoringSSLError:
            return TransportError(.tlsFailure, "TLS with \(target) failed", underlying: error)
        case is NIOConnectionError, is IOError:
            return TransportError(.connectionFailed, "no connection for \(target)", underlying: error)
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout:
                return TransportError(.timedOut, "\(target) did not answer in time", underlying: error)
            case .cancelled:
                return TransportError(.cancelled, "\(target) was cancelled", underlying: error)
            case .invalidURL, .emptyHost, .emptyScheme:
                return TransportError(.invalidRequest, "\(target) is not a valid request", underlying: error)
            case .remoteConnectionClosed:
                return TransportError(.connectionFailed, "the connection for \(target) closed", underlying: error)
            default:
                return TransportError(.other, "\(target) failed", underlying: error)
            }
        case let error as ChannelError:
            if case .connectTimeout = error {
                return TransportError(.timedOut, "\(target) did not connect in time", underlying: error)
            }
            return TransportError(.connectionFailed, "no connection for \(target)", underlying: error)
        default:
            return TransportError(.other, "\(target) failed", underlying: error)
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Shuts the client down; later calls do nothing.
    ///
    /// - Throws: The client's shutdown error.
    public func shutdown() async throws {
        guard
            isShutDown.withLock({ done in
                defer { done = true }; return !done
            })
        else { return }
        try await client.shutdown()
    }

    deinit {
        guard isShutDown.withLock({ !$0 }) else { return }
        let client = self.client
        Task { try? await client.shutdown() }
    }
}
