import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Calls for a session another instance runs, passed on to that instance as they came (method, path, token, origin,
/// body) and its answer passed back as it is. A forwarded call carries ``header``: the instance that receives it
/// never forwards it again, and answers `421` when it does not run the session (then the forwarding instance takes
/// the session over, as when the owner cannot be reached).
enum Forwarding {
    /// Marks a call one instance forwarded to another.
    static let header = HTTPField.Name("X-ThreeDS-Split-Forwarded")!
    /// The bound of a forwarded call: a long-poll's 25 seconds and the owner's work.
    static let timeout: TimeAmount = .seconds(60)

    /// The client forwarded calls go through: an owner that cannot be reached is known within two seconds (the
    /// connection's bound; the shared client would retry until the call's own bound, a long-poll's), and the
    /// session is then taken over. It lives as long as the process, as `HTTPClient.shared` does.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(2)
        configuration.connectionPool.idleTimeout = .seconds(30)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Whether the call was forwarded by another instance.
    static func isForwarded(_ request: Request) -> Bool { request.headers[header] != nil }

    /// The owner's answer, or `nil` when it could not be reached or does not run the session (`421`): the caller then
    /// takes the session over.
    static func forward(_ request: Request, body: ByteBuffer, to owner: URL) async -> Response? {
        var target = owner.absoluteString
        if target.hasSuffix("/") { target.removeLast() }
        var outgoing = HTTPClientRequest(url: target + request.uri.path)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for name in [HTTPField.Name.authorization, .contentType, .origin] {
            if let value = request.headers[name] { outgoing.headers.add(name: name.rawName, value: value) }
        }
        outgoing.headers.add(name: header.rawName, value: "1")
        if body.readableBytes > 0 { outgoing.body = .bytes(body) }
        do {
            let answer = try await client.execute(outgoing, timeout: timeout)
            guard answer.status.code != 421 else { return nil }
            let bytes = try await answer.body.collect(upTo: 8 << 20)
            var fields = HTTPFields()
            for (name, value) in answer.headers {
                guard let field = HTTPField.Name(name), !Self.hopByHop.contains(name.lowercased()) else { continue }
                fields.append(HTTPField(name: field, value: value))
            }
            return Response(
                status: HTTPResponse.Status(code: Int(answer.status.code)), headers: fields,
                body: .init(byteBuffer: bytes))
        } catch {
            return nil
        }
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
