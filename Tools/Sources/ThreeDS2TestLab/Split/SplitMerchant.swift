import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
public import ThreeDS2JOSE
public import ThreeDS2Messages
public import ThreeDS2SDK

/// One HTTP call to a Split-SDK Server as its two callers make it: a bearer token (the merchant's API key, or a
/// client's token) and a JSON body. The one helper the tools' Swift client, merchant, demo, benchmark and tests share.
public enum SplitHTTP {
    /// The largest answer read.
    public static let maxAnswerBytes = 4 << 20

    /// An answer of the server: its status and its body as a JSON object (empty when it is not one).
    public struct Answer: Sendable {
        /// The HTTP status.
        public let status: Int
        /// The body as a JSON object; empty when it is not one.
        public let json: JSONObject
        /// An answer, as read.
        public init(status: Int, json: JSONObject) {
            self.status = status
            self.json = json
        }
    }

    /// Sends one call.
    ///
    /// - Parameters:
    ///   - method: `GET` or `POST` (any HTTP method's name).
    ///   - url: The address.
    ///   - token: The bearer token.
    ///   - body: The JSON body, if any.
    ///   - timeout: The bound of the whole call.
    /// - Returns: The answer.
    /// - Throws: The HTTP client's error when no answer came.
    public static func send(
        _ method: String, _ url: URL, token: String, body: JSONObject? = nil, timeout: Duration = .seconds(60)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body.serializedBytes))
        }
        let response = try await HTTPClient.shared.execute(
            request, timeout: .milliseconds(timeout.components.seconds * 1000))
        let bytes = Array(buffer: try await response.body.collect(upTo: maxAnswerBytes))
        var json = JSONObject()
        if case .object(let object)? = try? JSONParser().parse(bytes) { json = object }
        return Answer(status: Int(response.status.code), json: json)
    }
}

extension SplitHTTP {
    /// A GET without a token (an HTML page at its one-time address): the status and the body as text.
    public static func text(_ url: URL, timeout: Duration = .seconds(60)) async throws -> (status: Int, text: String) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        let response = try await HTTPClient.shared.execute(
            request, timeout: .milliseconds(timeout.components.seconds * 1000))
        let bytes = Array(buffer: try await response.body.collect(upTo: maxAnswerBytes))
        return (Int(response.status.code), String(decoding: bytes, as: UTF8.self))
    }
}

/// A merchant backend's calls to a Split-SDK Server (the merchant interface of docs/split-sdk.md), with its API key:
/// a session, the AReq parameters once its client started, the ARes's challenge handed over, the session's state.
/// What `threeds load --split-server` and the tools' tests play the merchant with.
public struct SplitMerchant: Sendable {
    /// The Split-SDK Server's address.
    public let serverURL: URL
    private let apiKey: String

    /// A merchant of the server at `serverURL` with its API key.
    public init(serverURL: URL, apiKey: String) {
        self.serverURL = serverURL
        self.apiKey = apiKey
    }

    /// A session the server created.
    public struct Session: Sendable, Hashable {
        /// The session's ID (the merchant's calls name it).
        public let id: String
        /// The one-time token the client starts with.
        public let clientToken: String
        /// Where the client is served.
        public let clientURL: String
    }

    /// `POST /merchant/v1/sessions`.
    ///
    /// - Parameters:
    ///   - messageVersion: The transaction's version.
    ///   - directoryServerID: The directory server (one the server is registered with).
    ///   - host: `shell` for an app's web view that opens the bank's app; `nil` for a browser.
    /// - Returns: The session.
    /// - Throws: ``SplitClientError`` naming the status and the server's error when it is not `201`.
    public func createSession(messageVersion: MessageVersion, directoryServerID: String, host: String? = nil)
        async throws -> Session
    {
        var body: JSONObject = [
            "messageVersion": .string(messageVersion.rawValue), "directoryServerID": .string(directoryServerID),
        ]
        if let host { body["host"] = .string(host) }
        let created = try await call("POST", "merchant/v1/sessions", body, expecting: 201)
        guard let id = created["sessionID"]?.stringValue, let token = created["clientToken"]?.stringValue,
            let clientURL = created["clientURL"]?.stringValue
        else { throw SplitClientError("the server's new session lacks an ID, a token or a URL") }
        return Session(id: id, clientToken: token, clientURL: clientURL)
    }

    /// `GET /merchant/v1/sessions/{id}/authentication-request-parameters`: the AReq's SDK part, once the client
    /// started.
    public func authenticationRequestParameters(of session: String) async throws -> JSONObject {
        try await call("GET", "merchant/v1/sessions/\(session)/authentication-request-parameters", nil, expecting: 200)
    }

    /// `POST /merchant/v1/sessions/{id}/challenge`: the ARes's challenge parameters.
    public func challenge(_ session: String, with parameters: ChallengeParameters) async throws {
        let body: JSONObject = [
            "threeDSServerTransID": .string(parameters.threeDSServerTransactionID),
            "acsTransID": .string(parameters.acsTransactionID), "acsReferenceNumber": .string(parameters.acsRefNumber),
            "acsSignedContent": .string(parameters.acsSignedContent),
        ]
        _ = try await call("POST", "merchant/v1/sessions/\(session)/challenge", body, expecting: 202)
    }

    /// `GET /merchant/v1/sessions/{id}`: the state and, once finished, the outcome.
    public func status(of session: String) async throws -> JSONObject {
        try await call("GET", "merchant/v1/sessions/\(session)", nil, expecting: 200)
    }

    /// One call with the API key; the answer's JSON object when its status is `expecting`.
    ///
    /// - Throws: ``SplitClientError`` naming the path, the status and the server's `error`.
    public func call(_ method: String, _ path: String, _ body: JSONObject?, expecting: Int) async throws
        -> JSONObject
    {
        let answer = try await SplitHTTP.send(
            method, serverURL.appendingPathComponent(path), token: apiKey, body: body, timeout: .seconds(120))
        guard answer.status == expecting else {
            let error = answer.json["error"]?.objectValue
            let reason = error?["detail"]?.stringValue ?? error?["code"]?.stringValue ?? "no error text"
            throw SplitClientError("\(method) /\(path): HTTP \(answer.status) (\(reason))")
        }
        return answer.json
    }
}
