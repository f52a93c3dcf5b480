import Crypto
import Foundation
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SDKTesting
import X509

@testable import ThreeDS2TestLab

/// The lab's DS and Split-SDK AReqs: registration, the signed content's verification, Erro 308, the fault profiles.
@Suite("TestLab DS: Split-SDK AReqs", .serialized)
struct SplitSDKDirectoryServerTests {
    static let type = SplitSDKType(variant: .native, isLimited: false)

    /// A lab (plain HTTP: nothing here goes over the network) and an SDK service for it.
    static func lab(_ options: TestLabOptions = TestLabOptions(useTLS: false)) async throws -> (
        TestLab, ThreeDS2Service
    ) {
        let lab = try await TestLab.start(options: options)
        let service = ThreeDS2Service()
        try service.initialize(
            configParameters: try lab.sdkConfiguration(dataDirectory: scratchDirectory("split-ds")))
        return (lab, service)
    }

    /// The Default-SDK AReq of a new transaction, with the purchase fields the lab's 3DS Server needs.
    static func areq(
        _ service: ThreeDS2Service, _ version: MessageVersion, card: String = Scenario.frictionlessY.cardNumber
    )
        throws -> AuthenticationRequest
    {
        let transaction = try service.createTransaction(
            directoryServerID: TestLab.ecDirectoryServerID, messageVersion: version)
        defer { transaction.close() }
        return try transaction.authenticationRequest(presenter: IdlePresenter()).adding([
            "acctNumber": .string(card), "purchaseAmount": .string("1999"), "purchaseCurrency": .string("978"),
        ])
    }

    /// The AReq split with the lab's own Split-SDK Server identity (or another), signed now (or at `date`).
    static func split(
        _ areq: AuthenticationRequest, lab: TestLab, id: SplitSDKServerID = TestLab.splitSDKServerID,
        identity: IssuedCertificate? = nil, date: Date = Date()
    ) throws -> AuthenticationRequest {
        let server = identity ?? lab.pki.splitSDKServer
        guard case .p256(let key) = server.privateKey else { throw CancellationError() }
        let timestamp = SDKSignatureTimestamp(date)
        let signed = try SDKServerSignedContent(
            sdkReferenceNumber: areq.sdkReferenceNumber, signatureTimestamp: timestamp,
            sdkTransactionID: areq.sdkTransactionID, serverID: id
        ).sign(key: key, certificateChain: [server.certificate])
        return try areq.splitSDK(type: type, signedContent: signed, signatureTimestamp: timestamp)
    }

    /// The lab's answer to an AReq: the ARes, or the refusal (a 3DS Server error or the DS's 308).
    enum Answer {
        case ares(JSONObject)
        case invalid(String)
        case erro308(String)
    }

    static func send(_ lab: TestLab, _ object: JSONObject) async -> Answer {
        do {
            return .ares(try await lab.handleAuthentication(object.serializedBytes).1)
        } catch let refusal as DirectoryServerRefusal {
            return .erro308(refusal.detail)
        } catch {
            return .invalid("\(error)")
        }
    }

    static func is308(_ answer: Answer) -> Bool {
        if case .erro308 = answer { return true }
        return false
    }

    static func isInvalid(_ answer: Answer) -> Bool {
        if case .invalid = answer { return true }
        return false
    }

    @Test(
        "a 2.3.1 split AReq made with the SDK's types is accepted, frictionless and challenged; the lab's identity is readable"
    )
    func accepted() async throws {
        let (lab, service) = try await Self.lab()
        defer { try? service.cleanup() }
        for (card, status) in [(Scenario.frictionlessY.cardNumber, "Y"), (Scenario.text.cardNumber, "C")] {
            let split = try Self.split(try Self.areq(service, .v2_3_1, card: card), lab: lab)
            guard case .ares(let ares) = await Self.send(lab, split.json) else {
                Issue.record("\(card): the split AReq was refused")
                continue
            }
            #expect(ares["transStatus"] == .string(status), "\(card): \(ares.serialized.prefix(200))")
        }
        let files = try lab.pki.clientFiles
        #expect(files["split-sdk-server.pem"] == (try lab.pki.splitSDKServer.certificatePEM))
        #expect(files["split-sdk-server-key.pem"] != nil && LabPKI.isPrivateKeyFile("split-sdk-server-key.pem"))
        await lab.stop()
    }

