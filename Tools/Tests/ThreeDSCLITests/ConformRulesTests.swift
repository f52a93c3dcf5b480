import ArgumentParser
import Crypto
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@testable import threeds

/// Issue 47 (part B): plans that can say UI 06 and "no app opener", plan errors with their place, and the offline
/// audits of saved messages against conform's rules.
@Suite("threeds conform and inspect: UI 06, no app opener, plan positions, offline audits")
struct ConformRulesTests {
    @Test("a UI 06 card runs (htmlOutOfBand); without an app opener the CReqs announce none and no app switch runs")
    func htmlOutOfBandAndNoOpener() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-ui06")
        let answer: JSONObject = [
            "action": .string("submit"),
            "html": .object(["fields": .object([:]), "button": .string("I have approved")]),
        ]
        let card = JSONValue.object(
            JSONObject([
                ("name", .string("html oob")), ("card", .string(Scenario.htmlOutOfBand.cardNumber)),
                ("version", .string("2.3.1")), ("kind", .string("htmlOutOfBand")),
                ("answers", .array([.object(answer)])), ("suites", .array([.string("right"), .string("appSwitch")])),
            ]))
        let plan = try ConformTests.writePlan([card], in: directory)
        let extra = ["--requestor-app-url", "https://merchant.example/return", "--save-channel-keys-for", "127.0.0.1"]
        let opener = try await runThreeds(
            ConformTests.command(lab, pki, plan: plan, output: directory + "/opener", extra))
        #expect(opener.status == 0, "\(opener.output)")
        #expect(flattened(opener.output).contains("PASS html oob 2.3.1 right answer"), "\(opener.output)")
        #expect(flattened(opener.output).contains("PASS html oob 2.3.1 app switch"), "\(opener.output)")
        let none = try await runThreeds(
            ConformTests.command(lab, pki, plan: plan, output: directory + "/none", extra + ["--no-app-opener"]))
        #expect(none.status == 0, "\(none.output)")
        #expect(flattened(none.output).contains("run without an app opener"), "\(none.output)")
        let messages = directory + "/none/messages"
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: messages).sorted().first)
        let creq = try await runThreeds([
            "inspect", "creq", "\(messages)/\(folder)/creq-1.jwe", "--transaction-keys",
            "\(messages)/\(folder)/keys.json",
        ])
        #expect(creq.output.contains(#""oobAppURLInd": "03""#), "\(creq.output)")
    }

    @Test("a cancel answered with transStatus Y fails the cancel suite's behaviour check, no rule")
    func cancelAnsweredY() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-cancel-y")
        let profile = try #require(ACSFaultProfile.all.first { $0.name == "conform-cancel-authenticates" })
        guard case .object(var card) = ConformTests.card(profile, .v2_2_0) else {
            Issue.record("the profile's plan card is not a JSON object")
            return
        }
        card["suites"] = .array([.string("cancel")])
        let plan = try ConformTests.writePlan([.object(card)], in: directory)
        let run = try await runThreeds(ConformTests.command(lab, pki, plan: plan, output: directory + "/report"))
        #expect(run.status == 1, "\(run.output)")
        let report = try ConformTests.report(directory + "/report")
        let checks = (report["cases"]?.arrayValue ?? []).compactMap(\.objectValue)
            .flatMap { $0["checks"]?.arrayValue ?? [] }.compactMap(\.objectValue)
        let failed = checks.filter { $0["status"] == .string("failed") }.compactMap { $0["name"]?.stringValue }
        #expect(failed == ["challengeCancel is not answered with transStatus Y"], "\(checks)")
        #expect(report["rules"] == .array([]))
    }

    @Test("a plan that is not JSON, or not a JSON object, is refused with the line and column")
    func planPositions() async throws {
        let directory = scratchDirectory("conform-plan-position")
        let server = ["--server", "https://127.0.0.1:1", "--ds-id", "X", "--trust-bundle", directory]
        let malformed = directory + "/malformed.json"
        try Data("{\"cards\": [\n{\"card\":}]}".utf8).write(to: URL(fileURLWithPath: malformed))
        let array = directory + "/array.json"
        try Data("\n  [1, 2]".utf8).write(to: URL(fileURLWithPath: array))
        for (path, message) in [
            (malformed, "not JSON: unexpected character at line 2, column 9"),
            (array, "not a JSON object: the top level is array at line 2, column 3"),
        ] {
            let run = try await runThreeds(["conform", "--plan", path, "--output", directory + "/o"] + server)
            #expect(run.status == 2, "\(run.output)")
            #expect(flattened(run.output).contains(message), "\(run.output)")
        }
    }

    @Test("a plan card of a 2.3.1-only UI type (06, 07) with an older version is a plan error, not a run-time FAIL")
    func planKindNeedsVersion() throws {
        let directory = scratchDirectory("conform-plan-kind-version")
        for (kind, version) in [("htmlOutOfBand", "2.2.0"), ("information", "2.1.0")] {
            let path = directory + "/\(kind).json"
            let card = #"{"card": "4000000000001000", "version": "\#(version)", "kind": "\#(kind)"}"#
            try Data(#"{"cards": [\#(card)]}"#.utf8).write(to: URL(fileURLWithPath: path))
            do {
                _ = try ConformPlan.read(path)
                Issue.record("\(kind) with \(version) was accepted")
            } catch {
                #expect(readable(error).contains("\"kind\" \(kind) needs version 2.3.1"), "\(readable(error))")
            }
        }
    }

    /// A signed content the TestLab's ACS signer signs: its root, the JWS, and the SDK key it names.
    static func signed(acsURL: String, sdkKey: P256PublicJWK, in directory: String) throws -> (String, String) {
        let pki = try LabPKI.make()
        let acsKey = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey)
        let content = ACSSignedContent(acsURL: acsURL, acsEphemeralPublicKey: acsKey, sdkEphemeralPublicKey: sdkKey)
        guard case .p256(let ec) = pki.acsSignerEC.privateKey else { throw CLIError("not an EC signer") }
        let jws = try JWS.sign(
            content.json.serializedBytes, with: .es256(ec),
            certificateChain: [pki.acsSignerEC.certificate, pki.dsIntermediate.certificate, pki.dsRoot.certificate])
        let root = directory + "/root.pem"
        try Data(try pki.dsRoot.certificatePEM.utf8).write(to: URL(fileURLWithPath: root))
        let file = directory + "/signed.jws"
        try Data(jws.utf8).write(to: URL(fileURLWithPath: file))
        return (root, file)
    }

    @Test("inspect signed-content applies the payload rules: an http ACS URL or a foreign SDK key is never VALID")
    func signedContentPayload() async throws {
        let directory = scratchDirectory("inspect-payload")
        let sdkKey = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey)
        let (root, plain) = try Self.signed(acsURL: "http://acs.example/challenge", sdkKey: sdkKey, in: directory)
        let run = try await runThreeds(["inspect", "signed-content", plain, "--ds-root", root])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("acsSignedContent.acsURL.notHTTPS") && !run.output.contains("Verdict: VALID"))
        let other = scratchDirectory("inspect-payload-key")
        let (otherRoot, good) = try Self.signed(acsURL: "https://acs.example/challenge", sdkKey: sdkKey, in: other)
        let areq = other + "/areq.json"
        let foreign = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey)
        try Data(JSONObject([("sdkEphemPubKey", .object(foreign.jsonObject))]).serializedBytes).write(
            to: URL(fileURLWithPath: areq))
        let mismatch = try await runThreeds(["inspect", "signed-content", good, "--ds-root", otherRoot, "--areq", areq])
        #expect(mismatch.status == 1 && mismatch.output.contains("acsSignedContent.sdkEphemPubKey.mismatch"))
        let fine = try await runThreeds(["inspect", "signed-content", good, "--ds-root", otherRoot])
        #expect(fine.status == 0 && fine.output.contains("Verdict: VALID"), "\(fine.output)")
    }

    @Test("inspect audit: a saved ARes, its signed content and a plaintext CRes against conform's rules; --strict")
    func offlineAudit() async throws {
        let directory = scratchDirectory("inspect-audit")
        let sdkKey = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey)
        let (_, jws) = try Self.signed(acsURL: "http://acs.example/challenge", sdkKey: sdkKey, in: directory)
        let token = try String(contentsOfFile: jws, encoding: .utf8)
        let ares = directory + "/ares.json"
        try Data(
            JSONObject([
                ("messageVersion", .string("2.2.0")), ("transStatus", .string("C")),
                ("threeDSServerTransID", .string("8a880dc0-d2d2-4067-bcb1-b08d1690b26e")),
                ("acsTransID", .string("not-a-uuid")), ("acsReferenceNumber", .string("REF")),
                ("acsSignedContent", .string(token)),
            ]).serializedBytes
        ).write(to: URL(fileURLWithPath: ares))
        var cres: JSONObject = [
            "threeDSServerTransID": .string("8a880dc0-d2d2-4067-bcb1-b08d1690b26e"),
            "acsTransID": .string("d7c1ee99-9478-44a6-b1f2-391e29c6b340"),
            "sdkTransID": .string("b2385523-a66c-4907-ac3c-91848e8c0067"), "acsCounterAtoS": .string("000"),
            "messageType": .string("CRes"), "messageVersion": .string("2.3.1"), "challengeCompletionInd": .string("N"),
            "acsUiType": .string("02"), "challengeInfoHeader": .string("Header"), "challengeInfoLabel": .string("Pick"),
            "challengeInfoText": .string("Where to send the code"), "submitAuthenticationLabel": .string("Next"),
        ]
        cres["challengeSelectInfo"] = .array((0..<9).map { .object(JSONObject([("k\($0)", .string("Option"))])) })
        let plaintext = directory + "/cres-1.json"
        try Data(cres.serializedBytes).write(to: URL(fileURLWithPath: plaintext))
        let run = try await runThreeds(["inspect", "audit", ares, plaintext])
        #expect(run.status == 1, "\(run.output)")
        #expect(
            run.output.contains("ares.json: BROKEN — 2 rules: ares.transID.notUUID, acsSignedContent.acsURL.notHTTPS"))
        #expect(run.output.contains("cres-1.json: CONFORMS"), "\(run.output)")
        let strict = try await runThreeds(["inspect", "audit", plaintext, "--strict"])
        #expect(strict.status == 1 && strict.output.contains("cres.challengeSelectInfo.tooMany"), "\(strict.output)")
        let signedOnly = try await runThreeds(["inspect", "audit", jws])
        #expect(signedOnly.status == 1 && signedOnly.output.contains("acsSignedContent.acsURL.notHTTPS"))
    }

    @Test("inspect audit: --counter and --version are what the CRes is held to; --areq names the key; their refusals")
    func offlineAuditOptions() async throws {
        let directory = scratchDirectory("inspect-audit-options")
        let cres = directory + "/cres.json"
        try Data(
            JSONObject([
                ("threeDSServerTransID", .string("8a880dc0-d2d2-4067-bcb1-b08d1690b26e")),
                ("acsTransID", .string("d7c1ee99-9478-44a6-b1f2-391e29c6b340")),
                ("sdkTransID", .string("b2385523-a66c-4907-ac3c-91848e8c0067")), ("acsCounterAtoS", .string("001")),
                ("messageType", .string("CRes")), ("messageVersion", .string("2.2.0")),
                ("challengeCompletionInd", .string("Y")), ("transStatus", .string("Y")),
            ]).serializedBytes
        ).write(to: URL(fileURLWithPath: cres))
        // The CRes's own counter and version by default; what the options say when given.
        #expect(try InspectAudit.parse([cres]).audit(cres, sdkKey: nil).isEmpty)
        #expect(try InspectAudit.parse([cres, "--counter", "1"]).audit(cres, sdkKey: nil).isEmpty)
        let counter = try InspectAudit.parse([cres, "--counter", "0"]).audit(cres, sdkKey: nil).map(\.rule)
        #expect(counter == [.counterMismatch], "\(counter)")
        let version = try InspectAudit.parse([cres, "--version", "2.3.1"]).audit(cres, sdkKey: nil).map(\.rule)
        #expect(version.contains(.messageVersionMismatch), "\(version)")
        // Usage errors: exit 2, naming the option.
        let noKey = directory + "/areq.json"
        try Data(#"{"messageType":"AReq"}"#.utf8).write(to: URL(fileURLWithPath: noKey))
        let refusals: [([String], String)] = [
            (["--version", "9.9.9"], "--version must be 2.1.0, 2.2.0 or 2.3.1"),
            (["--counter", "256"], "--counter must be"),
            (["--areq", directory + "/none.json"], "no such file"), (["--areq", noKey], "carries no sdkEphemPubKey"),
        ]
        for (options, message) in refusals {
            let run = try await runThreeds(["inspect", "audit", cres] + options)
            #expect(run.status == 2 && flattened(run.output).contains(message), "\(options): \(run.output)")
        }
    }

    @Test(
        "inspect audit: a CRes with a wrong messageType or a member named twice gets its CRes rule; an Erro is refused")
    func offlineAuditKinds() throws {
        let directory = scratchDirectory("inspect-audit-kinds")
        let members: [(String, JSONValue)] = [
            ("threeDSServerTransID", .string("8a880dc0-d2d2-4067-bcb1-b08d1690b26e")),
            ("acsTransID", .string("d7c1ee99-9478-44a6-b1f2-391e29c6b340")),
            ("sdkTransID", .string("b2385523-a66c-4907-ac3c-91848e8c0067")), ("acsCounterAtoS", .string("001")),
            ("messageType", .string("CReq")), ("messageVersion", .string("2.2.0")),
            ("challengeCompletionInd", .string("Y")), ("transStatus", .string("Y")),
        ]
        let wrongType = directory + "/wrong-type.json"
        try Data(JSONObject(members).serializedBytes).write(to: URL(fileURLWithPath: wrongType))
        let command = try InspectAudit.parse([wrongType, "--counter", "1"])
        #expect(try command.audit(wrongType, sdkKey: nil).map(\.rule) == [.messageTypeNotCRes])
        let twice = directory + "/twice.json"
        let text = String(decoding: JSONObject(members).serializedBytes, as: UTF8.self)
        try Data((text.dropLast() + #","transStatus":"N"}"#).utf8).write(to: URL(fileURLWithPath: twice))
        #expect(try command.audit(twice, sdkKey: nil).map(\.rule) == [.payloadDuplicateMember])
        let erro = directory + "/erro.json"
        try Data(#"{"messageType":"Erro","errorCode":"203"}"#.utf8).write(to: URL(fileURLWithPath: erro))
        #expect(InspectAudit.kind(of: ["messageType": .string("Erro")]) == .other("Erro"))
        #expect(throws: CLIError.self) { try command.audit(erro, sdkKey: nil) }
    }
}
