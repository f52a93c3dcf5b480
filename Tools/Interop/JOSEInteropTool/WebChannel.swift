// The Swift half of the web client's channel cross-test (SplitSDK/WebClientTests/swift-channel.test.js).
//
//   jose-interop web-channel
//       line-based JSON on stdin and stdout. First line in: {"sdkEphemPubKey": JWK, "sdkReferenceNumber",
//       "acsTransID"} (the JavaScript client's key). The ACS kit's ACSChannel agrees the channel with a fresh key and
//       answers one line: {"acsEphemPubKey": JWK, "cres": [{"enc", "compact", "plaintext"}]}: one CRes under
//       A128CBC-HS256 and one under A128GCM, with the ACS counter IVs. Each further line in is a compact CReq the
//       client encrypted; it answers {"header": the protected header as sent, "encryption", "message": the CReq}
//       after the ACS's checks (kid, counter), or {"error": what the ACS refused}.

import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

func webChannel() throws {
    guard let first = readLine(strippingNewline: true),
        case .object(let hello) = try JSONParser().parse(first),
        case .object(let keyObject)? = hello["sdkEphemPubKey"],
        let reference = hello["sdkReferenceNumber"]?.stringValue, let acsTransID = hello["acsTransID"]?.stringValue
    else { throw ToolError("web-channel: the first line must be {sdkEphemPubKey, sdkReferenceNumber, acsTransID}") }
    var channel = try ACSChannel(
        identifiers: TransactionIdentifiers(
            threeDSServerTransID: "0b7a6f0e-8d2f-4a4e-9a53-31b1f7a0f0aa", acsTransID: acsTransID,
            sdkTransID: "3f0c1a2b-5d6e-4f70-8192-a3b4c5d6e7f8"),
        messageVersion: .v2_3_1, sdkEphemeralPublicKey: try P256PublicJWK(jsonObject: keyObject),
        sdkReferenceNumber: reference)
    var responses: [JSONValue] = []
    for encryption in [ContentEncryption.a128cbcHS256, .a128gcm] {
        let plaintext =
            #"{"messageType":"CRes","acsCounterAtoS":"00\#(channel.acsCounter)","challengeInfoText":"Code envoyé — رمز"}"#
        let compact = try channel.encrypt(bytes: Array(plaintext.utf8), encryption: encryption)
        responses.append(
            .object([
                "enc": .string(encryption.rawValue), "compact": .string(compact), "plaintext": .string(plaintext),
            ]))
    }
    let opening: JSONObject = [
        "acsEphemPubKey": .object(P256PublicJWK(channel.acsEphemeralPublicKey).jsonObject),
        "cres": .array(responses),
    ]
    writeLine(opening)
    while let line = readLine(strippingNewline: true) {
        do {
            let request = try channel.decrypt(line)
            try channel.acceptCounter(of: request.message)
            writeLine([
                "header": .string(request.header.serialized), "encryption": .string(request.encryption.rawValue),
                "message": .object(request.message),
            ])
        } catch {
            writeLine(["error": .string("\(error)")])
        }
    }
}

private func writeLine(_ object: JSONObject) {
    FileHandle.standardOutput.write(Data(object.serializedBytes + [0x0A]))
}
