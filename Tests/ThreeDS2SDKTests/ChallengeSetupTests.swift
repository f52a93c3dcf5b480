import Crypto
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDKTesting

@testable import ThreeDS2SDK

/// The step before the first CReq, without a network: signed content made with the lab's PKI.
@Suite("Challenge setup")
struct ChallengeSetupTests {
    static let pki = Result { try DirectoryServerPKI.make() }

    func setup(allowsHTTP: Bool = false, roots: [IssuedCertificate]? = nil) throws -> ChallengeSetup {
        let pki = try Self.pki.get()
        return ChallengeSetup(
            directoryServerRoots: (roots ?? [pki.root]).map(\.certificate),
            sdkReferenceNumber: "3DS_LOA_SDK_TEST_000000_00001",
            sdkTransactionID: "b2385523-a66c-4907-ac3c-91848e8c0067", messageVersion: .v2_2_0,
            allowsPlainHTTPLoopback: allowsHTTP)
    }

    func signedContent(acsURL: String, sdkKey: P256.KeyAgreement.PublicKey) throws -> String {
        let pki = try Self.pki.get()
        let content = ACSSignedContent(
            acsURL: acsURL, acsEphemeralPublicKey: P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey),
            sdkEphemeralPublicKey: P256PublicJWK(sdkKey))
        guard case .p256(let key) = pki.acsSigner.privateKey else { throw JOSEError(.invalidKey, "not EC") }
        return try JWS.sign(
            content.json.serializedBytes, with: .es256(key),
            certificateChain: [pki.acsSigner.certificate, pki.intermediate.certificate, pki.root.certificate])
    }

    func parameters(_ signed: String) -> ChallengeParameters {
        ChallengeParameters(
            threeDSServerTransactionID: "8A880DC0-D2D2-4067-BCB1-B08D1690B26E",
            acsTransactionID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340", acsRefNumber: "ACS", acsSignedContent: signed)
    }

    @Test("good signed content gives the ACS URL and a machine ready to send CReq 000")
    func prepares() async throws {
        let key = P256.KeyAgreement.PrivateKey()
        let signed = try signedContent(acsURL: "https://acs.example/challenge", sdkKey: key.publicKey)
        let prepared = try await setup().prepare(parameters(signed), ephemeralKey: key)
        #expect(prepared.acsURL.absoluteString == "https://acs.example/challenge")
        var machine = prepared.machine
        guard case .send(let sent) = machine.handle(.start).first else {
            Issue.record("the machine did not send the first CReq")
            return
        }
        #expect(sent.counter == 0 && sent.request["sdkCounterStoA"] == .string("000"))
    }

    @Test("each refusal has its code: untrusted chain, another SDK key, a URL that is not allowed")
    func refusals() async throws {
        let key = P256.KeyAgreement.PrivateKey()
        let strict = try setup()
        let lenient = try setup(allowsHTTP: true)
        let foreignRoots = try setup(roots: [try DirectoryServerPKI.make().root])
        let good = parameters(try signedContent(acsURL: "https://acs.example/c", sdkKey: key.publicKey))
        let otherKey = parameters(
            try signedContent(acsURL: "https://acs.example/c", sdkKey: P256.KeyAgreement.PrivateKey().publicKey))
        let plain = parameters(try signedContent(acsURL: "http://acs.example/c", sdkKey: key.publicKey))
        await expectFailure(.signedContent) { () async throws(ChallengeFailure) in
            try await foreignRoots.prepare(good, ephemeralKey: key)
        }
        await expectFailure(.signedContent) { () async throws(ChallengeFailure) in
            try await strict.prepare(otherKey, ephemeralKey: key)
        }
        await expectFailure(.acsURL) { () async throws(ChallengeFailure) in
            try await lenient.prepare(plain, ephemeralKey: key)
        }
        await expectFailure(.signedContent) { () async throws(ChallengeFailure) in
            try await strict.prepare(parameters("e30.e30.AAAA"), ephemeralKey: key)
        }
    }

    @Test("acsURL: https always; plain http only on loopback and only when allowed")
    func acsURL() throws {
        #expect(try setup().checkedACSURL("https://acs.example/x").host == "acs.example")
        #expect(try setup(allowsHTTP: true).checkedACSURL("http://127.0.0.1:8080/acs").port == 8080)
        for (text, allowed) in [
            ("http://127.0.0.1/acs", false), ("http://acs.example/acs", true), ("/relative", true),
            ("ftp://127.0.0.1/x", true), ("https:///nohost", true),
        ] {
            #expect(throws: ChallengeFailure.self, "\(text)") { try setup(allowsHTTP: allowed).checkedACSURL(text) }
        }
    }

    private func expectFailure(
        _ code: ChallengeFailure.Code, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws(ChallengeFailure) -> ChallengeSetup.Prepared
    ) async {
        do {
            _ = try await body()
            Issue.record("expected \(code)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }
}
