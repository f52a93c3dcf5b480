import Crypto
import Foundation
import Hummingbird
import NIOCore
import ThreeDS2JOSE

/// An error answered to a caller: the HTTP status and `{"error": {"code", "detail"}}`. The detail never holds a
/// token, a key or challenge data.
struct SplitHTTPError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let detail: String

    init(_ status: HTTPResponse.Status, _ code: String, _ detail: String) {
        self.status = status
        self.code = code
        self.detail = detail
    }

    static func unauthorized(_ detail: String) -> SplitHTTPError { .init(.unauthorized, "unauthorized", detail) }
    static func conflict(_ detail: String) -> SplitHTTPError { .init(.conflict, "conflict", detail) }
    static func gone(_ detail: String) -> SplitHTTPError { .init(.gone, "ended", detail) }
    static func badRequest(_ detail: String) -> SplitHTTPError { .init(.badRequest, "malformed", detail) }
    static func refused(_ detail: String) -> SplitHTTPError { .init(.unprocessableContent, "refused", detail) }
    static func notFound(_ detail: String) -> SplitHTTPError { .init(.notFound, "notFound", detail) }
    static func internalError(_ detail: String) -> SplitHTTPError { .init(.internalServerError, "internal", detail) }
}

/// Reading requests and writing answers, the same way on both interfaces.
enum HTTPIO {
    /// A bounded body read as one strict JSON object (a member named twice is refused); 413 past the bound.
    static func object(_ request: Request, limit: Int) async throws(SplitHTTPError) -> JSONObject {
        try object(try await bytes(request, limit: limit), limit: limit)
    }

    /// The body's bytes, at most `limit` (413 beyond).
    static func bytes(_ request: Request, limit: Int) async throws(SplitHTTPError) -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch {
            throw SplitHTTPError(.contentTooLarge, "tooLarge", "the body is larger than \(limit) bytes")
        }
    }

    /// A body read already, as one strict JSON object.
    static func object(_ buffer: ByteBuffer, limit: Int) throws(SplitHTTPError) -> JSONObject {
        let parsed: JSONValue
        do {
            parsed = try JSONParser(limits: .init(maxBytes: limit, maxDepth: 32)).parse(Array(buffer: buffer))
        } catch {
            throw .badRequest("the body is not strict JSON")
        }
        guard case .object(let object) = parsed else { throw .badRequest("the body is not a JSON object") }
        return object
    }

    /// The bearer token of the `Authorization` header (never a URL's), or 401.
    static func bearer(_ request: Request) throws(SplitHTTPError) -> String {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw .unauthorized("an Authorization: Bearer header is required")
        }
        let token = String(header.dropFirst("Bearer ".count))
        guard !token.isEmpty, token.utf8.count <= 256 else { throw .unauthorized("the token is malformed") }
        return token
    }

    /// A JSON answer.
    static func json(_ object: JSONObject, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        fields[.init("X-Content-Type-Options")!] = "nosniff"
        return Response(
            status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: object.serializedBytes)))
    }

    /// An error answer.
    static func error(_ error: SplitHTTPError, headers: HTTPFields = [:]) -> Response {
        json(
            ["error": .object(["code": .string(error.code), "detail": .string(error.detail)])], status: error.status,
            headers: headers)
    }
}

/// Secrets: random tokens, their digests (the stores keep digests, never tokens), constant-time comparison.
enum Secrets {
    /// A new token: 32 random bytes, base64url, after a prefix naming its kind.
    static func token(prefix: String) -> String {
        prefix + Base64.urlEncode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// The SHA-256 of a token, hex: what a store is keyed by.
    static func digest(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// Whether two secrets are equal, in time that depends only on their lengths (the digests' are fixed).
    static func equal(_ given: String, _ expected: String) -> Bool {
        let (a, b) = (SHA256.hash(data: Array(given.utf8)), SHA256.hash(data: Array(expected.utf8)))
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
