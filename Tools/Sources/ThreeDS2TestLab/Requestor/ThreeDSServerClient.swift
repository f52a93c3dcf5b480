public import Foundation
import ThreeDS2ACSKit
public import ThreeDS2JOSE
public import ThreeDS2Messages
public import ThreeDS2SDK

/// The purchase an authentication is for.
public struct Purchase: Sendable, Hashable {
    /// The card number (PAN).
    public var cardNumber: String
    /// The amount in minor units.
    public var amount: String
    /// The ISO 4217 numeric currency code.
    public var currency: String

    /// Creates a purchase.
    public init(cardNumber: String, amount: String, currency: String) {
        self.cardNumber = cardNumber
        self.amount = amount
        self.currency = currency
    }

    /// The AReq fields of the purchase (`acctNumber`, `purchaseAmount`, `purchaseCurrency`).
    public var fields: JSONObject {
        ["acctNumber": .string(cardNumber), "purchaseAmount": .string(amount), "purchaseCurrency": .string(currency)]
    }
}

/// The 3DS Server's answer, in ARes names.
public struct AuthenticationResponse: Sendable, Hashable {
    /// The whole JSON answer.
    public let json: JSONObject
    /// `transStatus`: `C` asks for a challenge.
    public let transStatus: TransactionStatus
    /// The challenge parameters, present when `transStatus` is `C`.
    public let challengeParameters: ChallengeParameters?
}

/// A client for the app ↔ 3DS Server contract the README documents: `POST {server}/3ds/authenticate` with the AReq
/// parameters and the purchase, answered in ARes field names.
public struct ThreeDSServerClient: Sendable {
    /// The server's base URL.
    public let serverURL: URL
    /// The transport (HTTPS with the configured roots).
    public let transport: any ChallengeTransport

    /// Creates a client.
    public init(serverURL: URL, transport: any ChallengeTransport) {
        self.serverURL = serverURL
        self.transport = transport
    }

    /// The request body for an authentication.
    ///
    /// - Parameters:
    ///   - parameters: The transaction's AReq parameters.
    ///   - purchase: The purchase.
    ///   - challengeTimeout: The challenge timeout the app will give the SDK, sent as `sdkMaxTimeout` in whole
    ///     minutes (at least 05).
    /// - Returns: The JSON body: the SDK's AReq value (`AuthenticationRequest`) with the purchase's fields added. No
    ///   AReq carries the 3DS Requestor App URL: the challenge's CReqs do.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` if a purchase field took a name the SDK writes.
    public static func requestBody(
        parameters: AuthenticationRequestParameters, purchase: Purchase, challengeTimeout: Duration = .seconds(5 * 60)
    ) throws(ThreeDS2Error) -> JSONObject {
        // The SDK's AReq value, extended with the purchase: nothing of the SDK's part is written again here.
        let request = parameters.authenticationRequest(challengeTimeout: challengeTimeout)
        return try request.adding(purchase.fields).json
    }

    /// `sdkMaxTimeout`: whole minutes, two digits, at least 05 (the SDK refuses shorter challenge timeouts).
    static func maxTimeoutText(_ timeout: Duration) -> String {
        AuthenticationRequest.maxTimeoutText(timeout)
    }

    /// Sends the authentication request and reads the answer.
    ///
    /// - Throws: ``ThreeDS2Error`` with code `runtime` naming what failed (transport, status, or a malformed answer).
    public func authenticate(
        parameters: AuthenticationRequestParameters, purchase: Purchase, requestorAppURL: String? = nil,
        challengeTimeout: Duration = .seconds(5 * 60)
    ) async throws(ThreeDS2Error)
        -> AuthenticationResponse
    {
        let body = try Self.requestBody(parameters: parameters, purchase: purchase, challengeTimeout: challengeTimeout)
        return try await authenticate(
            body: body, messageVersion: parameters.messageVersion, requestorAppURL: requestorAppURL)
    }

