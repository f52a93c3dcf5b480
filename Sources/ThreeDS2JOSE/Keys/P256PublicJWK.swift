public import Crypto

/// A P-256 public key as a JSON Web Key (RFC 7517, RFC 7518 §6.2).
///
/// Exported exactly as `{"kty":"EC","crv":"P-256","x":"…","y":"…"}` with 32-byte coordinates. Imported from a JSON
/// object, or from a JSON string that holds such an object (some peers send keys that way). Import is strict about
/// what matters and tolerant of what does not:
/// - `kty` must be `EC` and `crv` `P-256`; the coordinates must be strict base64url of 32 bytes, or 33 bytes whose
///   first byte is zero (a signed big-integer encoding some Java peers produce);
/// - the point must lie on the curve;
/// - any private member (`d`, and the RSA and symmetric private members) is refused: a public-key slot must never
///   carry a private key;
/// - other public members (`kid`, `use`, `alg`, `key_ops`) are accepted and not used.
public struct P256PublicJWK: Sendable, Hashable {
    /// The key for ECDH.
    public let keyAgreementKey: P256.KeyAgreement.PublicKey
    /// The affine coordinates x ‖ y, 64 bytes: read from the key once, since every read converts the point from
    /// BoringSSL's internal form (a field inversion).
    private let coordinates: [UInt8]

    /// The same key, for ECDSA verification. Built on each read (ECDSA keys are needed rarely; the SDK's
    /// ephemeral keys never are).
    public var signingKey: P256.Signing.PublicKey {
        do {
            return try P256.Signing.PublicKey(rawRepresentation: coordinates)
        } catch {
            preconditionFailure("a validated P-256 point failed to convert: \(error)")
        }
    }

    /// The x coordinate, 32 bytes big-endian.
    public var x: [UInt8] { Array(coordinates[0..<32]) }
    /// The y coordinate, 32 bytes big-endian.
    public var y: [UInt8] { Array(coordinates[32..<64]) }

    private static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// The JWK of a key-agreement public key.
    ///
    /// - Parameter publicKey: The key.
    public init(_ publicKey: P256.KeyAgreement.PublicKey) {
        self.keyAgreementKey = publicKey
        self.coordinates = Array(publicKey.rawRepresentation)
    }

    /// The JWK of a signing public key.
    ///
    /// - Parameter publicKey: The key.
    public init(_ publicKey: P256.Signing.PublicKey) {
        self.coordinates = Array(publicKey.rawRepresentation)
        do {
            self.keyAgreementKey = try P256.KeyAgreement.PublicKey(rawRepresentation: coordinates)
        } catch {
            preconditionFailure("a validated P-256 point failed to convert: \(error)")
        }
    }

    /// Imports a JWK from a JSON object.
    ///
    /// - Parameter object: The JWK members.
    /// - Throws: ``JOSEError`` with code `invalidKey` (wrong type, curve, coordinate or private member) or
    ///   `pointNotOnCurve`.
    public init(jsonObject object: JSONObject) throws(JOSEError) {
        for name in Self.privateMembers where object[name] != nil {
            throw JOSEError(.invalidKey, "JWK carries the private member \"\(name)\"; only a public key is accepted")
        }
        guard object["kty"] == .string("EC") else {
            throw JOSEError(.invalidKey, "JWK \"kty\" must be \"EC\", found \(object["kty"]?.serialized ?? "nothing")")
        }
        guard object["crv"] == .string("P-256") else {
            throw JOSEError(
                .invalidKey, "JWK \"crv\" must be \"P-256\", found \(object["crv"]?.serialized ?? "nothing")")
        }
        let x = try Self.coordinate(object, "x")
        let y = try Self.coordinate(object, "y")
        do {
            self.coordinates = x + y
            self.keyAgreementKey = try P256.KeyAgreement.PublicKey(rawRepresentation: coordinates)
        } catch {
            throw JOSEError(.pointNotOnCurve, "JWK coordinates (x, y) are not a point on P-256")
        }
    }

    /// Imports a JWK from a JSON value that is either the JWK object or a string containing its JSON text.
    ///
    /// - Parameter value: The object, or a string holding the JSON of the object.
    /// - Throws: ``JOSEError`` with code `invalidKey`, `pointNotOnCurve` or `malformedJSON`.
    public init(jsonValue value: JSONValue) throws(JOSEError) {
        switch value {
        case .object(let object): try self.init(jsonObject: object)
        case .string(let text): try self.init(jsonString: text)
        default:
            throw JOSEError(.invalidKey, "a JWK must be a JSON object or a string holding one, found \(value.typeName)")
        }
    }

    /// Imports a JWK from its JSON text.
    ///
    /// - Parameter text: The JSON text of the JWK object.
    /// - Throws: ``JOSEError`` with code `invalidKey`, `pointNotOnCurve` or `malformedJSON`.
    public init(jsonString text: String) throws(JOSEError) {
        let value = try JSONParser(limits: .init(maxBytes: 4096, maxDepth: 4)).parse(text)
        guard case .object(let object) = value else {
            throw JOSEError(.invalidKey, "a JWK must be a JSON object, found \(value.typeName)")
        }
        try self.init(jsonObject: object)
    }

    private static func coordinate(_ object: JSONObject, _ name: String) throws(JOSEError) -> [UInt8] {
        guard case .string(let text) = object[name] else {
            throw JOSEError(.invalidKey, "JWK \"\(name)\" must be a base64url string")
        }
        let bytes = try Base64.urlDecode(text, what: "JWK \"\(name)\"")
        switch bytes.count {
        case 32: return bytes
        case 33 where bytes[0] == 0: return Array(bytes.dropFirst())
        default: throw JOSEError(.invalidKey, "JWK \"\(name)\" is \(bytes.count) bytes; P-256 needs 32")
        }
    }

    /// The members in canonical order: `kty`, `crv`, `x`, `y`.
    public var jsonObject: JSONObject {
        [
            "kty": .string("EC"), "crv": .string("P-256"),
            "x": .string(Base64.urlEncode(x)), "y": .string(Base64.urlEncode(y)),
        ]
    }

    /// The canonical JSON text, `{"kty":"EC","crv":"P-256","x":"…","y":"…"}`.
    public var jsonString: String { jsonObject.serialized }

    /// Equality on the coordinates.
    public static func == (lhs: P256PublicJWK, rhs: P256PublicJWK) -> Bool {
        lhs.coordinates == rhs.coordinates
    }

    /// Hashes the coordinates.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(coordinates)
    }
}