    @Test("a server registered through the options is accepted; an unknown one and a bad signature are Erro 308")
    func registration() async throws {
        let root = try CertificateAuthority.makeRoot(commonName: "Other CA", key: .makeP256())
        let other = try CertificateAuthority.issue(
            commonName: "Other Split-SDK Server", key: .makeP256(), role: .signer, issuer: root)
        let otherID = try #require(SplitSDKServerID("MERCHANT-SPLIT-7"))
        let (lab, service) = try await Self.lab(
            TestLabOptions(useTLS: false, splitSDKServers: [otherID: other.certificate]))
        defer { try? service.cleanup() }
        let registered = try Self.split(try Self.areq(service, .v2_3_1), lab: lab, id: otherID, identity: other)
        if case .ares = await Self.send(lab, registered.json) {} else { Issue.record("a registered server refused") }
        let unknown = try Self.split(
            try Self.areq(service, .v2_3_1), lab: lab, id: try #require(SplitSDKServerID("NOBODY")), identity: other)
        #expect(Self.is308(await Self.send(lab, unknown.json)))
        // The lab's own ID, signed with another key: the signature does not verify with the registered certificate.
        let forged = try Self.split(try Self.areq(service, .v2_3_1), lab: lab, identity: other)
        #expect(Self.is308(await Self.send(lab, forged.json)))
        await lab.stop()
    }

    @Test(
        "308 when the body does not match the AReq: another sdkTransID or reference number, a stale timestamp, another sdkSignatureTimestamp"
    )
    func bodyMismatch() async throws {
        let (lab, service) = try await Self.lab()
        defer { try? service.cleanup() }
        let first = try Self.split(try Self.areq(service, .v2_3_1), lab: lab)
        var otherTransaction = try Self.split(try Self.areq(service, .v2_3_1), lab: lab).json
        otherTransaction["sdkServerSignedContent"] = first.json["sdkServerSignedContent"]
        otherTransaction["sdkSignatureTimestamp"] = first.json["sdkSignatureTimestamp"]
        #expect(Self.is308(await Self.send(lab, otherTransaction)))
        var otherReference = first.json
        otherReference["sdkReferenceNumber"] = .string("3DS_LOA_SDK_OTHR_020300_00002")
        #expect(Self.is308(await Self.send(lab, otherReference)))
        let stale = try Self.split(try Self.areq(service, .v2_3_1), lab: lab, date: Date(timeIntervalSinceNow: -301))
        #expect(Self.is308(await Self.send(lab, stale.json)))
        let future = try Self.split(try Self.areq(service, .v2_3_1), lab: lab, date: Date(timeIntervalSinceNow: 400))
        #expect(Self.is308(await Self.send(lab, future.json)))
        var stamp = try Self.split(try Self.areq(service, .v2_3_1), lab: lab).json
        stamp["sdkSignatureTimestamp"] = .string("20200101000000")
        #expect(Self.is308(await Self.send(lab, stamp)))
        var tampered = try Self.split(try Self.areq(service, .v2_3_1), lab: lab).json
        let parts = (tampered["sdkServerSignedContent"]?.stringValue ?? "").split(separator: ".").map(String.init)
        tampered["sdkServerSignedContent"] = .string(parts[0] + "." + parts[1] + "." + String(parts[2].reversed()))
        #expect(Self.is308(await Self.send(lab, tampered)))
        await lab.stop()
    }

    @Test("the fault profiles split-bad-signature and split-unknown-server answer 308; a Default-SDK AReq on them runs")
    func faultProfiles() async throws {
        let (lab, service) = try await Self.lab()
        defer { try? service.cleanup() }
        for (name, fault) in [
            ("split-bad-signature", SplitSDKFault.badSignature), ("split-unknown-server", .unknownServer),
        ] {
            let profile = try #require(ACSFaultProfile.all.first { $0.name == name })
            #expect(profile.splitFault == fault && profile.plantedRules(.v2_3_1).isEmpty)
            let split = try Self.split(try Self.areq(service, .v2_3_1, card: profile.cardNumber), lab: lab)
            #expect(Self.is308(await Self.send(lab, split.json)), "\(name)")
            if case .ares = await Self.send(lab, try Self.areq(service, .v2_3_1, card: profile.cardNumber).json) {
            } else {
                Issue.record("\(name): a Default-SDK AReq was refused")
            }
        }
        // The DS's Erro: component D, code 308, about the AReq, naming the transaction.
        let profile = try #require(ACSFaultProfile.all.first { $0.name == "split-unknown-server" })
        let split = try Self.split(try Self.areq(service, .v2_3_1, card: profile.cardNumber), lab: lab)
        do {
            _ = try await lab.handleAuthentication(split.json.serializedBytes)
            Issue.record("the split AReq on split-unknown-server was accepted")
        } catch let refusal as DirectoryServerRefusal {
            let erro = refusal.erro(version: .v2_3_1)
            #expect(erro.errorCode == ProtocolErrorCode.splitSDKSignedContentNotVerified)
            #expect(erro.errorComponent == ErrorComponent.directoryServer)
            #expect(erro.errorMessageType == MessageType.authenticationRequest)
            #expect(erro.errorDetail == "sdkServerSignedContent" && erro.sdkTransID == split.sdkTransactionID)
            #expect(erro.json["errorCode"] == .string("308") && erro.json["errorComponent"] == .string("D"))
        }
        await lab.stop()
    }

    @Test(
        "refused by the 3DS Server: split fields before 2.3.1, a missing or malformed splitSdkType, no signed content, defaultSdkType with 02, split fields with 01"
    )
    func refusals() async throws {
        let (lab, service) = try await Self.lab()
        defer { try? service.cleanup() }
        let good = try Self.split(try Self.areq(service, .v2_3_1), lab: lab).json
        for version in [MessageVersion.v2_1_0, .v2_2_0] {
            var object = try Self.areq(service, version).json
            for name in ["sdkType", "splitSdkType", "sdkServerSignedContent", "sdkSignatureTimestamp"] {
                object[name] = good[name]
            }
            #expect(Self.isInvalid(await Self.send(lab, object)), "\(version)")
            var onlyContent = try Self.areq(service, version).json
            onlyContent["sdkServerSignedContent"] = good["sdkServerSignedContent"]
            #expect(Self.isInvalid(await Self.send(lab, onlyContent)), "\(version)")
        }
        let changes: [[String: JSONValue?]] = [
            ["splitSdkType": nil], ["splitSdkType": .string("01")],
            ["splitSdkType": .object(["sdkVariant": .string("1"), "limitedInd": .string("N")])],
            ["splitSdkType": .object(["sdkVariant": .string("01"), "limitedInd": .string("maybe")])],
            ["sdkServerSignedContent": nil], ["sdkServerSignedContent": .string("")],
            ["sdkServerSignedContent": .number("1")],
            ["defaultSdkType": .object(["sdkVariant": .string("01"), "wrappedInd": .string("N")])],
            ["sdkSignatureTimestamp": .string("2026-11-28")], ["sdkType": .string("03")],
        ]
        for change in changes {
            var object = good
            for (name, value) in change { object[name] = value }
            #expect(Self.isInvalid(await Self.send(lab, object)), "\(change)")
        }
        var defaultWithSplit = try Self.areq(service, .v2_3_1).json
        defaultWithSplit["splitSdkType"] = good["splitSdkType"]
        #expect(Self.isInvalid(await Self.send(lab, defaultWithSplit)))
        await lab.stop()
    }
}
