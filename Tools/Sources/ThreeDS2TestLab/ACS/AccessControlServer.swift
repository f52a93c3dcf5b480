import Crypto
import Foundation
public import ThreeDS2JOSE
public import ThreeDS2Messages

/// What the TestLab ACS saw of one challenge: every CReq decrypted, their JWE headers, the Erros the SDK sent.
public struct ACSRecord: Sendable {
    /// The scenario.
    public var scenario: Scenario
    /// The transaction's message version.
    public var messageVersion: MessageVersion
    /// The decrypted CReqs, in order.
    public var requests: [JSONObject] = []
    /// The protected headers of the CReq JWEs.
    public var requestHeaders: [JSONObject] = []
    /// Erro messages the SDK posted.
    public var errors: [JSONObject] = []
    /// Bodies the ACS could not read (for fault tests: an SDK must never send these).
    public var unreadable: [String] = []
    /// CReqs the ACS refused as a conforming ACS would (the Erro code and the field at fault); an SDK must never
    /// cause one.
    public var refusals: [ACSRefusal] = []
    /// The `transStatus` of the final CRes, once sent.
    public var finalStatus: String?
    /// Each CReq body as received (the JWE compact serialization), as a capture on the wire shows it.
    public var capturedRequests: [String] = []
    /// Each encrypted CRes body as sent.
    public var capturedResponses: [String] = []
}

/// A CReq the TestLab ACS refused: the Erro code it answered with and the field at fault.
public struct ACSRefusal: Sendable, Hashable {
    /// The error code (201, 203, 207).
    public let code: ProtocolErrorCode
    /// The field at fault.
    public let field: String
}

/// A reply of the ACS endpoint.
struct ACSReply: Sendable {
    var status: Int
    var contentType: String
    var body: [UInt8]
    var delay: Duration = .zero
}

