// The Swift side of the JOSE interoperability check (run by Interop/jose_peer.py, see Interop/README.md).
//
//   jose-interop consume MATERIAL.json CASES.json RESULTS.json
//       decrypts / verifies every case the Python peer produced and writes what happened to each;
//   jose-interop produce MATERIAL.json OUT.json
//       encrypts and signs with every alg/enc combination to the peer's keys, for the peer to check;
//   jose-interop flows MATERIAL.json FLOWS.json OUT.json
//       answers the peer's encrypted CRes as the SDK does and encrypts the CReqs (ChallengeFlows.swift);
//   jose-interop web-channel
//       the ACS end of a channel with the web client's JavaScript, over stdin and stdout (WebChannel.swift);
//   jose-interop split-signed-content MATERIAL.json CASES.json OUT.json
//       the Split-SDK Server's signed content, verified and signed (SplitSignedContent.swift).
//
// MATERIAL.json holds the keys and certificates the peer generated (PEM and hex), so that neither side trusts
// anything the other side computed.

import Crypto
import Foundation
import SwiftASN1
import ThreeDS2JOSE
import X509
import _CryptoExtras

struct Material {
    let object: JSONObject

    init(path: String) throws {
        let value = try JSONParser(limits: .init(maxBytes: 1 << 22)).parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        guard let object = value.objectValue else { throw ToolError("material is not a JSON object") }
        self.object = object
    }

    func string(_ name: String) throws -> String {
        guard let value = object[name]?.stringValue else { throw ToolError("material member \(name) is missing") }
        return value
    }

