import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// Calls for a session another instance runs, passed on to that instance as they came (method, path, token, origin,
/// body) and its answer passed back as it is. A forwarded call carries ``header``: the instance that receives it
/// never forwards it again, and answers `421` when it does not run the session (then the forwarding instance takes
/// the session over, as when the owner cannot be reached).
enum Forwarding {
    /// Marks a call one instance forwarded to another.
    static let header = HTTPField.Name("X-ThreeDS-Split-Forwarded")!
    /// The bound of a forwarded call: a long-poll's 25 seconds and the owner's work.
    static let timeout: TimeAmount = .seconds(60)

    /// The client forwarded calls go through: a connection within five seconds (the shared client would retry until
    /// the call's own bound, a long-poll's); whether the owner is gone is then asked of the kernel
    /// (``acceptsConnections(_:)``). It lives as long as the process, as `HTTPClient.shared` does.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        configuration.connectionPool.idleTimeout = .seconds(30)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// What became of a forwarded call.
    enum Outcome {
        /// The owner answered: its answer, passed back as it is.
        case answered(Response)
        /// The owner could not be reached (no connection): it is gone, the session may be taken over.
        case unreachable
        /// The owner answered `421`: it does not run the session (any more).
        case notOwner
        /// The call failed after it was sent (a reset, a timeout): the owner may have acted on it; nothing is taken
        /// over, and the caller answers `502`.
        case failed
    }

    /// Passes the call on to the owner, signed with ``signature(_:body:key:)``.
    static func forward(
        _ request: Request, body: ByteBuffer, to owner: URL, key: SymmetricKey?, logger: Logger
    ) async -> Outcome {
        var target = owner.absoluteString
        if target.hasSuffix("/") { target.removeLast() }
        var outgoing = HTTPClientRequest(url: target + request.uri.path)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for name in [HTTPField.Name.authorization, .contentType, .origin] {
            if let value = request.headers[name] { outgoing.headers.add(name: name.rawName, value: value) }
        }
        outgoing.headers.add(name: header.rawName, value: signature(request, body: body, key: key))
        if body.readableBytes > 0 { outgoing.body = .bytes(body) }
        var outcome: HTTPClientResponse?
        for attempt in 0..<2 where outcome == nil {
            do {
                outcome = try await client.execute(outgoing, timeout: timeout)
            } catch {
                // Only a kernel that refuses the connection says the owner is gone: a slow event loop, or a pooled
                // connection the owner closed, is not a takeover (a busy machine must not lose a healthy owner).
                let alive = await acceptsConnections(owner)
                logger.notice(
                    "a forwarded call failed",
                    metadata: ["owner": "\(owner)", "alive": "\(alive)", "error": "\(String(reflecting: error))"])
                guard alive else { return .unreachable }
                if attempt == 1 { return .failed }
            }
        }
        guard let answer = outcome else { return .failed }
        guard answer.status.code != 421 else { return .notOwner }
        guard let bytes = try? await answer.body.collect(upTo: 8 << 20) else { return .failed }
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            guard let field = HTTPField.Name(name), !Self.hopByHop.contains(name.lowercased()) else { continue }
            fields.append(HTTPField(name: field, value: value))
        }
        return .answered(
            Response(
                status: HTTPResponse.Status(code: Int(answer.status.code)), headers: fields,
                body: .init(byteBuffer: bytes)))
    }

    /// Whether the owner's address takes a TCP connection within five seconds (a listening socket is answered by the
    /// kernel however busy its process is; a killed process's port refuses at once).
    static func acceptsConnections(_ owner: URL) async -> Bool {
        guard let host = owner.host else { return false }
        let port = owner.port ?? (owner.scheme == "https" ? 443 : 80)
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5)).connect(host: host, port: port).get()
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }

    /// The forwarding header's value: an HMAC-SHA256, under a key derived from the instances' sealing key, of the
    /// method, the path and the body, so that only an instance forwards (a caller that sets the header is refused).
    /// `-` without a shared store.
    static func signature(_ request: Request, body: ByteBuffer, key: SymmetricKey?) -> String {
        guard let key else { return "-" }
        var message = Array("\(request.method.rawValue) \(request.uri.path)\n".utf8)
        message += body.readableBytesView
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: forwardingKey(key))
        return Data(mac).base64EncodedString()
    }

    /// Whether the call carries a forwarding header an instance made.
    static func isSigned(_ request: Request, body: ByteBuffer, key: SymmetricKey?) -> Bool {
        guard let key, let given = request.headers[header] else { return false }
        return Secrets.equal(given, signature(request, body: body, key: key))
    }

    private static func forwardingKey(_ key: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Array("threeds-split forwarded calls".utf8), outputByteCount: 32)
    }

    /// Headers that belong to one connection, never passed on.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "upgrade", "proxy-connection", "te",
        "trailer",
    ]
}

/// The owner's answer to a forwarded call, passed back as it is (thrown past the handler that would have answered).
struct ForwardedAnswer: Error, @unchecked Sendable {
    let response: Response
}

/// Finds the session a call is answered for: here, or by forwarding the call to the instance that runs it (its answer
/// thrown as ``ForwardedAnswer``), taking the session over when that instance is gone.
struct SessionRouting: Sendable {
    let store: SessionStore
    let logger: Logger
    /// The instances' shared key (a shared store); `nil` with the memory store, where nothing is forwarded.
    let key: SymmetricKey?

    /// The session this instance answers the call for.
    ///
    /// - Parameters:
    ///   - request: The call.
    ///   - body: Its body, read already.
    ///   - resolve: Where the store says the call is answered (given whether another instance forwarded it).
    func session(
        for request: Request, body: ByteBuffer,
        resolve: (Bool) async throws(SplitHTTPError) -> SessionStore.Route
    ) async throws -> SplitSession {
        let forwarded = Forwarding.isSigned(request, body: body, key: key)
        if request.headers[Forwarding.header] != nil, !forwarded {
            throw SplitHTTPError(.forbidden, "forwarded", "only an instance of this server forwards calls")
        }
        // Twice at most: a takeover another instance's write came before routes the call again.
        for _ in 0..<2 {
            switch try await resolve(forwarded) {
            case .local(let session): return session
            case .forward(let owner, let id, let seen):
                switch await Forwarding.forward(request, body: body, to: owner, key: key, logger: logger) {
                case .answered(let response): throw ForwardedAnswer(response: response)
                case .failed:
                    throw SplitHTTPError(.badGateway, "owner", "the instance that runs the session did not answer")
                case .unreachable, .notOwner:
                    if let session = try await store.takeOver(id, seen: seen) { return session }
                }
            }
        }
        throw SplitHTTPError(.serviceUnavailable, "owner", "the session changed hands while the call was routed")
    }
}
