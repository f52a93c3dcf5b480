import Crypto
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2SDKTesting
import X509
import _CryptoExtras

/// The known-answer vectors shipped with the tests.
enum Vectors {
    static let root: JSONObject = {
        do {
            guard
                let url = Bundle.module.url(
                    forResource: "jose-known-answers", withExtension: "json", subdirectory: "Resources")
            else { fatalError("jose-known-answers.json is missing from the test bundle") }
            let value = try JSONParser().parse(Array(try Data(contentsOf: url)))
            guard let object = value.objectValue else { fatalError("vector file is not an object") }
            return object
        } catch {
            fatalError("cannot load vectors: \(error)")
        }
    }()

    static func entry(_ name: String) -> JSONObject {
        guard let object = root[name]?.objectValue else { fatalError("vector \(name) missing") }
        return object
    }
}

extension JSONObject {
    func string(_ name: String) -> String {
        guard let value = self[name]?.stringValue else { fatalError("vector member \(name) missing") }
        return value
    }

    func bytes(_ name: String) throws -> [UInt8] { try Base64.urlDecode(string(name)) }

    func hex(_ name: String) -> [UInt8] { [UInt8](hex: string(name)) }

    func object(_ name: String) -> JSONObject {
        guard let value = self[name]?.objectValue else { fatalError("vector member \(name) missing") }
        return value
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }

    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

/// A private P-256 key read from a JWK with `d` (tests only; the library refuses private JWKs).
func privateKey(fromJWK jwk: JSONObject) throws -> P256.KeyAgreement.PrivateKey {
    try P256.KeyAgreement.PrivateKey(rawRepresentation: try jwk.bytes("d"))
}

/// A three-level PKI (root → intermediate → leaves) made once for the whole test run.
struct PKIFixture: Sendable {
    let root: IssuedCertificate
    let intermediate: IssuedCertificate
    let rsaSigner: IssuedCertificate
    let ecSigner: IssuedCertificate
    let expiredSigner: IssuedCertificate
    let encipherOnlySigner: IssuedCertificate
    let otherRoot: IssuedCertificate
    let otherIntermediate: IssuedCertificate
    let otherSigner: IssuedCertificate
    /// An RSA-2048 key pair for RSA-OAEP-256: private PKCS#1 DER and public SubjectPublicKeyInfo DER.
    let rsaEncryptionPrivateDER: [UInt8]
    let rsaEncryptionPublicDER: [UInt8]

    static let shared: Result<PKIFixture, any Error> = Result { try PKIFixture() }

    private init() throws {
        let longAgo = Date(timeIntervalSinceNow: -30 * 86400)
        root = try CertificateAuthority.makeRoot(commonName: "Test DS Root", key: .makeP256(), notValidBefore: longAgo)
        intermediate = try CertificateAuthority.issue(
            commonName: "Test DS Intermediate", key: .makeRSA(), role: .authority(pathLength: 0), issuer: root,
            notValidBefore: longAgo)
        rsaSigner = try CertificateAuthority.issue(
            commonName: "Test ACS RSA", key: .makeRSA(), role: .signer, issuer: intermediate)
        ecSigner = try CertificateAuthority.issue(
            commonName: "Test ACS EC", key: .makeP256(), role: .signer, issuer: intermediate)
        expiredSigner = try CertificateAuthority.issue(
            commonName: "Expired ACS", key: .makeP256(), role: .signer, issuer: intermediate,
            notValidBefore: Date(timeIntervalSinceNow: -10 * 86400), notValidAfter: Date(timeIntervalSinceNow: -86400))
        encipherOnlySigner = try CertificateAuthority.issue(
            commonName: "Encipher-only ACS", key: .makeP256(), role: .keyEnciphermentOnly, issuer: intermediate)
        otherRoot = try CertificateAuthority.makeRoot(commonName: "Unknown Root", key: .makeP256())
        otherIntermediate = try CertificateAuthority.issue(
            commonName: "Unknown Intermediate", key: .makeP256(), role: .authority(pathLength: 0), issuer: otherRoot)
        otherSigner = try CertificateAuthority.issue(
            commonName: "Unknown ACS", key: .makeRSA(), role: .signer, issuer: otherIntermediate)
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        rsaEncryptionPrivateDER = Array(rsa.derRepresentation)
        rsaEncryptionPublicDER = Array(rsa.publicKey.derRepresentation)
    }

    func chain(_ leaf: IssuedCertificate) -> [Certificate] {
        [leaf.certificate, intermediate.certificate, root.certificate]
    }

    static func get() throws -> PKIFixture { try shared.get() }
}

extension LabPrivateKey {
    /// The JWS signing key for this lab key.
    var jwsKey: JWSSigningKey {
        switch self {
        case .rsa(let key): .ps256(privateKeyDER: Array(key.derRepresentation))
        case .p256(let key): .es256(key)
        }
    }
}

/// Flips one bit of one base64url part of a compact serialization, keeping the encoding canonical.
func tamper(_ compact: String, part: Int, byte: Int = 0) throws -> String {
    var parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var bytes = try Base64.urlDecode(parts[part])
    bytes[byte < 0 ? bytes.count + byte : byte] ^= 0x01
    parts[part] = Base64.urlEncode(bytes)
    return parts.joined(separator: ".")
}

/// Asserts that `body` throws a ``JOSEError`` with `code`, and returns it for further checks.
@discardableResult
func expectJOSEError<T>(
    _ code: JOSEError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> JOSEError? {
    do {
        _ = try body()
        Issue.record("expected JOSEError \(code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as JOSEError {
        if error.code != code {
            Issue.record("expected JOSEError \(code), got \(error)", sourceLocation: sourceLocation)
        }
        return error
    } catch {
        Issue.record("expected JOSEError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// The async form of ``expectJOSEError(_:sourceLocation:_:)``.
@discardableResult
func expectJOSEError<T>(
    _ code: JOSEError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T
) async -> JOSEError? {
    do {
        _ = try await body()
        Issue.record("expected JOSEError \(code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as JOSEError {
        if error.code != code {
            Issue.record("expected JOSEError \(code), got \(error)", sourceLocation: sourceLocation)
        }
        return error
    } catch {
        Issue.record("expected JOSEError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
