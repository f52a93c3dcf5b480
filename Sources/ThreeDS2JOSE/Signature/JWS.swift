public import Crypto
public import Foundation
import SwiftASN1
public import X509
import _CryptoExtras

/// A JWS signature algorithm this layer implements. Only these two: a certified 3DS ACS signs with one of them,
/// and nothing else (`none`, `HS256`, `RS256`, …) is ever accepted.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSASSA-PSS with SHA-256 and MGF1-SHA-256, salt length 32 (RFC 7518 §3.5).
    case ps256 = "PS256"
    /// ECDSA on P-256 with SHA-256; the signature is the raw 64-byte R ‖ S (RFC 7518 §3.4).
    case es256 = "ES256"
}

/// A private key that signs a JWS.
public enum JWSSigningKey: Sendable {
    /// PS256 with an RSA private key (PKCS#1 or PKCS#8 DER) of at least 2048 bits.
    case ps256(privateKeyDER: [UInt8])
    /// ES256 with a P-256 key.
    case es256(P256.Signing.PrivateKey)

    /// The algorithm this key signs with.
    public var algorithm: JWSAlgorithm {
        switch self {
        case .ps256: .ps256
        case .es256: .es256
        }
    }
}

/// A public key that verifies a JWS, when the key is known in advance rather than taken from `x5c`.
public enum JWSVerificationKey: Sendable {
    /// PS256 with an RSA public key (SubjectPublicKeyInfo DER).
    case ps256(publicKeyDER: [UInt8])
    /// ES256 with a P-256 key.
    case es256(P256.Signing.PublicKey)

    /// The algorithm this key verifies.
    public var algorithm: JWSAlgorithm {
        switch self {
        case .ps256: .ps256
        case .es256: .es256
        }
    }
}

/// Compact JWS (RFC 7515 §7.1) with PS256 and ES256.
public enum JWS {
    /// A JWS whose signature verified.
    public struct Verified: Sendable {
        /// The protected header as sent.
        public var header: JSONObject
        /// The algorithm that verified.
        public var algorithm: JWSAlgorithm
        /// The payload bytes.
        public var payload: [UInt8]
    }

    /// The largest protected header accepted, in bytes of JSON; room for an `x5c` of several RSA certificates.
    public static let maxHeaderBytes = 32 * 1024
    /// The default bound on a whole compact JWS, in bytes.
    public static let defaultMaxCompactBytes = 128 * 1024

    /// Signs a payload.
    ///
    /// - Parameters:
    ///   - payload: The payload bytes.
    ///   - key: The signing key; it fixes `alg`.
    ///   - certificateChain: Certificates for the `x5c` header, signer first; omitted when empty.
    ///   - additionalHeader: Further header members, written after `alg` and `x5c`.
    /// - Returns: The compact serialization.
    /// - Throws: ``JOSEError`` with code `invalidKey`, `invalidCertificate` or `cryptographicFailure`.
    public static func sign(
        _ payload: some DataProtocol, with key: JWSSigningKey, certificateChain: [Certificate] = [],
        additionalHeader: JSONObject = [:]
    ) throws(JOSEError) -> String {
        var header: JSONObject = ["alg": .string(key.algorithm.rawValue)]
        if !certificateChain.isEmpty {
            var encoded: [JSONValue] = []
            for (index, certificate) in certificateChain.enumerated() {
                do {
                    var serializer = DER.Serializer()
                    try serializer.serialize(certificate)
                    encoded.append(.string(Base64.standardEncode(serializer.serializedBytes)))
                } catch {
                    throw JOSEError(
                        .invalidCertificate, "x5c[\(index)] could not be DER-encoded: \(error)", underlying: error)
                }
            }
            header["x5c"] = .array(encoded)
        }
        for member in additionalHeader.members { header[member.name] = member.value }
        let signingInput = Base64.urlEncode(header.serialized.utf8) + "." + Base64.urlEncode(payload)
        let signature: [UInt8]
        switch key {
        case .ps256(let der):
            let privateKey = try RSAKeyPolicy.read(
                der, as: "PS256 signing key", expecting: "an RSA private key", size: \.keySizeInBits
            ) { try _RSA.Signing.PrivateKey(derRepresentation: $0) }
            do {
                signature = Array(
                    try privateKey.signature(for: Array(signingInput.utf8), padding: .PSS).rawRepresentation)
            } catch {
                throw JOSEError(.cryptographicFailure, "PS256 signing failed: \(error)", underlying: error)
            }
        case .es256(let privateKey):
            do {
                signature = Array(try privateKey.signature(for: Array(signingInput.utf8)).rawRepresentation)
            } catch {
                throw JOSEError(.cryptographicFailure, "ES256 signing failed: \(error)", underlying: error)
            }
        }
        return signingInput + "." + Base64.urlEncode(signature)
    }

