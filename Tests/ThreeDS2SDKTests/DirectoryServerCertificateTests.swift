import Crypto
import Foundation
import SwiftASN1
import Testing
import ThreeDS2JOSE
import ThreeDS2SDKTesting
import X509

@testable import ThreeDS2SDK

@Suite("Directory server certificates when loaded")
struct DirectoryServerCertificateTests {
    private func load(_ certificate: IssuedCertificate) throws -> String? {
        let ds = try DSFixture.get()
        let server = DirectoryServer(
            id: "A000000004", encryptionKey: try certificate.certificatePEM,
            rootCertificates: try ds.root.certificatePEM)
        do {
            _ = try ResolvedDirectoryServer(server)
            return nil
        } catch {
            #expect(error.code == .invalidInput)
            return error.message
        }
    }

    @Test("an expired or not-yet-valid encryption certificate is refused with its name and date")
    func validity() throws {
        let ds = try DSFixture.get()
        let expired = try CertificateAuthority.issue(
            commonName: "DS old", key: .makeP256(), role: .encryption, issuer: ds.root,
            notValidBefore: Date(timeIntervalSinceNow: -2 * 86400), notValidAfter: Date(timeIntervalSinceNow: -86400))
        #expect(try load(expired)?.contains("CN=DS old) expired on") == true)
        let early = try CertificateAuthority.issue(
            commonName: "DS new", key: .makeP256(), role: .encryption, issuer: ds.root,
            notValidBefore: Date(timeIntervalSinceNow: 86400), notValidAfter: Date(timeIntervalSinceNow: 2 * 86400))
        #expect(try load(early)?.contains("is not valid before") == true)
        #expect(try load(ds.ecEncryption) == nil && load(ds.rsaEncryption) == nil)
    }

    @Test("the key usage must allow key agreement (EC) or key encipherment (RSA)")
    func keyUsage() throws {
        let ds = try DSFixture.get()
        let ecWithoutAgreement = try CertificateAuthority.issue(
            commonName: "DS EC", key: .makeP256(), role: .keyEnciphermentOnly, issuer: ds.root)
        #expect(try load(ecWithoutAgreement)?.contains("does not allow key agreement") == true)
        let rsaSigner = try CertificateAuthority.issue(
            commonName: "DS RSA", key: .makeRSA(), role: .signer, issuer: ds.root)
        #expect(try load(rsaSigner)?.contains("does not allow key encipherment") == true)
    }

    @Test("names stay readable when an attribute is a PrintableString with '_', as production certificates have")
    func readableNames() throws {
        // OU "ACS_PROD" as a PrintableString (tag 0x13), which the standard's character set does not allow and
        // swift-certificates therefore keeps as raw ASN.1.
        let raw = try ASN1Any(derEncoded: [0x13, 0x08] + Array("ACS_PROD".utf8))
        let name = DistinguishedName([
            RelativeDistinguishedName([
                .init(type: .RDNAttributeType.countryName, value: try .init(printableString: "US"))
            ]),
            RelativeDistinguishedName([
                .init(type: .RDNAttributeType.organizationalUnitName, value: .init(asn1Any: raw))
            ]),
            RelativeDistinguishedName([
                .init(type: .RDNAttributeType.commonName, value: .init(utf8String: "acs.example"))
            ]),
        ])
        #expect(CertificateName.readable(name) == "C=US, OU=ACS_PROD, CN=acs.example")
    }
}
