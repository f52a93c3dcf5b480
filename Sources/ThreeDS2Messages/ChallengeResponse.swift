import Foundation
public import ThreeDS2JOSE

/// What a CRes said, after validation.
public enum ChallengeResponse: Sendable, Hashable {
    /// A screen to show; the challenge goes on.
    case screen(ChallengeScreen)
    /// The final CRes with the transaction status (`Y` or `N`; `D` too from 2.3.1).
    case final(transStatus: TransactionStatus)
}

/// What the SDK expects of the next CRes.
public struct ChallengeResponseExpectation: Sendable, Hashable {
    /// The transaction identifiers every CRes must carry.
    public var identifiers: TransactionIdentifiers
    /// The message version of the transaction.
    public var messageVersion: MessageVersion
    /// The expected `acsCounterAtoS`, 0…255.
    public var acsCounter: Int
    /// IDs of the message extensions the SDK recognises.
    public var recognisedExtensions: Set<String>
    /// Whether the CReq said the SDK can open the bank's app (`oobAppURLInd` `01`): only then may a 2.3.1 CRes carry
    /// `oobAppURL` / `oobAppLabel`.
    public var opensOOBApps: Bool
    /// Whether the CReqs announced Bridging (2.2.0): only then is a CRes's Bridging app link offered.
    public var announcedBridging: Bool

    /// Creates the expectation.
    public init(
        identifiers: TransactionIdentifiers, messageVersion: MessageVersion, acsCounter: Int,
        recognisedExtensions: Set<String> = [], opensOOBApps: Bool = false, announcedBridging: Bool = false
    ) {
        self.announcedBridging = announcedBridging
        self.identifiers = identifiers
        self.messageVersion = messageVersion
        self.acsCounter = acsCounter
        self.recognisedExtensions = recognisedExtensions
        self.opensOOBApps = opensOOBApps
    }
}

/// Validates a decrypted CRes (protocol reference §3–§4). Unknown non-critical fields are ignored, in a final CRes
/// too: real ACSs send extras, and rejecting them has failed live payments.
public enum ChallengeResponseValidator {
    /// Validates a CRes JSON object.
    ///
    /// - Parameters:
    ///   - object: The decrypted CRes.
    ///   - expectation: The identifiers, version and counter expected.
    /// - Returns: The screen or the final status.
    /// - Throws: ``ProtocolViolation`` with the error code and the data element concerned.
    public static func validate(_ object: JSONObject, expecting expectation: ChallengeResponseExpectation)
        throws(ProtocolViolation)
        -> ChallengeResponse
    {
        let reader = FieldReader(object: object)
        guard let messageType = try reader.string("messageType") else { throw .missing("messageType") }
        guard MessageType(rawValue: messageType) == .challengeResponse else {
            throw ProtocolViolation(
                .messageReceivedInvalid, detail: "messageType",
                explanation: "CRes field `messageType` was \(messageType), expected CRes")
        }
        for name in [
            "threeDSServerTransID", "acsTransID", "sdkTransID", "acsCounterAtoS", "messageVersion",
            "challengeCompletionInd",
        ]
        where object[name] == nil || object[name] == .string("") || object[name] == .null {
            throw .missing(name)
        }
        let ids = expectation.identifiers
        for (name, expected) in [
            ("threeDSServerTransID", ids.threeDSServerTransID), ("acsTransID", ids.acsTransID),
            ("sdkTransID", ids.sdkTransID),
        ] {
            let value = try reader.string(name) ?? ""
            guard TransactionIdentifiers.hasUUIDShape(value) else { throw .invalid(name, "is not a UUID") }
            // The UUID shape is checked in any case; the value must be the one sent, byte for byte.
            guard value.utf8.elementsEqual(expected.utf8) else {
                throw ProtocolViolation(
                    .transactionIDNotRecognised, detail: name,
                    explanation: "CRes field `\(name)` was \(value), expected \(expected)")
            }
        }
        let version = try reader.string("messageVersion") ?? ""
        guard version == expectation.messageVersion.rawValue else {
            // Table A.4 files a version that differs from the transaction's under 203 (GuavaPay does the same).
            throw .invalid("messageVersion", "was \(version), expected \(expectation.messageVersion)")
        }
        let counter = try reader.string("acsCounterAtoS") ?? ""
        guard counter.count == 3, counter.allSatisfy(\.isASCIIDigit), let counterValue = Int(counter),
            counterValue <= 255
        else {
            throw .invalid("acsCounterAtoS", "was \(counter), expected three digits")
        }
        guard counterValue == expectation.acsCounter else {
            throw ProtocolViolation(
                .decryptionFailure, detail: "acsCounterAtoS",
                explanation:
                    "CRes field `acsCounterAtoS` was \(counter), expected \(ChallengeRequestBuilder.counterText(expectation.acsCounter))"
            )
        }
        let completion = try reader.string("challengeCompletionInd") ?? ""
        guard completion == "Y" || completion == "N" else {
            throw .invalid("challengeCompletionInd", "was \(completion), expected Y or N")
        }
        // Bridging is recognised in 2.2.0, so a CRes marking it critical is processed; elsewhere it is one more
        // extension (ignored, or 202 when critical).
        try validateExtensions(
            object["messageExtension"],
            recognised: expectation.recognisedExtensions.union(
                expectation.messageVersion.carriesBridging ? [Bridging.id] : []),
            max: expectation.messageVersion.maxMessageExtensions)

        if completion == "Y" {
            guard let letter = try reader.string("transStatus"), !letter.isEmpty else { throw .missing("transStatus") }
            let status = TransactionStatus(rawValue: letter)
            // 2.3.1(.1) adds D (decoupled, Table A.17): whether the AReq asked for it is the 3DS Server's business,
            // which the SDK cannot see, so D is passed on; any other value is 203 (as certified SDKs answer).
            let allowed: [TransactionStatus] =
                expectation.messageVersion.allowsDecoupledFinalStatus
                ? [.authenticated, .notAuthenticated, .decoupled] : [.authenticated, .notAuthenticated]
            guard allowed.contains(status) else {
                throw .invalid(
                    "transStatus",
                    "was \(letter); a final CRes may carry only \(allowed.map(\.rawValue).joined(separator: ", "))")
            }
            return .final(transStatus: status)
        }
        return .screen(try screen(reader, expectation: expectation))
    }