    /// Verifies a compact JWS with a key known in advance. Header keys (`jwk`, `jku`, `x5u`, `x5c`) are never used.
    ///
    /// - Parameters:
    ///   - compact: The compact serialization.
    ///   - key: The verification key; its algorithm is the only one accepted.
    ///   - maxCompactBytes: The largest input accepted.
    /// - Returns: The header, algorithm and payload.
    /// - Throws: ``JOSEError`` naming the failing part, header member or check.
    public static func verify(
        _ compact: String, using key: JWSVerificationKey, maxCompactBytes: Int = defaultMaxCompactBytes
    ) throws(JOSEError) -> Verified {
        let parsed = try Parsed(compact, maxCompactBytes: maxCompactBytes)
        guard parsed.algorithm == key.algorithm else {
            throw JOSEError(
                .unexpectedAlgorithm,
                "JWS header \"alg\" is \"\(parsed.algorithm.rawValue)\", expected \"\(key.algorithm.rawValue)\"")
        }
        switch key {
        case .ps256(let der):
            // The size rule is applied by `verify(rsa:)`, to this key and to an `x5c` signer's alike.
            let publicKey = try RSAKeyPolicy.read(
                der, as: "PS256 verification key", expecting: "an RSA public key", checkingSize: false,
                size: \.keySizeInBits
            ) { try _RSA.Signing.PublicKey(derRepresentation: $0) }
            try parsed.verify(rsa: publicKey)
        case .es256(let publicKey):
            try parsed.verify(ecdsa: publicKey)
        }
        return Verified(header: parsed.header, algorithm: parsed.algorithm, payload: parsed.payload)
    }

    /// A compact JWS split, decoded and checked for shape, its signature not yet verified.
    struct Parsed {
        var header: JSONObject
        var algorithm: JWSAlgorithm
        var payload: [UInt8]
        var signingInput: [UInt8]
        var signature: [UInt8]

        init(_ compact: String, maxCompactBytes: Int) throws(JOSEError) {
            self = try CompactSerialization.withParts(compact, partCount: 3, kind: "JWS", maxBytes: maxCompactBytes) {
                bytes, parts throws(JOSEError) in
                try Parsed(
                    header: UnsafeBufferPointer(rebasing: bytes[parts[0]]),
                    payload: UnsafeBufferPointer(rebasing: bytes[parts[1]]),
                    signature: UnsafeBufferPointer(rebasing: bytes[parts[2]]),
                    signingInput: UnsafeBufferPointer(rebasing: bytes[parts[0].lowerBound..<parts[1].upperBound]))
            }
        }

        private init(
            header headerPart: UnsafeBufferPointer<UInt8>, payload payloadPart: UnsafeBufferPointer<UInt8>,
            signature signaturePart: UnsafeBufferPointer<UInt8>, signingInput: UnsafeBufferPointer<UInt8>
        ) throws(JOSEError) {
            header = try CompactSerialization.decodeHeader(headerPart, kind: "JWS", maxBytes: JWS.maxHeaderBytes)
            guard let name = try header.optionalString("alg") else {
                throw JOSEError(.invalidHeader, "JWS header \"alg\" is missing")
            }
            guard name.lowercased() != "none" else {
                throw JOSEError(.unsupportedAlgorithm, "JWS header \"alg\" \"\(name)\" (unsigned) is refused")
            }
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                throw JOSEError(
                    .unsupportedAlgorithm, "JWS header \"alg\" \"\(name)\" is not supported; only PS256 and ES256 are")
            }
            self.algorithm = algorithm
            if header["crit"] != nil {
                throw JOSEError(.unsupportedHeaderParameter, "JWS header \"crit\" is not supported")
            }
            guard payloadPart.count % 4 != 1, signaturePart.count % 4 != 1 else {
                throw JOSEError(.malformedBase64, "JWS part 2 or 3: not a valid base64url length")
            }
            payload = try Base64.urlDecode(payloadPart, what: "JWS part 2 (payload)")
            signature = try Base64.urlDecode(signaturePart, what: "JWS part 3 (signature)")
            self.signingInput = Array(signingInput)
        }

        func verify(rsa publicKey: _RSA.Signing.PublicKey) throws(JOSEError) {
            try RSAKeyPolicy.requireSize(publicKey.keySizeInBits, role: "PS256 key")
            guard signature.count == publicKey.keySizeInBits / 8 else {
                throw JOSEError(
                    .invalidSignature,
                    "PS256 signature is \(signature.count) bytes; the key needs \(publicKey.keySizeInBits / 8)")
            }
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            guard publicKey.isValidSignature(rsaSignature, for: signingInput, padding: .PSS) else {
                throw JOSEError(.invalidSignature, "PS256 signature does not verify")
            }
        }

        func verify(ecdsa publicKey: P256.Signing.PublicKey) throws(JOSEError) {
            guard signature.count == 64 else {
                throw JOSEError(.invalidSignature, "ES256 signature is \(signature.count) bytes; R ‖ S is 64")
            }
            let ecdsaSignature: P256.Signing.ECDSASignature
            do {
                ecdsaSignature = try P256.Signing.ECDSASignature(rawRepresentation: signature)
            } catch {
                throw JOSEError(.invalidSignature, "ES256 signature is not a valid R ‖ S pair")
            }
            guard publicKey.isValidSignature(ecdsaSignature, for: signingInput) else {
                throw JOSEError(.invalidSignature, "ES256 signature does not verify")
            }
        }
    }
}
