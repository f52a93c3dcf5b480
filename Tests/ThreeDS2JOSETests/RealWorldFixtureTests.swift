import Crypto
import Foundation
import SwiftASN1
import Testing
import ThreeDS2JOSE
import X509
import _CryptoExtras

/// Real ACS signed content and certificates from other SDKs' public tests (see Resources/RealWorld/SOURCE.md):
/// they verify at a time inside their certificates' validity and fail as expired now.
@Suite("Real-world signed content and certificates")
struct RealWorldFixtureTests {
    static func text(_ name: String) throws -> String {
        guard
            let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources/RealWorld")
        else { throw JOSEError(.invalidCertificate, "fixture \(name) is missing") }
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func certificate(_ name: String) throws -> Certificate { try Certificate(pemEncoded: try text(name)) }

    /// 2019-06-01, inside every fixture certificate's validity.
    static let inside = Date(timeIntervalSince1970: 1_559_347_200)

    @Test("UL test-platform ACS signed content (ES256) verifies in 2019, with its acsURL, and is expired now")
    func ulSignedContent() async throws {
        let jws = try Self.text("ul-acs-signed-content-es256.jws")
        let root = try Self.certificate("ul-ts-3ds-root.pem")
        let verified = try await X5CVerifier(roots: [root], validationTime: Self.inside).verify(jws)
        #expect(verified.algorithm == .es256 && verified.chain.count == 2)
        let payload = try #require(try JSONParser().parse(verified.payload).objectValue)
        #expect(payload["acsURL"] == .string("https://simulator-3ds.selftestplatform.com/v2.1.0/acs/946/"))
        #expect(
            try P256PublicJWK(jsonValue: #require(payload["acsEphemPubKey"])).jsonString.contains("\"crv\":\"P-256\""))
        await expectJOSEError(.certificateExpired) { try await X5CVerifier(roots: [root]).verify(jws) }
        // Any change to the signed bytes is caught.
        var parts = jws.split(separator: ".").map(String.init)
        parts[1] = Base64.urlEncode(Array(#"{"acsURL":"https://attacker.example/"}"#.utf8))
        await expectJOSEError(.invalidSignature) {
            try await X5CVerifier(roots: [root], validationTime: Self.inside).verify(parts.joined(separator: "."))
        }
    }

    @Test("a production Mastercard ACS chain validates to its root in 2019, is expired now, and is named readably")
    func mastercardChain() async throws {
        let leaf = try Self.certificate("mastercard-acs-arcot.pem")
        let subCA = try Self.certificate("mastercard-3ds2-issuer-sub-ca.pem")
        let root = try Self.certificate("mastercard-identity-check-root.pem")
        #expect(
            CertificateName.readable(leaf.subject)
                == "C=US, ST=California, L=Santa Clara, O=Arcot Systems LLC, "
                + "OU=ACSMS-ACS-V210-CA_TECHNOLOGIES-22421-CA, CN=secure5signing.arcot.com")
        // Signed with a key that is not the certificate's: the chain check comes first, so in 2019 the chain passes
        // and only the signature fails; now the leaf is expired and named in words, not bytes.
        let forged = try JWS.sign(
            Array(#"{"acsURL":"https://secure5.arcot.com/acs/api/tds2/txn/app/v1/creq"}"#.utf8),
            with: .ps256(privateKeyDER: Array(try _RSA.Signing.PrivateKey(keySize: .bits2048).derRepresentation)),
            certificateChain: [leaf, subCA])
        await expectJOSEError(.invalidSignature) {
            try await X5CVerifier(roots: [root], validationTime: Self.inside).verify(forged)
        }
        let expired = await expectJOSEError(.certificateExpired) {
            try await X5CVerifier(roots: [root]).verify(forged)
        }
        #expect(
            expired?.message.contains("OU=ACSMS-ACS-V210-CA_TECHNOLOGIES-22421-CA") == true, "\(expired?.message ?? "")"
        )
        await expectJOSEError(.untrustedCertificateChain) {
            try await X5CVerifier(roots: [try Self.certificate("ul-ts-3ds-root.pem")], validationTime: Self.inside)
                .verify(forged)
        }
    }
}
