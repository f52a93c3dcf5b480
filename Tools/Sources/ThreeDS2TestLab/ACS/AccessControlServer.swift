import Crypto
import Foundation
@_spi(ThreeDS2Tools) import ThreeDS2ACSKit
public import ThreeDS2JOSE
@_spi(ThreeDS2Tools) public import ThreeDS2Messages

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
    /// Each RReq the ACS sent through the DS (normally exactly one per challenge), as sent.
    public var resultsRequests: [JSONObject] = []
    /// The 3DS Server's answer to each (an RRes or an Erro), in the same order.
    public var resultsAnswers: [JSONObject] = []
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

/// The TestLab ACS: keeps one state per challenge, opens CReqs and seals CRes messages through its ``ACSChannel``,
/// answers per scenario, and injects the scripted faults.
actor AccessControlServer {
    struct Challenge {
        var record: ACSRecord
        /// The channel: keys, counters, identifiers.
        var channel: ACSChannel
        var wrongAttempts = 0
        var step = 0
        var finished = false
        /// The last CRes sent, as sent: the next CReq answers it.
        var lastScreen: JSONObject?
        /// The UI type of the last screen sent, if the last CRes showed one.
        var lastUIType: UIType?
        /// Whether the first CReq said the SDK can open the bank's app (`oobAppURLInd` `01`, 2.3.1).
        var opensOOBApps = false
        /// The Bridging version the first CReq announced (2.2.0), answered in the same version.
        var bridgingVersion: Bridging.Version?
        /// The fault profile whose patches each CRes gets before it is encrypted (`threeds conform`'s tests).
        var faultProfile: ACSFaultProfile?
        /// The DS transaction ID the RReq carries.
        var dsTransID = ""
        /// The bank's app's decision (`POST /acs/oob-decision`), answered in the next final CRes.
        var bankDecision: TransactionStatus?
        /// The cardholder's answer to the trust question, for the RReq.
        var trustAnswer: TrustListStatus?
        /// Whether this is a decoupled authentication (ARes `D`): no CReq comes; the bank's app decides, and the RReq
        /// says decoupled.
        var isDecoupled = false
        /// Whether the RReq was sent.
        var resultsSent = false
        /// The ACS's timeout: the running timer and its generation (a newer one replaces it).
        var timer: Task<Void, Never>?
        var timerGeneration = 0

        var identifiers: TransactionIdentifiers { channel.identifiers }
    }

    /// One state per challenge, bounded and expiring (``TestLabOptions/maxTransactions``,
    /// ``TestLabOptions/transactionLifetime``).
    var challenges: ExpiringStore<String, Challenge>
    let options: TestLabOptions
    let imageBase: String?
    /// The DS the RReq goes through: it passes the bytes to the 3DS Server and returns its answer.
    let directoryServer: @Sendable ([UInt8]) -> [UInt8]

    init(options: TestLabOptions, imageBase: String?, directoryServer: @escaping @Sendable ([UInt8]) -> [UInt8]) {
        self.directoryServer = directoryServer
        self.options = options
        self.imageBase = imageBase
        challenges = ExpiringStore(capacity: options.maxTransactions, lifetime: options.transactionLifetime)
    }

    /// How many challenges the ACS holds state for.
    var transactionCount: Int {
        challenges.prune()
        return challenges.count
    }

    /// Registers a challenge; returns its channel, whose ACS key the signed content carries.
    func register(
        identifiers: TransactionIdentifiers, scenario: Scenario, messageVersion: MessageVersion,
        sdkEphemeralKey: P256PublicJWK, sdkReferenceNumber: String, faultProfile: ACSFaultProfile? = nil,
        dsTransID: String = ""
    ) throws -> ACSChannel {
        let channel = try ACSChannel(
            identifiers: identifiers, messageVersion: messageVersion, sdkEphemeralPublicKey: sdkEphemeralKey,
            sdkReferenceNumber: sdkReferenceNumber)
        challenges.insert(
            Challenge(
                record: ACSRecord(scenario: scenario, messageVersion: messageVersion), channel: channel,
                faultProfile: faultProfile, dsTransID: dsTransID),
            for: identifiers.acsTransID)
        if var challenge = challenges[identifiers.acsTransID] {
            armTimer(&challenge, firstRequest: true)
            challenges[identifiers.acsTransID] = challenge
        }
        return channel
    }

    /// Transaction IDs are looked up exactly as issued: an SDK that changes their case is not recognised.
    func record(_ acsTransID: String) -> ACSRecord? { challenges[acsTransID]?.record }

    /// The channel's derived key (tests only, through ``TestLab/channelKeyForTests(acsTransID:)``).
    func channelKey(_ acsTransID: String) -> [UInt8]? {
        challenges[acsTransID]?.channel.channelKeysForTests.derivedKey.withUnsafeBytes { Array($0) }
    }

    func handle(body: [UInt8], contentType: String?) -> ACSReply {
        // Read by its bytes as the SDK reads the ACS's answers (``ChallengeChannelBody``), whatever its label: plain
        // JSON is an Erro or nothing this ACS takes; a CReq is a JWE.
        if ChallengeChannelBody(body).isPlainJSON { return takeError(body) }
        let text = String(decoding: body, as: UTF8.self)
        guard let kid = ACSChannel.keyID(of: text), var challenge = challenges[kid] else {
            return ACSReply(status: 400, contentType: "text/plain", body: Array("unknown transaction".utf8))
        }
        defer { challenges[kid] = challenge }
        challenge.record.capturedRequests.append(text)
        let request: ACSChannel.Request
        do {
            request = try challenge.channel.decrypt(text)
        } catch {
            challenge.record.unreadable.append("\(error)")
            return erro(&challenge, code: .decryptionFailure, detail: "CReq could not be decrypted")
        }
        challenge.record.requests.append(request.message)
        challenge.record.requestHeaders.append(request.header)
        do {
            try challenge.channel.acceptCounter(of: request.message)
        } catch {
            return erro(&challenge, code: error.code, detail: error.detail)
        }
        let creq: ReceivedChallengeRequest
        do {
            creq = try RequestCheck(version: challenge.record.messageVersion, previous: challenge.lastScreen)
                .check(request.message)
        } catch {
            challenge.record.refusals.append(ACSRefusal(code: error.code, field: error.detail))
            challenge.finished = true
            return erro(&challenge, code: error.code, detail: error.detail)
        }
        return reply(to: creq, challenge: &challenge, encryption: options.responseEncryption ?? request.encryption)
    }

    /// A plain Erro from the SDK: recorded when it names a challenge of this ACS.
    private func takeError(_ body: [UInt8]) -> ACSReply {
        if let object = ACSChannel.errorMessage(in: body), let id = object["acsTransID"]?.stringValue,
            challenges[id] != nil
        {
            challenges[id]?.record.errors.append(object)
            challenges[id]?.finished = true
            if var challenge = challenges[id] {
                sendResults(&challenge, ending: .sdkError(object))
                challenges[id] = challenge
            }
            return ACSReply(status: 200, contentType: "text/plain", body: [])
        }
        return ACSReply(status: 400, contentType: "text/plain", body: Array("not an Erro".utf8))
    }

    private func erro(
        _ challenge: inout Challenge, code: ProtocolErrorCode, detail: String, description: String? = nil
    ) -> ACSReply {
        let message = ErrorMessage(
            errorCode: code, errorComponent: .acs, errorDescription: description ?? code.standardDescription ?? "",
            errorDetail: detail, errorMessageType: .challengeRequest,
            messageVersion: challenge.record.messageVersion.rawValue,
            threeDSServerTransID: challenge.identifiers.threeDSServerTransID,
            acsTransID: challenge.identifiers.acsTransID, sdkTransID: challenge.identifiers.sdkTransID)
        sendResults(&challenge, ending: .acsError(message))
        return ACSReply(status: 200, contentType: "application/json; charset=UTF-8", body: message.json.serializedBytes)
    }

    private func reply(
        to request: ReceivedChallengeRequest, challenge: inout Challenge, encryption: ContentEncryption
    ) -> ACSReply {
        let scenario = challenge.record.scenario
        let first = challenge.step == 0
        challenge.step += 1
        if first, scenario == .faultErro {
            return erro(
                &challenge, code: .transactionDataNotValid, detail: "the TestLab ACS refuses this card",
                description: "Transaction Data Not Valid")
        }
        noteTrustAnswer(request, challenge: &challenge)
        let content = challengeContent(to: request, challenge: &challenge)
        var response = challenge.channel.response(content)
        var reply = ACSReply(status: 200, contentType: "application/jose; charset=UTF-8", body: [])
        if first, let fault = scenario.firstResponseFault { response = response.patched(fault) }
        if first, scenario == .faultSlow { reply.delay = options.slowResponseDelay }
        challenge.lastScreen = response.json
        switch content {
        case .screen(let screen):
            challenge.lastUIType = screen.uiType
            armTimer(&challenge, firstRequest: false)
        case .final(let status):
            challenge.lastUIType = nil
            challenge.record.finalStatus = status.rawValue
            challenge.finished = true
            // The RReq goes before the final CRes (results reference section 1).
            let cancelled = request.action?.isCancel == true
            sendResults(&challenge, ending: .final(status, cancelled: cancelled))
        }
        // The fault profile's hook (`threeds conform`'s tests): its patches, through the builder's raw-patch step.
        if let profile = challenge.faultProfile {
            let isFinal = if case .final = content { true } else { false }
            let patches = profile.patches(
                response: challenge.step, isFinal: isFinal, version: challenge.record.messageVersion)
            for patch in patches { response = response.patched(patch) }
        }
        do {
            var compact = try challenge.channel.encrypt(response, encryption: encryption)
            if first, scenario == .faultBadTag { compact = try Self.flippingTagBit(compact) }
            reply.body = Array(compact.utf8)
            let version = challenge.record.messageVersion
            if first, let fault = challenge.faultProfile?.rawFaults[version], fault.actsOnResponse {
                var channel = challenge.channel
                reply.body = try fault.body(compact, json: response.json) {
                    try channel.encrypt(bytes: $0, encryption: encryption)
                }
                challenge.channel = channel
                compact = String(decoding: reply.body, as: UTF8.self)
            }
            challenge.record.capturedResponses.append(compact)
        } catch {
            return ACSReply(status: 500, contentType: "text/plain", body: Array("CRes encryption failed".utf8))
        }
        return reply
    }

    /// The JWE with one bit of its authentication tag flipped (the bad-tag fault).
    private static func flippingTagBit(_ compact: String) throws -> String {
        var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var tag = try Base64.urlDecode(parts[4])
        tag[0] ^= 0x01
        parts[4] = Base64.urlEncode(tag)
        return parts.joined(separator: ".")
    }
}
