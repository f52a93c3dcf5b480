public import Foundation
public import ThreeDS2JOSE

/// The payload of the ACS signed content (a JWS from the ARes): where the ACS is and its ephemeral key.
public struct ACSSignedContent: Sendable, Hashable {
    /// The ACS URL.
    public let acsURL: String
    /// The ACS ephemeral public key.
    public let acsEphemeralPublicKey: P256PublicJWK
    /// The SDK ephemeral public key the ACS received.
    public let sdkEphemeralPublicKey: P256PublicJWK

    /// Reads the payload. Keys may be JWK objects or strings holding one (both are seen in the field).
    ///
    /// - Parameter payload: The JSON bytes of the JWS payload.
    /// - Throws: A description of what is wrong (the first violation
    ///   ``audit(payload:sdkEphemeralPublicKey:allowsPlainHTTP:)`` reports).
    public init(payload: [UInt8]) throws(JOSEError) {
        let recorder = ViolationRecorder<JOSEError> { finding, file, line in
            let keyMissing = finding.rule == .signedContentACSKeyMissing || finding.rule == .signedContentSDKKeyMissing
            return JOSEError(keyMissing ? .invalidKey : .invalidHeader, finding.rawExplanation, file: file, line: line)
        }
        guard let content = try Self.read(payload, recorder) else {
            // Not reached: the reader gives up only after recording a violation, which this recorder throws.
            throw JOSEError(.invalidHeader, "ACS signed content is malformed")
        }
        self = content
    }

