import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// The AsyncHTTPClient transport: TLS 1.2 or newer with full certificate validation against the system roots plus
/// any extra roots, and response bodies bounded in size.
public final class HTTPClientTransport: ChallengeTransport, ImageFetcher {
    /// The largest response body accepted.
    public static let maxResponseBytes = 256 * 1024

    private let client: HTTPClient

    /// Creates the transport.
    ///
    /// - Parameter additionalTrustRootsPEM: PEM certificates trusted in addition to the system's.
    /// - Throws: ``TransportError`` when a root cannot be read.
    public init(additionalTrustRootsPEM: [String] = []) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.certificateVerification = .fullVerification
        do {
            let roots = try additionalTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
            if !roots.isEmpty { tls.additionalTrustRoots = [.certificates(roots)] }
        } catch {
            throw TransportError("a TLS trust root could not be read: \(error)")
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(10))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Posts with AsyncHTTPClient.
    public func post(url: URL, body: [UInt8], contentType: String, timeout: Duration) async throws -> TransportResponse
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: Self.timeAmount(timeout))
            var buffer = try await response.body.collect(upTo: Self.maxResponseBytes)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            return TransportResponse(
                status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"),
                body: bytes)
        } catch let error as NIOTooManyBytesError {
            throw TransportError("the response is larger than \(Self.maxResponseBytes) bytes: \(error)")
        } catch {
            throw TransportError("\(error)")
        }
    }

    /// Fetches a small resource with GET (for challenge images).
    public func get(url: URL, maxBytes: Int, timeout: Duration) async throws -> [UInt8] {
        let request = HTTPClientRequest(url: url.absoluteString)
        do {
            let response = try await client.execute(request, timeout: Self.timeAmount(timeout))
            guard response.status == .ok else { throw TransportError("HTTP \(response.status.code)") }
            var buffer = try await response.body.collect(upTo: maxBytes)
            return buffer.readBytes(length: buffer.readableBytes) ?? []
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError("\(error)")
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Shuts the client down; call once when the transport is no longer used.
    public func shutdown() async throws {
        try await client.shutdown()
    }
}
