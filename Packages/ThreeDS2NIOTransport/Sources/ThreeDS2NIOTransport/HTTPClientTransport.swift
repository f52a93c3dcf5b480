import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// The AsyncHTTPClient transport: TLS 1.2 or newer with full certificate validation against the system roots plus
/// any extra roots (which `URLSession` cannot take on Linux), the server's identity checked as RFC 9525 says, no
/// redirects, and response bodies bounded as they arrive.
///
/// **Server identity.** swift-nio-ssl accepts a certificate whose `iPAddress` subject alternative name equals the
/// connected address even when the URL names a DNS host, so a certificate for an IP address could stand in for any
/// name resolving there. The transport therefore checks each new connection's leaf certificate itself, with the
/// core's ``ServiceIdentity`` (DNS names for names, IP addresses only for IP literals, never the common name),
/// before any request is written on it: one AsyncHTTPClient per host, whose connection initializer knows the host
/// and closes a connection whose certificate does not match (a `tlsFailure`). swift-nio-ssl's own check stays on.
///
/// **Bounds.** An announced `Content-Length` over the request's bound is refused before the body is read; the body
/// is counted as it arrives and refused once past the bound; only the identity encoding is asked for, and a body in
/// any other content encoding is refused (never decoded), so what is counted is what would be used.
///
/// Call ``shutdown()`` when the transport is no longer used; a transport released without it shuts its clients
/// down in the background, so no exit path can trip AsyncHTTPClient's not-shut-down check.
public final class HTTPClientTransport: ChallengeTransport {
    private let pool: ClientPool
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
        // HTTP/1.1 only: the identity check runs in the HTTP/1.1 connection initializer.
        configuration.httpVersion = .http1Only
        configuration.decompression = .disabled
        // A refused connection fails at once instead of being retried until the deadline, where it would be
        // indistinguishable from an ACS that does not answer.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, maxConnectionsPerHost)
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(10))
        pool = ClientPool(configuration: configuration)
    }

    /// Sends the request with AsyncHTTPClient.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response.
    /// - Throws: ``TransportError`` classified by cause.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        guard let host = request.url.host, !host.isEmpty else {
            throw TransportError(.invalidRequest, "\(request.target) has no host")
        }
        guard let client = pool.checkOut(host: host) else {
            throw TransportError(.cancelled, "\(request.target): the transport was shut down")
        }
        defer { pool.checkIn(host: host) }
        // AsyncHTTPClient's deadline covers the head; the request's deadline covers the body too, so a server that
        // trickles its answer a byte at a time cannot hold the caller.
        return try await request.withinDeadline {
            do {
                let response = try await client.execute(
                    Self.convert(request), timeout: Self.timeAmount(request.timeout))
                if let refusal = Self.refusal(of: response.headers, request: request) { return .failure(refusal) }
                let body = try await response.body.collect(upTo: request.maxResponseBytes)
                return .success(Self.response(status: response.status, headers: response.headers, body: body))
            } catch {
                return .failure(Self.classify(error, request: request))
            }
        }
    }

    /// Why a response head is refused before its body is read: a length announced over the bound, or a content
    /// encoding other than identity.
    static func refusal(of headers: HTTPHeaders, request: TransportRequest) -> TransportError? {
        if let announced = headers.first(name: "Content-Length"),
            Int(announced.trimmingCharacters(in: .whitespaces)).map({ $0 > request.maxResponseBytes }) ?? true
        {
            return TransportError(
                .responseTooLarge,
                "the response to \(request.target) announces \(announced.prefix(20)) bytes; at most \(request.maxResponseBytes)"
            )
        }
        for encoding in headers[canonicalForm: "Content-Encoding"] where encoding.lowercased() != "identity" {
            return TransportError(
                .responseTooLarge,
                "the response to \(request.target) is in content encoding \(encoding.prefix(20)), which is not read "
                    + "(its decoded size cannot be bounded before decoding)")
        }
        return nil
    }

    /// The AsyncHTTPClient request for a transport request.
    /// The transport response for what came back, whatever its status (the SDK reads an ACS's error statuses
    /// itself).
    static func response(status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer) -> TransportResponse {
        var body = body
        return TransportResponse(
            status: Int(status.code), contentType: headers.first(name: "Content-Type"),
            body: body.readBytes(length: body.readableBytes) ?? [])
    }

    static func convert(_ request: TransportRequest) -> HTTPClientRequest {
        var converted = HTTPClientRequest(url: request.url.absoluteString)
        converted.method = request.method == .post ? .POST : .GET
        if let contentType = request.contentType { converted.headers.add(name: "Content-Type", value: contentType) }
        converted.headers.add(name: "Accept-Encoding", value: "identity")
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
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError, is ServiceIdentityMismatch:
            if PlainHTTPAnswer.isPlainHTTPAnswer(error) {
                return TransportError(
                    .tlsFailure, "\(target) answered in plain HTTP, not TLS", underlying: PlainHTTPAnswer(error))
            }
            return TransportError(.tlsFailure, "TLS with \(target) failed", underlying: error)
        case is NIOConnectionError, is IOError:
            return TransportError(.connectionFailed, "no connection for \(target)", underlying: error)
        case let error as HTTPClientError:
            switch error {
            // The request's deadline passed: before the answer, before a connection, or while it waited for one in
            // the pool (under load, a request queued behind the host's connections).
            case .deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
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

    /// Shuts the clients down; later calls do nothing.
    ///
    /// - Throws: A client's shutdown error.
    public func shutdown() async throws {
        guard
            isShutDown.withLock({ done in
                defer { done = true }; return !done
            })
        else { return }
        for client in pool.close() { try await client.shutdown() }
    }

    deinit {
        guard isShutDown.withLock({ !$0 }) else { return }
        let clients = pool.close()
        Task { for client in clients { try? await client.shutdown() } }
    }
}

/// One AsyncHTTPClient per host, each checking its connections' server identity against that host. Clients with no
/// request in flight are evicted (and shut down) oldest first once more than ``maxIdleHosts`` hosts are held, so a
/// long-lived transport fetching images from many hosts stays bounded.
final class ClientPool: Sendable {
    static let maxIdleHosts = 16

    private struct Entry {
        var client: HTTPClient
        var inFlight: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var closed = false
        var tick: UInt64 = 0
    }

    private let configuration: HTTPClient.Configuration
    private let state = Locked(State())

    init(configuration: HTTPClient.Configuration) {
        self.configuration = configuration
    }

    /// The client for `host`, counted as in use until ``checkIn(host:)``; `nil` once closed.
    func checkOut(host: String) -> HTTPClient? {
        let key = host.lowercased()
        let configuration = configuration
        let (client, evicted): (HTTPClient?, [HTTPClient]) = state.withLock { state in
            guard !state.closed else { return (nil, []) }
            state.tick += 1
            if var entry = state.entries[key] {
                entry.inFlight += 1
                entry.lastUse = state.tick
                state.entries[key] = entry
                return (entry.client, [])
            }
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton, configuration: Self.configuration(configuration, host: host))
            state.entries[key] = Entry(client: client, inFlight: 1, lastUse: state.tick)
            var evicted: [HTTPClient] = []
            while state.entries.count > Self.maxIdleHosts,
                let oldest = state.entries.filter({ $0.value.inFlight == 0 }).min(by: {
                    $0.value.lastUse < $1.value.lastUse
                })
            {
                state.entries[oldest.key] = nil
                evicted.append(oldest.value.client)
            }
            return (client, evicted)
        }
        if !evicted.isEmpty { Task { for client in evicted { try? await client.shutdown() } } }
        return client
    }

    /// Ends one use of the client for `host`.
    func checkIn(host: String) {
        let key = host.lowercased()
        state.withLock { $0.entries[key]?.inFlight -= 1 }
    }

    /// Closes the pool; returns the clients to shut down.
    func close() -> [HTTPClient] {
        state.withLock { state in
            state.closed = true
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
    }

    /// The configuration for one host: the shared one plus a connection initializer that checks the server's
    /// certificate against `host` as RFC 9525 says, closing the connection before any request is written when it
    /// does not match.
    static func configuration(_ shared: HTTPClient.Configuration, host: String) -> HTTPClient.Configuration {
        var configuration = shared
        configuration.http1_1ConnectionDebugInitializer = { channel in
            channel.pipeline.handler(type: NIOSSLClientHandler.self).map { _ in true }.recover { _ in false }
                .flatMap { usesTLS -> EventLoopFuture<Void> in
                    // Plain HTTP (no TLS handler) has no identity to check.
                    guard usesTLS else { return channel.eventLoop.makeSucceededVoidFuture() }
                    return channel.nioSSL_peerCertificate().flatMap { certificate -> EventLoopFuture<Void> in
                        let der = certificate.flatMap { try? $0.toDERBytes() } ?? []
                        guard ServiceIdentity.matches(certificateDER: der, host: host) else {
                            channel.close(promise: nil)
                            return channel.eventLoop.makeFailedFuture(ServiceIdentityMismatch(host: host))
                        }
                        return channel.eventLoop.makeSucceededVoidFuture()
                    }
                }
        }
        return configuration
    }
}

/// The server's certificate does not name the host the URL names (RFC 9525).
struct ServiceIdentityMismatch: Error, CustomStringConvertible {
    let host: String
    var description: String {
        "the server's certificate does not name \(host) (RFC 9525: DNS names for host names, IP addresses only for "
            + "IP literals)"
    }
}