    /// Sends an authentication request body already made (a Split-SDK Server's AReq parameters with the purchase
    /// added) and reads the answer as ``authenticate(parameters:purchase:requestorAppURL:challengeTimeout:)`` does.
    ///
    /// - Parameters:
    ///   - body: The request body.
    ///   - messageVersion: The transaction's version.
    ///   - requestorAppURL: The app URL to pass to the challenge.
    /// - Returns: The response.
    /// - Throws: ``ThreeDS2Error`` with code `runtime` naming what failed (transport, status, or a malformed answer).
    public func authenticate(body: JSONObject, messageVersion: MessageVersion, requestorAppURL: String? = nil)
        async throws(ThreeDS2Error) -> AuthenticationResponse
    {
        let response: TransportResponse
        do {
            response = try await transport.post(
                url: serverURL.appendingPathComponent("3ds/authenticate"), body: body.serializedBytes,
                contentType: "application/json; charset=UTF-8",
                timeout: .seconds(30))
        } catch {
            // The transport throws only TransportError: its message names the URL, the code says what failed.
            throw ThreeDS2Error(.runtime, "the 3DS Server could not be reached: \(error.message)", underlying: error)
        }
        let object: JSONObject
        do {
            guard
                case .object(let parsed) = try JSONParser(limits: .init(maxBytes: 256 * 1024, maxDepth: 8)).parse(
                    response.body)
            else {
                throw ThreeDS2Error(.runtime, "the 3DS Server's answer is not a JSON object")
            }
            object = parsed
        } catch let error as ThreeDS2Error {
            throw error
        } catch {
            throw ThreeDS2Error(.runtime, "the 3DS Server's answer is not JSON (HTTP \(response.status))")
        }
        guard (200..<300).contains(response.status) else {
            throw ThreeDS2Error(
                .runtime,
                "the 3DS Server answered HTTP \(response.status): \(object["error"]?.stringValue ?? object.serialized.prefix(200).description)"
            )
        }
        return try Self.response(from: object, messageVersion: messageVersion, requestorAppURL: requestorAppURL)
    }

    /// Reads an answer in ARes field names, held to the rules a strict SDK client applies
    /// (`AuthenticationResponseRules`, the messages layer's, which the conformance audit shares): a `transStatus` the
    /// message version allows, and for a challenge (`C`) `threeDSServerTransID`, `acsTransID`, `acsReferenceNumber` and
    /// `acsSignedContent`; any other ARes field is kept in the JSON.
    ///
    /// - Parameters:
    ///   - object: The answer.
    ///   - messageVersion: The transaction's message version (the AReq's).
    ///   - requestorAppURL: The app URL to pass to the challenge.
    /// - Returns: The response.
    /// - Throws: ``ThreeDS2Error`` with code `runtime` naming the field that breaks a rule.
    public static func response(
        from object: JSONObject, messageVersion: MessageVersion, requestorAppURL: String?
    ) throws(ThreeDS2Error) -> AuthenticationResponse {
        let audit = AuthenticationResponseRules.audit(object, version: messageVersion)
        if let first = audit.first {
            switch first.rule {
            case .aresTransStatusMissing:
                throw ThreeDS2Error(.runtime, "the 3DS Server's answer has no transStatus")
            case .aresFieldMissing:
                let missing = audit.findings.filter { $0.rule == .aresFieldMissing }.map(\.field)
                throw ThreeDS2Error(
                    .runtime, "the 3DS Server asked for a challenge without \(missing.joined(separator: ", "))")
            default:
                throw ThreeDS2Error(
                    .runtime,
                    "the 3DS Server's answer is not a valid ARes of \(messageVersion): \(first.explanation)"
                        + (first.value.map { " (got \($0))" } ?? ""))
            }
        }
        var challenge: ChallengeParameters?
        let status = TransactionStatus(rawValue: object["transStatus"]?.stringValue ?? "")
        if status == .challengeRequired, let server = object["threeDSServerTransID"]?.stringValue,
            let acs = object["acsTransID"]?.stringValue, let reference = object["acsReferenceNumber"]?.stringValue,
            let signed = object["acsSignedContent"]?.stringValue
        {
            challenge = ChallengeParameters(
                threeDSServerTransactionID: server, acsTransactionID: acs, acsRefNumber: reference,
                acsSignedContent: signed,
                threeDSRequestorAppURL: requestorAppURL)
        }
        return AuthenticationResponse(json: object, transStatus: status, challengeParameters: challenge)
    }
}
