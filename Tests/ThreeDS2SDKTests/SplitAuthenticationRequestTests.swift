import Foundation
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SDKTesting

/// The AReq parameters a Split-SDK Server sends: the same value as the Default-SDK's, with the split fields.
@Suite("The AReq's Split-SDK fields")
struct SplitAuthenticationRequestTests {
    static func request(_ version: MessageVersion) throws -> AuthenticationRequest {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("split-areq-\(version)"))
        let transaction = try service.createTransaction(directoryServerID: "A000000004", messageVersion: version)
        defer { transaction.close() }
        return try transaction.authenticationRequest(presenter: IdlePresenter())
    }

    @Test("2.3.1: sdkType 02, splitSdkType, the signed content and its timestamp; no defaultSdkType; it verifies")
    func splitFields() throws {
        let areq = try Self.request(.v2_3_1)
        let root = try CertificateAuthority.makeRoot(commonName: "Split CA", key: .makeP256())
        let server = try CertificateAuthority.issue(
            commonName: "Split-SDK Server", key: .makeP256(), role: .signer, issuer: root)
        guard case .p256(let key) = server.privateKey else { throw CancellationError() }
        let stamp = try #require(SDKSignatureTimestamp(text: "20261128080000"))
        let id = try #require(SplitSDKServerID("LAB-SPLIT-1"))
        // Signed server-side (the ACS kit); the SDK's AReq only carries the compact string.
        let signed = try SDKServerSignedContent(
            sdkReferenceNumber: areq.sdkReferenceNumber, signatureTimestamp: stamp,
            sdkTransactionID: areq.sdkTransactionID, serverID: id
        ).sign(key: key, certificateChain: [server.certificate])
        let split = try areq.splitSDK(
            type: SplitSDKType(variant: .native, isLimited: false), signedContent: signed, signatureTimestamp: stamp)
        let object = split.json
        #expect(object["sdkType"] == .string("02") && object["defaultSdkType"] == nil)
        #expect(object["splitSdkType"] == .object(["sdkVariant": .string("01"), "limitedInd": .string("N")]))
        #expect(object["sdkSignatureTimestamp"] == .string("20261128080000"))
        let compact = try #require(object["sdkServerSignedContent"]?.stringValue)
        let content = try SDKServerSignedContent.verify(compact) { $0 == id ? server.certificate : nil }
        #expect(content.sdkReferenceNumber == areq.sdkReferenceNumber)
        #expect(content.sdkTransactionID == areq.sdkTransactionID && content.serverID == id)
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(split)) as? [String: Any]
        #expect(encoded?["sdkType"] as? String == "02" && encoded?["defaultSdkType"] == nil)
        #expect(encoded?["splitSdkType"] as? [String: String] == ["sdkVariant": "01", "limitedInd": "N"])
        #expect(encoded?["sdkServerSignedContent"] as? String == compact)
        #expect(encoded?["sdkSignatureTimestamp"] as? String == "20261128080000")
        // The other fields are the Default-SDK's, unchanged.
        var rest = object
        var defaults = areq.json
        for name in ["sdkType", "defaultSdkType", "splitSdkType", "sdkServerSignedContent", "sdkSignatureTimestamp"] {
            rest[name] = nil
            defaults[name] = nil
        }
        #expect(rest.serialized == defaults.serialized)
        let noStamp = try areq.splitSDK(type: SplitSDKType(variant: .native, isLimited: true), signedContent: compact)
        #expect(noStamp.json["sdkSignatureTimestamp"] == nil)
        #expect(noStamp.json["splitSdkType"]?.objectValue?["limitedInd"] == .string("Y"))
    }

    @Test("the Default-SDK's AReq carries no split field, and an app cannot add one")
    func defaultPathUnchanged() throws {
        for version in MessageVersion.supported {
            var areq = try Self.request(version)
            let names = areq.json.members.map(\.name)
            for name in ["splitSdkType", "sdkServerSignedContent", "sdkSignatureTimestamp"] {
                #expect(!names.contains(name))
                #expect(throws: ThreeDS2Error.self) { try areq.addField(name, .string("x")) }
            }
            let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(areq)) as? [String: Any]
            #expect(Set(encoded?.keys.map { $0 } ?? []) == Set(names))
        }
    }

    @Test("refused: a split AReq before 2.3.1, an empty signed content, one over 4,000 characters")
    func refusals() throws {
        let type = SplitSDKType(variant: .native, isLimited: false)
        for version in [MessageVersion.v2_1_0, .v2_2_0] {
            let areq = try Self.request(version)
            #expect(throws: ThreeDS2Error.self) { try areq.splitSDK(type: type, signedContent: "a.b.c") }
        }
        let areq = try Self.request(.v2_3_1)
        #expect(throws: ThreeDS2Error.self) { try areq.splitSDK(type: type, signedContent: "") }
        #expect(throws: ThreeDS2Error.self) {
            try areq.splitSDK(type: type, signedContent: String(repeating: "a", count: 4001))
        }
        #expect(
            try areq.splitSDK(type: type, signedContent: String(repeating: "a", count: 4000)).json["sdkType"]
                == .string("02"))
    }
}