    /// Audits a payload: every rule it breaks, in the order the SDK checks them (the error of ``init(payload:)`` is the
    /// first of the payload's). The audit also checks what the SDK checks before the first CReq: the ACS URL's
    /// scheme and, with the transaction's SDK ephemeral key, that the content names that key. The SDK sends no Erro
    /// for these (``ConformanceRule/errorCode`` is `nil`): it ends the challenge before any CReq.
    ///
    /// - Parameters:
    ///   - payload: The JSON bytes of the JWS payload.
    ///   - sdkEphemeralPublicKey: The SDK's ephemeral public key for the transaction; `nil` leaves the key check
    ///     out.
    ///   - allowsPlainHTTP: Whether an `http` ACS URL is allowed (the SDK allows it only for a loopback host, when its
    ///     configuration says so).
    /// - Returns: The findings, and the content when there are none.
    public static func audit(
        payload: [UInt8], sdkEphemeralPublicKey: P256PublicJWK? = nil, allowsPlainHTTP: (URL) -> Bool = { _ in false }
    ) -> ConformanceAudit<ACSSignedContent> {
        let recorder = ViolationRecorder<JOSEError>()
        let content = try? read(payload, recorder)
        if let content {
            for finding in [
                checkedACSURL(content.acsURL, allowsPlainHTTP: allowsPlainHTTP).failure,
                sdkEphemeralPublicKey.flatMap { content.sdkKeyFinding(expected: $0) },
            ] {
                if let finding { try? recorder.record(finding, file: #fileID, line: #line) }
            }
        }
        return ConformanceAudit(findings: recorder.findings, reading: content ?? nil)
    }

    /// The ACS URL when the SDK may use it: absolute, with a host, and https (plain http when `allowsPlainHTTP`
    /// says so).
    ///
    /// - Parameters:
    ///   - text: The content's `acsURL`.
    ///   - allowsPlainHTTP: Whether an `http` URL is allowed.
    /// - Returns: The URL, or the finding.
    package static func checkedACSURL(_ text: String, allowsPlainHTTP: (URL) -> Bool) -> Result<URL, FirstFinding> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else {
            return .failure(
                FirstFinding(
                    ConformanceFinding(
                        rule: .signedContentACSURLNotAbsolute, field: "acsURL", value: text,
                        explanation: "acsURL is not an absolute URL")))
        }
        guard url.isHTTPSWithHost || (scheme == "http" && allowsPlainHTTP(url)) else {
            return .failure(
                FirstFinding(
                    ConformanceFinding(
                        rule: .signedContentACSURLNotHTTPS, field: "acsURL", value: text,
                        explanation:
                            "acsURL must use https (plain http only on loopback, when the configuration allows it)")))
        }
        return .success(url)
    }

    /// Whether the content names the SDK's ephemeral key.
    ///
    /// - Parameter expected: The SDK's ephemeral public key for the transaction.
    /// - Returns: The finding when it names another key.
    package func sdkKeyFinding(expected: P256PublicJWK) -> ConformanceFinding? {
        guard sdkEphemeralPublicKey != expected else { return nil }
        return ConformanceFinding(
            rule: .signedContentSDKKeyMismatch, field: "sdkEphemPubKey",
            value: JSONValue.object(sdkEphemeralPublicKey.jsonObject).serialized,
            explanation: "the ACS signed content names a different SDK ephemeral key")
    }

    private static func read(_ payload: [UInt8], _ recorder: ViolationRecorder<JOSEError>) throws(JOSEError)
        -> ACSSignedContent?
    {
        func record(
            _ rule: ConformanceRule, _ field: String, _ seen: JSONValue?, _ explanation: String,
            failure: JOSEError? = nil, line: UInt = #line
        ) throws(JOSEError) {
            let finding = ConformanceFinding(
                rule: rule, field: field, value: seen.map(ConformanceFinding.text), explanation: explanation)
            try recorder.record(finding, failure: failure, file: #fileID, line: line)
        }
        let value: JSONValue
        do {
            value = try JSONParser(limits: .init(maxBytes: 16 * 1024, maxDepth: 8)).parse(payload)
        } catch {
            try record(.signedContentNotJSON, "payload", nil, error.message, failure: error)
            return nil
        }
        guard case .object(let object) = value else {
            try record(.signedContentNotObject, "payload", value, "ACS signed content is not a JSON object")
            return nil
        }
        let url = object["acsURL"]?.stringValue.flatMap { !$0.isEmpty && PeerText.fits($0, max: 2048) ? $0 : nil }
        if url == nil {
            try record(
                .signedContentACSURL, "acsURL", object["acsURL"],
                "ACS signed content has no acsURL of at most 2048 characters")
        }
        if object["acsEphemPubKey"] == nil {
            try record(.signedContentACSKeyMissing, "acsEphemPubKey", nil, "ACS signed content has no acsEphemPubKey")
        }
        if object["sdkEphemPubKey"] == nil {
            try record(.signedContentSDKKeyMissing, "sdkEphemPubKey", nil, "ACS signed content has no sdkEphemPubKey")
        }
        var keys: [P256PublicJWK] = []
        for (name, rule) in [
            ("acsEphemPubKey", ConformanceRule.signedContentACSKeyInvalid),
            ("sdkEphemPubKey", .signedContentSDKKeyInvalid),
        ] {
            guard let key = object[name] else { continue }
            do {
                keys.append(try P256PublicJWK(jsonValue: key))
            } catch {
                try record(
                    rule, name, key, "ACS signed content's \(name) is not a P-256 public JWK: \(error.message)",
                    failure: error)
            }
        }
        guard let url, keys.count == 2 else { return nil }
        return ACSSignedContent(acsURL: url, acsEphemeralPublicKey: keys[0], sdkEphemeralPublicKey: keys[1])
    }

    /// Creates the content (the ACS side).
    public init(acsURL: String, acsEphemeralPublicKey: P256PublicJWK, sdkEphemeralPublicKey: P256PublicJWK) {
        self.acsURL = acsURL
        self.acsEphemeralPublicKey = acsEphemeralPublicKey
        self.sdkEphemeralPublicKey = sdkEphemeralPublicKey
    }

    /// The payload JSON.
    public var json: JSONObject {
        [
            "acsURL": .string(acsURL), "acsEphemPubKey": .object(acsEphemeralPublicKey.jsonObject),
            "sdkEphemPubKey": .object(sdkEphemeralPublicKey.jsonObject),
        ]
    }
}
