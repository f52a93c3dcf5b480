import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// The audits of an ARes, its ACS signed content and a plaintext CRes against the rules of
/// `docs/conformance-rules.md`, written once for `conform`'s live run and the offline audits of saved messages
/// (`threeds inspect audit`, `inspect signed-content`).
enum MessageAudits {
    /// An ARes: its status for the version and, for a challenge, the fields the SDK reads.
    static func authenticationResponse(_ object: JSONObject, version: MessageVersion) -> [ConformanceFinding] {
        AuthenticationResponseRules.audit(object, version: version).findings
    }

    /// The payload of an ACS signed content (a compact JWS; its signature is not checked here) against the rules the
    /// SDK applies to it: JSON, an object, an absolute https ACS URL (plain http only to an ACS on loopback when the
    /// configuration allows it), the two ephemeral keys, and the SDK's own key when known.
    static func signedContent(
        _ token: String, sdkKey: P256PublicJWK?, allowsPlainHTTPLoopback: Bool = false
    ) -> [ConformanceFinding] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64.urlDecode(parts[1]) else {
            return [
                ConformanceFinding(
                    rule: .signedContentNotJSON, field: "payload", value: nil,
                    explanation: "the ACS signed content is not a compact JWS with a base64url payload")
            ]
        }
        return ACSSignedContent.audit(
            payload: payload, sdkEphemeralPublicKey: sdkKey,
            allowsPlainHTTP: { $0.hasLoopbackHost && allowsPlainHTTPLoopback }
        ).findings
    }

    /// The SDK's ephemeral key an AReq carried (`sdkEphemPubKey`), when it carries a P-256 JWK.
    static func sdkKey(inAReq object: JSONObject?) -> P256PublicJWK? {
        guard let value = object?["sdkEphemPubKey"] else { return nil }
        return try? P256PublicJWK(jsonValue: value)
    }

    /// What a check says of the findings of one message: the check "`subject` conforms".
    static func check(_ subject: String, _ findings: [ConformanceFinding]) -> ConformCheck {
        let name = "\(subject) conforms"
        var seen: Set<ConformanceRule> = []
        let rules = findings.map(\.rule).filter { seen.insert($0).inserted }
        var check = ConformCheck.expect(
            findings.isEmpty, name,
            findings.isEmpty
                ? "no rule broken"
                : "\(findings.count) violation\(findings.count == 1 ? "" : "s"): "
                    + rules.map(\.rawValue).joined(separator: ", "))
        check.findings = findings
        check.subject = subject
        return check
    }
}