/// The TestLab ACS: keeps one state per challenge, decrypts CReqs with the channel key, answers per scenario, and
/// injects the scripted faults.
actor AccessControlServer {
    struct Challenge {
        var record: ACSRecord
        let identifiers: TransactionIdentifiers
        let keys: ChannelKeys
        var expectedCounter = 0
        var acsCounter = 0
        var wrongAttempts = 0
        var step = 0
        var finished = false
        /// The last CRes sent: the next CReq answers it.
        var lastScreen: JSONObject?
        /// Whether the first CReq said the SDK can open the bank's app (`oobAppURLInd` `01`, 2.3.1).
        var opensOOBApps = false
        /// The Bridging version the first CReq announced (2.2.0), answered in the same version.
        var bridgingVersion: String?
    }

    /// One state per challenge, bounded and expiring (``TestLabOptions/maxTransactions``,
    /// ``TestLabOptions/transactionLifetime``).
    private var challenges: ExpiringStore<String, Challenge>
    let options: TestLabOptions
    let imageBase: String?

    init(options: TestLabOptions, imageBase: String?) {
        self.options = options
        self.imageBase = imageBase
        challenges = ExpiringStore(capacity: options.maxTransactions, lifetime: options.transactionLifetime)
    }

    /// How many challenges the ACS holds state for.
    var transactionCount: Int {
        challenges.prune()
        return challenges.count
    }

    /// Registers a challenge; returns the ACS ephemeral public key.
    func register(
        identifiers: TransactionIdentifiers, scenario: Scenario, messageVersion: MessageVersion,
        sdkEphemeralKey: P256PublicJWK,
        sdkReferenceNumber: String
    ) throws -> P256.KeyAgreement.PublicKey {
        let ephemeral = P256.KeyAgreement.PrivateKey.ephemeral()
        let secret = try ephemeral.sharedSecretFromKeyAgreement(with: sdkEphemeralKey.keyAgreementKey).withUnsafeBytes {
            Array($0)
        }
        challenges.insert(
            Challenge(
                record: ACSRecord(scenario: scenario, messageVersion: messageVersion), identifiers: identifiers,
                keys: ChannelKeys(sharedSecret: secret, sdkReferenceNumber: sdkReferenceNumber)),
            for: identifiers.acsTransID)
        return ephemeral.publicKey
    }

    /// Transaction IDs are looked up exactly as issued: an SDK that changes their case is not recognised.
    func record(_ acsTransID: String) -> ACSRecord? { challenges[acsTransID]?.record }

    func handle(body: [UInt8], contentType: String?) -> ACSReply {
        let text = String(decoding: body, as: UTF8.self)
        if contentType?.lowercased().contains("json") == true || body.first == UInt8(ascii: "{") {
            // A plain Erro from the SDK: record it.
            if case .object(let object)? = try? JSONParser().parse(body), MessageType(in: object) == .error,
                let id = object["acsTransID"]?.stringValue, challenges[id] != nil
            {
                challenges[id]?.record.errors.append(object)
                challenges[id]?.finished = true
                return ACSReply(status: 200, contentType: "text/plain", body: [])
            }
            return ACSReply(status: 400, contentType: "text/plain", body: Array("not an Erro".utf8))
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, let headerBytes = try? Base64.urlDecode(parts[0]),
            case .object(let header)? = try? JSONParser().parse(headerBytes),
            let kid = header["kid"]?.stringValue,
            var challenge = challenges[kid]
        else {
            return ACSReply(status: 400, contentType: "text/plain", body: Array("unknown transaction".utf8))
        }
        defer { challenges[kid] = challenge }
        challenge.record.capturedRequests.append(text)
        let request: JSONObject
        do {
            let plaintext = try JWE.decrypt(
                text, using: .direct(challenge.keys.sdkToACSKeys),
                expecting: .init(keyID: .exactly(kid))
            ).plaintext
            guard case .object(let object) = try JSONParser().parse(plaintext) else {
                throw JOSEError(.malformedJSON, "not an object")
            }
            request = object
        } catch {
            challenge.record.unreadable.append("\(error)")
            return erro(
                challenge, code: .decryptionFailure, description: "Data Decryption Failure",
                detail: "CReq could not be decrypted")
        }
        challenge.record.requests.append(request)
        challenge.record.requestHeaders.append(header)
        guard request["sdkCounterStoA"] == .string(ChallengeRequestBuilder.counterText(challenge.expectedCounter))
        else {
            return erro(
                challenge, code: .decryptionFailure, description: "Data Decryption Failure", detail: "sdkCounterStoA")
        }
        challenge.expectedCounter += 1
        do {
            try RequestCheck(version: challenge.record.messageVersion, previous: challenge.lastScreen).check(request)
        } catch {
            challenge.record.refusals.append(ACSRefusal(code: error.code, field: error.detail))
            challenge.finished = true
            return erro(
                challenge, code: error.code, description: error.code.standardDescription ?? "", detail: error.detail)
        }
        let requestEncryption = ContentEncryption(rawValue: header["enc"]?.stringValue ?? "") ?? .a128cbcHS256
        return reply(to: request, challenge: &challenge, encryption: options.responseEncryption ?? requestEncryption)
    }

    private func erro(_ challenge: Challenge, code: ProtocolErrorCode, description: String, detail: String)
        -> ACSReply
    {
        let message = ErrorMessage(
            errorCode: code, errorComponent: .acs, errorDescription: description, errorDetail: detail,
            errorMessageType: .challengeRequest,
            messageVersion: challenge.record.messageVersion.rawValue,
            threeDSServerTransID: challenge.identifiers.threeDSServerTransID,
            acsTransID: challenge.identifiers.acsTransID, sdkTransID: challenge.identifiers.sdkTransID)
        return ACSReply(status: 200, contentType: "application/json; charset=UTF-8", body: message.json.serializedBytes)
    }

    private func reply(to request: JSONObject, challenge: inout Challenge, encryption: ContentEncryption) -> ACSReply {
        let scenario = challenge.record.scenario
        let first = challenge.step == 0
        challenge.step += 1
        if first, scenario == .faultErro {
            return erro(
                challenge, code: ProtocolErrorCode(rawValue: "305"), description: "Transaction Data Not Valid",
                detail: "the TestLab ACS refuses this card")
        }
        var content = ScenarioScript.response(to: request, challenge: &challenge, imageBase: imageBase)
        var reply = ACSReply(status: 200, contentType: "application/jose; charset=UTF-8", body: [])
        var flipTag = false
        if first {
            switch scenario {
            case .faultBadTag: flipTag = true
            case .faultWrongCounter: content["acsCounterAtoS"] = .string("007")
            case .faultWrongTransactionID: content["sdkTransID"] = .string(UUID().uuidString.lowercased())
            case .faultMissingField: content["challengeInfoHeader"] = nil
            case .faultCriticalExtension:
                content["messageExtension"] = .array([
                    .object([
                        "name": .string("TestLabCritical"), "id": .string("A999999999-001"),
                        "criticalityIndicator": .bool(true), "data": .object([:]),
                    ])
                ])
            case .faultSlow: reply.delay = options.slowResponseDelay
            default: break
            }
        }
        challenge.lastScreen = content
        if content["challengeCompletionInd"] == .string("Y") {
            challenge.record.finalStatus = content["transStatus"]?.stringValue
            challenge.finished = true
        }
        do {
            let iv = ChannelKeys.counterIV(challenge.acsCounter, encryption: encryption, fromSDK: false)
            var compact = try JWE.encrypt(
                content.serializedBytes, to: .direct(challenge.keys.acsToSDK(encryption)),
                encryption: encryption,
                keyID: challenge.identifiers.acsTransID, iv: iv)
            if flipTag {
                var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                var tag = try Base64.urlDecode(parts[4])
                tag[0] ^= 0x01
                parts[4] = Base64.urlEncode(tag)
                compact = parts.joined(separator: ".")
            }
            reply.body = Array(compact.utf8)
            challenge.record.capturedResponses.append(compact)
        } catch {
            return ACSReply(status: 500, contentType: "text/plain", body: Array("CRes encryption failed".utf8))
        }
        challenge.acsCounter += 1
        return reply
    }
}
