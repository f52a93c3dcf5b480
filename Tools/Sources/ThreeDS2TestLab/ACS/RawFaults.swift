import Foundation
import ThreeDS2JOSE
public import ThreeDS2Messages

/// A fault a TestLab profile plants that no JSON patch can: in the first CRes's JWE (what breaks the encrypted
/// channel), or in the bytes the ACS signed content signs. Each breaks one rule.
public enum ACSRawFault: Sendable, Hashable {
    /// The first CRes sent as plain JSON.
    case plaintext
    /// The first CRes's JWE without its last part.
    case truncated
    /// The first CRes's JWE with its protected header replaced by this JSON text (the tag no longer checks, but the
    /// SDK refuses the header first).
    case header(String)
    /// The first CRes's JWE with one bit of its authentication tag flipped.
    case flippedTag
    /// These bytes encrypted as the first CRes.
    case payload([UInt8])
    /// These bytes signed as the ACS signed content's payload.
    case signedPayload([UInt8])

    /// The rule the fault breaks.
    public var rule: ConformanceRule {
        switch self {
        case .plaintext: .channelPlaintext
        case .truncated: .channelFormat
        case .header(let text): Self.headerRule(text)
        case .flippedTag: .channelTag
        case .payload(let bytes): bytes.first == UInt8(ascii: "{") ? .payloadDuplicateMember : .payloadNotJSON
        case .signedPayload(let bytes):
            bytes.first == UInt8(ascii: "[") ? .signedContentNotObject : .signedContentNotJSON
        }
    }

    /// Which header rule a replaced header breaks, by what it changes.
    private static func headerRule(_ text: String) -> ConformanceRule {
        if text.contains("\"zip\"") { return .channelHeader }
        if text.components(separatedBy: "\"kid\"").count > 2 { return .channelDuplicateMember }
        if !text.contains("\"alg\":\"dir\"") { return .channelAlgorithm }
        if !text.contains("\"enc\":\"A128CBC-HS256\"") { return .channelEncryption }
        return .channelKeyID
    }

    /// Whether the fault acts on the first CRes.
    var actsOnResponse: Bool {
        if case .signedPayload = self { return false }
        return true
    }

    /// The first CRes's body with the fault: `compact` as encrypted, `json` the CRes it carries, `encrypt` encrypts
    /// other bytes in its place.
    func body(_ compact: String, json: JSONObject, encrypt: ([UInt8]) throws -> String) throws -> [UInt8] {
        var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch self {
        case .plaintext: return json.serializedBytes
        case .truncated: parts.removeLast()
        case .header(let text): parts[0] = Base64.urlEncode(Array(text.utf8))
        case .flippedTag:
            var tag = try Base64.urlDecode(parts[4])
            tag[0] ^= 0x01
            parts[4] = Base64.urlEncode(tag)
        case .payload(let bytes): return Array(try encrypt(bytes).utf8)
        case .signedPayload: break
        }
        return Array(parts.joined(separator: ".").utf8)
    }
}