    func hex(_ name: String) throws -> [UInt8] {
        let text = try string(name)
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { throw ToolError("bad hex in \(name)") }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    func certificate(_ name: String) throws -> Certificate { try Certificate(pemEncoded: try string(name)) }

    var directKeys: [ContentEncryption: SymmetricKey] {
        get throws {
            [
                .a128cbcHS256: SymmetricKey(data: try hex("direct_cbc_key_hex")),
                .a128gcm: SymmetricKey(data: try hex("direct_gcm_key_hex")),
            ]
        }
    }

    var dsRSAPrivateDER: [UInt8] {
        get throws {
            Array(try _RSA.Encryption.PrivateKey(pemRepresentation: try string("ds_rsa_private_pem")).derRepresentation)
        }
    }

    var dsRSAPublicDER: [UInt8] {
        get throws {
            Array(try _RSA.Encryption.PublicKey(pemRepresentation: try string("ds_rsa_public_pem")).derRepresentation)
        }
    }

    var dsECPrivate: P256.KeyAgreement.PrivateKey {
        get throws { try P256.KeyAgreement.PrivateKey(pemRepresentation: try string("ds_ec_private_pem")) }
    }

    var dsID: String { get throws { try string("ds_id") } }
}

struct ToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func decryptionKey(for testCase: JSONObject, material: Material) throws -> JWEDecryptionKey {
    switch testCase["alg"]?.stringValue {
    case "dir": return .direct(try material.directKeys)
    case "RSA-OAEP-256": return .rsaOAEP256(privateKeyDER: try material.dsRSAPrivateDER)
    case "ECDH-ES":
        let derivation: ECDHKeyDerivation =
            testCase["profile"]?.stringValue == "standard" ? .standard() : .emvco(partyVInfo: try material.dsID)
        return .ecdhES(try material.dsECPrivate, derivation: derivation)
    default: throw ToolError("case has no known alg")
    }
}

func consume(materialPath: String, casesPath: String, resultsPath: String) async throws {
    let material = try Material(path: materialPath)
    let casesValue = try JSONParser(limits: .init(maxBytes: 1 << 24)).parse(
        Array(try Data(contentsOf: URL(fileURLWithPath: casesPath))))
    guard let cases = casesValue.arrayValue else { throw ToolError("cases is not an array") }
    let verifier = try X5CVerifier(roots: [try material.certificate("root_pem")])
    var results: [JSONValue] = []
    for case .object(let testCase) in cases {
        guard let id = testCase["id"]?.stringValue, let compact = testCase["compact"]?.stringValue else {
            throw ToolError("case without id or compact")
        }
        var result: JSONObject = ["id": .string(id)]
        do {
            let output: [UInt8]
            if testCase["type"]?.stringValue == "jws" {
                output = try await verifier.verify(compact).payload
            } else {
                let encryptions = Set(
                    (testCase["accept_enc"]?.arrayValue ?? []).compactMap {
                        $0.stringValue.flatMap(ContentEncryption.init(rawValue:))
                    })
                let keyID: JWE.Expectations.KeyID = testCase["kid"]?.stringValue.map { .exactly($0) } ?? .any
                output = try JWE.decrypt(
                    compact, using: try decryptionKey(for: testCase, material: material),
                    expecting: .init(
                        encryptions: encryptions.isEmpty ? Set(ContentEncryption.allCases) : encryptions, keyID: keyID)
                ).plaintext
            }
            result["outcome"] = .string("ok")
            result["output_b64u"] = .string(Base64.urlEncode(output))
        } catch let error as JOSEError {
            result["outcome"] = .string("rejected")
            result["code"] = .string(error.code.description)
            result["detail"] = .string(error.message)
        }
        results.append(.object(result))
    }
    try Data(JSONValue.array(results).serializedBytes).write(to: URL(fileURLWithPath: resultsPath))
}

func produce(materialPath: String, outPath: String) throws {
    let material = try Material(path: materialPath)
    var cases: [JSONValue] = []
    let plaintext = Array(
        #"{"DV":"1.7","DD":{"C001":"Linux","C017":"20261122120000"},"DPNA":{"C011":"RE03"},"SW":[]}"#.utf8)
    let recipients: [(String, String?, JWERecipient)] = [
        ("dir", nil, .direct(SymmetricKey(data: []))),
        ("RSA-OAEP-256", nil, .rsaOAEP256(publicKeyDER: try material.dsRSAPublicDER)),
        (
            "ECDH-ES", "emvco",
            .ecdhES(try material.dsECPrivate.publicKey, derivation: .emvco(partyVInfo: try material.dsID))
        ),
        (
            "ECDH-ES", "standard",
            .ecdhES(
                try material.dsECPrivate.publicKey,
                derivation: .standard(partyUInfo: Array("swift".utf8), partyVInfo: Array("python".utf8)))
        ),
    ]
    for (alg, profile, recipient) in recipients {
        for encryption in ContentEncryption.allCases {
            var effective = recipient
            if case .direct = recipient { effective = .direct(try material.directKeys[encryption]!) }
            let kid = "kid-\(alg)-\(encryption.rawValue)"
            let compact = try JWE.encrypt(plaintext, to: effective, encryption: encryption, keyID: kid)
            var entry: JSONObject = [
                "id": .string("swift-jwe-\(alg)-\(profile ?? "none")-\(encryption.rawValue)"), "type": .string("jwe"),
                "alg": .string(alg), "enc": .string(encryption.rawValue), "kid": .string(kid),
                "compact": .string(compact),
                "plaintext_b64u": .string(Base64.urlEncode(plaintext)),
            ]
            if let profile { entry["profile"] = .string(profile) }
            cases.append(.object(entry))
        }
    }
    let chain = [try material.certificate("intermediate_pem"), try material.certificate("root_pem")]
    let payload = Array(#"{"acsURL":"https://127.0.0.1:8443/acs","acsEphemPubKey":{"kty":"EC","crv":"P-256"}}"#.utf8)
    let signers: [(String, JWSSigningKey, String)] = [
        (
            "PS256",
            .ps256(
                privateKeyDER: Array(
                    try _RSA.Signing.PrivateKey(pemRepresentation: try material.string("rsa_signer_private_pem"))
                        .derRepresentation)), "rsa_signer_pem"
        ),
        (
            "ES256",
            .es256(try P256.Signing.PrivateKey(pemRepresentation: try material.string("ec_signer_private_pem"))),
            "ec_signer_pem"
        ),
    ]
    for (alg, key, leafName) in signers {
        let compact = try JWS.sign(payload, with: key, certificateChain: [try material.certificate(leafName)] + chain)
        cases.append(
            .object([
                "id": .string("swift-jws-\(alg)"), "type": .string("jws"), "alg": .string(alg),
                "compact": .string(compact),
                "payload_b64u": .string(Base64.urlEncode(payload)),
            ]))
    }
    try Data(JSONValue.array(cases).serializedBytes).write(to: URL(fileURLWithPath: outPath))
}

let arguments = CommandLine.arguments
do {
    switch (arguments.count, arguments.dropFirst().first) {
    case (5, "consume"):
        try await consume(materialPath: arguments[2], casesPath: arguments[3], resultsPath: arguments[4])
    case (4, "produce"): try produce(materialPath: arguments[2], outPath: arguments[3])
    case (5, "flows"): try await flows(materialPath: arguments[2], flowsPath: arguments[3], outPath: arguments[4])
    case (2, "web-channel"): try webChannel()
    case (5, "split-signed-content"):
        try splitSignedContent(materialPath: arguments[2], casesPath: arguments[3], outPath: arguments[4])
    default:
        FileHandle.standardError.write(
            Data(
                ("usage: jose-interop consume MATERIAL CASES RESULTS | produce MATERIAL OUT | flows MATERIAL FLOWS OUT"
                    + " | web-channel | split-signed-content MATERIAL CASES OUT\n").utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("jose-interop: \(error)\n".utf8))
    exit(1)
}
