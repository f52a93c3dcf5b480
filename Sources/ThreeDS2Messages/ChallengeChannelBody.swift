public import ThreeDS2JOSE

/// What a body on the challenge channel (a CReq the SDK posts, or the ACS's answer) is, read from its bytes and never
/// from its `Content-Type`, which ACSs get wrong both ways. The one reading the SDK, the ACS channel, the TestLab and
/// the tools share, so no two of them can disagree about one message.
///
/// A body whose first character other than JSON whitespace is `{` is plain JSON: an Erro when it is a JSON object
/// whose `messageType` is `Erro`, a plaintext message (a CReq or a CRes sent unencrypted, which the channel never
/// accepts) when it is any other object, and unreadable when it is not a JSON object at all. Anything else is taken
/// for a compact JWE, which only the channel keys can tell from noise.
public enum ChallengeChannelBody: Sendable, Hashable {
    /// A plain-JSON Erro.
    case error(JSONObject)
    /// Not JSON: a compact JWE (a CReq, a CRes or an encrypted Erro) to decrypt under the channel keys.
    case encrypted
    /// A JSON object that is not an Erro: a CReq or CRes in plaintext.
    case plaintext(JSONObject)
    /// A body that starts as JSON but is not a JSON object within the bounds.
    case unreadable

    /// The largest plain-JSON body read, in bytes.
    public static let maxJSONBytes = 64 * 1024
    /// The deepest nesting of a plain-JSON body read.
    public static let maxJSONDepth = 16

    /// Reads a body.
    ///
    /// - Parameter body: The bytes as they came.
    public init(_ body: [UInt8]) {
        guard Self.startsAsJSON(body) else {
            self = .encrypted
            return
        }
        let parser = JSONParser(limits: .init(maxBytes: Self.maxJSONBytes, maxDepth: Self.maxJSONDepth))
        guard case .object(let object)? = try? parser.parse(body) else {
            self = .unreadable
            return
        }
        self = MessageType(in: object) == .error ? .error(object) : .plaintext(object)
    }

    /// Whether a body is plain JSON (an Erro, a plaintext message, or broken JSON) rather than a JWE, without parsing
    /// it: its first character other than JSON whitespace is `{`.
    ///
    /// - Parameter body: The bytes as they came.
    /// - Returns: `true` for a body the channel reads as JSON.
    public static func startsAsJSON(_ body: [UInt8]) -> Bool {
        body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    }

    /// The Erro, when the body is one.
    public var error: JSONObject? {
        if case .error(let object) = self { return object }
        return nil
    }

    /// Whether the body is plain JSON of any kind rather than a JWE.
    public var isPlainJSON: Bool { self != .encrypted }
}
