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
///
/// The checks are written once: ``validate(_:expecting:)`` (the SDK's path) stops at the first violation and throws
/// it; ``audit(_:expecting:strict:)`` runs the same checks and reports every violation under its ``ConformanceRule``.
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
        guard let response = try read(object, expectation, CResRecorder.stoppingAtFirst()) else {
            // Not reached: the reader gives up only after recording a violation, which this recorder throws.
            throw ProtocolViolation(.messageReceivedInvalid, detail: "CRes")
        }
        return response
    }

    /// Audits a CRes: every rule it breaks, in the order the SDK checks them. The first finding is the violation
    /// ``validate(_:expecting:)`` throws, with the same code and detail.
    ///
    /// - Parameters:
    ///   - object: The decrypted CRes.
    ///   - expectation: The identifiers, version and counter expected.
    ///   - strict: Whether the rules the SDK tolerates (``ConformanceRule/tolerance``) are reported too: the
    ///     specification's letter. A strict audit's first finding may be one the SDK accepts.
    /// - Returns: The findings, and the screen or final status when there are none.
    public static func audit(
        _ object: JSONObject, expecting expectation: ChallengeResponseExpectation, strict: Bool = false
    ) -> ConformanceAudit<ChallengeResponse> {
        let recorder = CResRecorder(strict: strict)
        let response = try? read(object, expectation, recorder)
        return ConformanceAudit(findings: recorder.findings, reading: response ?? nil)
    }

    /// The checks, in the order the SDK applies them; `nil` when a violation leaves nothing to read.
    static func read(_ object: JSONObject, _ expectation: ChallengeResponseExpectation, _ recorder: CResRecorder)
        throws(ProtocolViolation) -> ChallengeResponse?
    {
        let reader = FieldReader(object: object, recorder: recorder)
        try checkEnvelope(reader, expectation)
        let completion = try reader.string("challengeCompletionInd") ?? ""
        let completionIndicator = YesNoIndicator(rawValue: completion)
        let knownCompletion = completionIndicator != nil
        if !knownCompletion, !recorder.hasFinding(for: "challengeCompletionInd") {
            try recorder.invalid(
                .completionIndicatorValue, "challengeCompletionInd", "was \(completion), expected Y or N",
                seen: .string(completion))
        }
        // Bridging is recognised in 2.2.0, so a CRes marking it critical is processed; elsewhere it is one more
        // extension (ignored, or 202 when critical).
        try validateExtensions(
            reader,
            recognised: expectation.recognisedExtensions.union(
                expectation.messageVersion.carriesBridging ? [Bridging.id] : []),
            max: expectation.messageVersion.maxMessageExtensions)
        guard knownCompletion else { return nil }
        if completionIndicator == .yes {
            let status = try finalStatus(reader, expectation.messageVersion)
            try checkFinalCarriesNoScreen(reader)
            return status
        }
        return try screen(reader, expectation: expectation).map(ChallengeResponse.screen)
    }

    /// The fields every CRes carries: type, presence, transaction IDs, version and counter.
    private static func checkEnvelope(_ reader: FieldReader, _ expectation: ChallengeResponseExpectation)
        throws(ProtocolViolation)
    {
        let object = reader.object
        let recorder = reader.recorder
        if let messageType = try reader.string("messageType") {
            if MessageType(rawValue: messageType) != .challengeResponse {
                try recorder.record(
                    ConformanceFinding(
                        rule: .messageTypeNotCRes, field: "messageType", value: messageType,
                        explanation: "CRes field `messageType` was \(messageType), expected CRes"),
                    file: #fileID, line: #line)
            }
        } else if !recorder.hasFinding(for: "messageType") {
            try recorder.missing(.requiredFieldMissing, "messageType")
        }
        for name in [
            "threeDSServerTransID", "acsTransID", "sdkTransID", "acsCounterAtoS", "messageVersion",
            "challengeCompletionInd",
        ]
        where object[name] == nil || object[name] == .string("") || object[name] == .null {
            try recorder.missing(.requiredFieldMissing, name)
        }
        try checkIdentifiers(reader, expectation.identifiers)
        let version = try reader.string("messageVersion") ?? ""
        if version != expectation.messageVersion.rawValue {
            // Table A.4 files a version that differs from the transaction's under 203 (GuavaPay does the same).
            try recorder.invalid(
                .messageVersionMismatch, "messageVersion", "was \(version), expected \(expectation.messageVersion)",
                seen: .string(version), requirement: "\(expectation.messageVersion), the transaction's version")
        }
        try checkCounter(reader, expected: expectation.acsCounter)
    }

    private static func checkIdentifiers(_ reader: FieldReader, _ ids: TransactionIdentifiers)
        throws(ProtocolViolation)
    {
        for (name, expected) in [
            ("threeDSServerTransID", ids.threeDSServerTransID), ("acsTransID", ids.acsTransID),
            ("sdkTransID", ids.sdkTransID),
        ] {
            let value = try reader.string(name) ?? ""
            guard TransactionIdentifiers.hasUUIDShape(value) else {
                try reader.recorder.invalid(.transactionIDNotUUID, name, "is not a UUID", seen: .string(value))
                continue
            }
            // The UUID shape is checked in any case; the value must be the one sent, byte for byte.
            if !value.utf8.elementsEqual(expected.utf8) {
                try reader.recorder.record(
                    ConformanceFinding(
                        rule: .transactionIDMismatch, field: name, value: value,
                        requirement: "\(expected), the transaction's ID",
                        explanation: "CRes field `\(name)` was \(value), expected \(expected)"),
                    file: #fileID, line: #line)
            }
        }
    }

    private static func checkCounter(_ reader: FieldReader, expected: Int) throws(ProtocolViolation) {
        let counter = try reader.string("acsCounterAtoS") ?? ""
        guard counter.count == 3, counter.allSatisfy(\.isASCIIDigit), let counterValue = Int(counter),
            counterValue <= 255
        else {
            try reader.recorder.invalid(
                .counterFormat, "acsCounterAtoS", "was \(counter), expected three digits", seen: .string(counter))
            return
        }
        if counterValue != expected {
            let text = ChallengeRequestBuilder.counterText(expected)
            try reader.recorder.record(
                ConformanceFinding(
                    rule: .counterMismatch, field: "acsCounterAtoS", value: counter, requirement: text,
                    explanation: "CRes field `acsCounterAtoS` was \(counter), expected \(text)"),
                file: #fileID, line: #line)
        }
    }

    /// A final CRes: its `transStatus`.
    private static func finalStatus(_ reader: FieldReader, _ version: MessageVersion) throws(ProtocolViolation)
        -> ChallengeResponse?
    {
        guard let letter = try reader.string("transStatus"), !letter.isEmpty else {
            if !reader.recorder.hasFinding(for: "transStatus") {
                try reader.recorder.missing(.transStatusMissing, "transStatus")
            }
            return nil
        }
        let status = TransactionStatus(rawValue: letter)
        // 2.3.1(.1) adds D (decoupled, Table A.17): whether the AReq asked for it is the 3DS Server's business,
        // which the SDK cannot see, so D is passed on; any other value is 203 (as certified SDKs answer).
        let allowed: [TransactionStatus] =
            version.allowsDecoupledFinalStatus
            ? [.authenticated, .notAuthenticated, .decoupled] : [.authenticated, .notAuthenticated]
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        guard allowed.contains(status) else {
            try reader.recorder.invalid(
                .transStatusValue, "transStatus", "was \(letter); a final CRes may carry only \(list)",
                seen: .string(letter), requirement: "one of \(list) in a final \(version) CRes")
            return nil
        }
        return .final(transStatus: status)
    }

    private static func validateExtensions(_ reader: FieldReader, recognised: Set<String>, max: Int)
        throws(ProtocolViolation)
    {
        let recorder = reader.recorder
        guard let value = reader.object["messageExtension"] else { return }
        guard case .array(let extensions) = value else {
            return try recorder.invalid(.extensionNotArray, "messageExtension", "is not an array", seen: value)
        }
        guard extensions.count <= max else {
            return try recorder.invalid(
                .extensionTooMany, "messageExtension", "has \(extensions.count) entries; at most \(max)",
                seen: value, requirement: "at most \(max) entries")
        }
        guard PeerText.fits(value.serialized, max: 81_920) else {
            return try recorder.invalid(
                .extensionTooLong, "messageExtension", "is longer than 81920 characters", seen: value)
        }
        var unrecognisedCritical: [String] = []
        for element in extensions {
            guard case .object(let ext) = element,
                case .string(let name)? = ext["name"], !name.isEmpty, PeerText.fits(name, max: 64),
                case .string(let id)? = ext["id"], !id.isEmpty, PeerText.fits(id, max: 64),
                case .bool(let critical)? = ext["criticalityIndicator"],
                case .object(let data)? = ext["data"], PeerText.fits(JSONValue.object(data).serialized, max: 8059)
            else {
                return try recorder.invalid(
                    .extensionEntryMalformed, "messageExtension",
                    "has an entry without a valid name, id, criticalityIndicator and data", seen: element)
            }
            if critical, !recognised.contains(id) { unrecognisedCritical.append(id) }
        }
        if !unrecognisedCritical.isEmpty {
            let ids = unrecognisedCritical.joined(separator: ",")
            try recorder.record(
                ConformanceFinding(
                    rule: .extensionCriticalUnrecognised, field: "messageExtension", value: ids, errorDetail: ids,
                    explanation:
                        "CRes carries critical message extensions the SDK does not recognise: "
                        + unrecognisedCritical.joined(separator: ", ")), file: #fileID, line: #line)
        }
    }

    /// Whether a text is an absolute https URL with a host and no user information: the rule for every link a CRes
    /// carries, and for the 2.3.1 `threeDSRequestorAppURL`. A link such as `https://bank.example@evil.example/` names
    /// its real host after the `@`; no bank's link needs user information, so it is refused.
    ///
    /// - Parameter text: The URL as written.
    /// - Returns: `true` for `https://host…` (any case of the scheme) without `user@` or `user:password@`.
    public static func isHTTPSURL(_ text: String) -> Bool {
        guard let url = URL(string: text), url.user == nil, url.password == nil else { return false }
        return url.isHTTPSWithHost
    }
}