    private static func validateExtensions(_ value: JSONValue?, recognised: Set<String>, max: Int)
        throws(ProtocolViolation)
    {
        guard let value else { return }
        guard case .array(let extensions) = value else { throw .invalid("messageExtension", "is not an array") }
        guard extensions.count <= max else {
            throw .invalid("messageExtension", "has \(extensions.count) entries; at most \(max)")
        }
        guard PeerText.fits(value.serialized, max: 81_920) else {
            throw .invalid("messageExtension", "is longer than 81920 characters")
        }
        var unrecognisedCritical: [String] = []
        for element in extensions {
            guard case .object(let ext) = element,
                case .string(let name)? = ext["name"], !name.isEmpty, PeerText.fits(name, max: 64),
                case .string(let id)? = ext["id"], !id.isEmpty, PeerText.fits(id, max: 64),
                case .bool(let critical)? = ext["criticalityIndicator"],
                case .object(let data)? = ext["data"], PeerText.fits(JSONValue.object(data).serialized, max: 8059)
            else {
                throw .invalid(
                    "messageExtension", "has an entry without a valid name, id, criticalityIndicator and data")
            }
            if critical, !recognised.contains(id) { unrecognisedCritical.append(id) }
        }
        if !unrecognisedCritical.isEmpty {
            throw ProtocolViolation(
                .criticalExtensionNotRecognised, detail: unrecognisedCritical.joined(separator: ","),
                explanation:
                    "CRes carries critical message extensions the SDK does not recognise: \(unrecognisedCritical.joined(separator: ", "))"
            )
        }
    }

    /// Whether a text is an absolute https URL with a host and no user information: the rule for every link a CRes
    /// carries, and for the 2.3.1 `threeDSRequestorAppURL`. A link such as `https://bank.example@evil.example/` names
    /// its real host after the `@`; no bank's link needs user information, so it is refused (issue 34).
    ///
    /// - Parameter text: The URL as written.
    /// - Returns: `true` for `https://host…` (any case of the scheme) without `user@` or `user:password@`.
    public static func isHTTPSURL(_ text: String) -> Bool {
        guard let url = URL(string: text), url.user == nil, url.password == nil else { return false }
        return url.isHTTPSWithHost
    }
}
