import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

/// What the merchant's backend does, as the tests play it: it speaks to the Split-SDK Server's merchant interface
/// (server to server, with its API key) and to the TestLab's 3DS Server.
struct MerchantBackend: Sendable {
    /// The Split-SDK Server's base URL, as the backend reaches it (directly, not through the browser's relay).
    let serverURL: String
    /// The merchant API key.
    let apiKey: String
    let lab: TestLab

    /// A created session.
    struct Session: Sendable {
        let id: String
        let clientToken: String
        let clientURL: String
    }

    /// `POST /merchant/v1/sessions`; `host` `shell` for a client in an app's web view (the Shell variant).
    func createSession(locale: String? = nil, host: String? = nil) async throws -> Session {
        var body: JSONObject = [
            "messageVersion": .string("2.3.1"), "directoryServerID": .string(TestLab.rsaDirectoryServerID.rawValue),
        ]
        if let locale { body["locale"] = .string(locale) }
        if let host { body["host"] = .string(host) }
        let (status, answer) = try await call("POST", "/merchant/v1/sessions", body)
        try #require(status == 201, "create session: HTTP \(status) \(answer.serialized)")
        return Session(
            id: try #require(answer["sessionID"]?.stringValue),
            clientToken: try #require(answer["clientToken"]?.stringValue),
            clientURL: try #require(answer["clientURL"]?.stringValue))
    }

    /// The AReq parameters, then the lab's 3DS Server's ARes, then the challenge parameters posted back: what the
    /// merchant's backend does once the client has started. Returns the ARes's challenge parameters.
    func authenticate(_ session: Session, scenario: Scenario) async throws -> ChallengeParameters {
        let (status, parameters) = try await call(
            "GET", "/merchant/v1/sessions/\(session.id)/authentication-request-parameters")
        try #require(status == 200, "AReq parameters: HTTP \(status) \(parameters.serialized)")
        #expect(parameters["sdkType"]?.stringValue == "02")
        #expect(parameters["splitSdkType"]?.objectValue?["limitedInd"]?.stringValue == "N")
        var request = parameters
        for (name, value) in Purchase(cardNumber: scenario.cardNumber, amount: "1999", currency: "978").fields.members {
            request[name] = value
        }
        let transport = try lab.makeTransport()
        defer { Task { try? await transport.shutdown() } }
        let response = try await transport.post(
            url: lab.baseURL.appendingPathComponent("3ds/authenticate"), body: request.serializedBytes,
            contentType: "application/json; charset=UTF-8", timeout: .seconds(120))
        guard case .object(let ares) = try JSONParser().parse(response.body) else {
            throw BrowserTestError("the 3DS Server's answer is not a JSON object")
        }
        let authentication = try ThreeDSServerClient.response(
            from: ares, messageVersion: .v2_3_1, requestorAppURL: nil)
        let challenge = try #require(authentication.challengeParameters, "no challenge: \(ares.serialized)")
        let body: JSONObject = [
            "threeDSServerTransID": .string(challenge.threeDSServerTransactionID),
            "acsTransID": .string(challenge.acsTransactionID), "acsReferenceNumber": .string(challenge.acsRefNumber),
            "acsSignedContent": .string(challenge.acsSignedContent),
        ]
        let (posted, answer) = try await call("POST", "/merchant/v1/sessions/\(session.id)/challenge", body)
        try #require(posted == 202, "challenge: HTTP \(posted) \(answer.serialized)")
        return challenge
    }

    /// `GET /merchant/v1/sessions/{id}`.
    func state(_ session: Session) async throws -> JSONObject {
        let (status, answer) = try await call("GET", "/merchant/v1/sessions/\(session.id)")
        try #require(status == 200, "session state: HTTP \(status)")
        return answer
    }

    private func call(_ method: String, _ path: String, _ body: JSONObject? = nil) async throws -> (Int, JSONObject) {
        var request = HTTPClientRequest(url: serverURL + path)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body.serializedBytes))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let object = (try? JSONParser().parse(Array(buffer: bytes)))?.objectValue ?? [:]
        return (Int(response.status.code), object)
    }
}

/// A failure of the test's own plumbing.
struct BrowserTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
