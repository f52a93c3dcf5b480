// The Swift half of the SDK Server Signed Content cross-check (Interop/split_peer.py), both directions.
//
//   jose-interop split-signed-content MATERIAL.json CASES.json OUT.json
//       verifies each token the peer signed with jwcrypto against the registered certificates of the material
//       ("PEER-EC": the EC signer, "PEER-RSA": the RSA signer) and writes what happened to each; then signs one body
//       with the material's EC signer (ES256, x5c [signer]) for the peer to verify.
//
// CASES.json: [{"id", "compact"}]. OUT.json: {"results": [{"id", "outcome": "ok", "body": {…}} or {"id", "outcome":
// "rejected", "code"}], "produced": {"compact", "body": {…}}}.

import Crypto
import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import X509

func splitSignedContent(materialPath: String, casesPath: String, outPath: String) throws {
    let material = try Material(path: materialPath)
    let registered: [String: Certificate] = [
        "PEER-EC": try material.certificate("ec_signer_pem"), "PEER-RSA": try material.certificate("rsa_signer_pem"),
    ]
    let casesValue = try JSONParser(limits: .init(maxBytes: 1 << 22)).parse(
        Array(try Data(contentsOf: URL(fileURLWithPath: casesPath))))
    guard let cases = casesValue.arrayValue else { throw ToolError("split cases is not an array") }
    var results: [JSONValue] = []
    for entry in cases {
        guard let id = entry.objectValue?["id"]?.stringValue, let compact = entry.objectValue?["compact"]?.stringValue
        else { throw ToolError("split case without id or compact") }
        do {
            let content = try SDKServerSignedContent.verify(compact) { registered[$0.rawValue] }
            results.append(.object(["id": .string(id), "outcome": .string("ok"), "body": .object(content.json)]))
        } catch {
            results.append(
                .object(["id": .string(id), "outcome": .string("rejected"), "code": .string("\(error.code)")]))
        }
    }
    let key = try P256.Signing.PrivateKey(pemRepresentation: try material.string("ec_signer_private_pem"))
    guard let timestamp = SDKSignatureTimestamp(text: "20261128120000"), let serverID = SplitSDKServerID("PEER-EC")
    else { throw ToolError("the produced body's timestamp or server ID") }
    let content = try SDKServerSignedContent(
        sdkReferenceNumber: "3DS_LOA_SDK_PEER_020100_00001", signatureTimestamp: timestamp,
        sdkTransactionID: "6e5cbf4c-3b1d-4a55-9f3e-2f9b7f6c1d20", serverID: serverID)
    let produced: JSONObject = [
        "compact": .string(try content.sign(key: key, certificateChain: [try material.certificate("ec_signer_pem")])),
        "body": .object(content.json),
    ]
    let out: JSONObject = ["results": .array(results), "produced": .object(produced)]
    try Data(out.serializedBytes).write(to: URL(fileURLWithPath: outPath))
}
