// The challenge-flow half of the interoperability check: the Python peer plays the ACS.
//
//   jose-interop flows MATERIAL.json FLOWS.json OUT.json
//
// FLOWS.json is an array of flows: {"id", "version", "opens_apps", "acs_trans_id", "steps": [{"cres": JWE, "enc",
// "answers": [answer objects of the `threeds pay --answers` format]}]}. For each flow this side does what the SDK
// does: the first CReq, then for each step it decrypts the CRes with the material's direct key, validates it as the
// SDK does, answers it through the scripted presenter (the shared form state), builds the CReq answering that screen
// and encrypts it (A128CBC-HS256, counter IV, kid = acsTransID). OUT.json gets, per flow, the CReqs and the first
// validation error, if any, for the peer to check against its own reading of the tables (and, in 2.2.0, of the
// bridging reference for the Bridging message extension).

import Crypto
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2TestLab

func flows(materialPath: String, flowsPath: String, outPath: String) async throws {
    let material = try Material(path: materialPath)
    let keys = try material.directKeys
    guard let requestKey = keys[.a128cbcHS256] else { throw ToolError("no CBC key") }
    let parsed = try JSONParser(limits: .init(maxBytes: 1 << 24)).parse(
        Array(try Data(contentsOf: URL(fileURLWithPath: flowsPath))))
    guard let list = parsed.arrayValue else { throw ToolError("flows must be an array") }
    var results: [JSONValue] = []
    for entry in list {
        guard let flow = entry.objectValue, let id = flow["id"]?.stringValue,
            let version = flow["version"]?.stringValue.flatMap({ MessageVersion($0) }),
            let acsTransID = flow["acs_trans_id"]?.stringValue, let steps = flow["steps"]?.arrayValue
        else { throw ToolError("malformed flow") }
        let opensApps = flow["opens_apps"]?.boolValue ?? true
        let identifiers = TransactionIdentifiers(
            threeDSServerTransID: try material.string("flow_server_trans_id"), acsTransID: acsTransID,
            sdkTransID: try material.string("flow_sdk_trans_id"))
        var builder = ChallengeRequestBuilder(
            identifiers: identifiers, messageVersion: version, requestorAppURL: "https://shop.example/return",
            oobAppURLIndicator: opensApps ? .supported : .notSupportedByDevice)
        var requests: [JSONValue] = []
        var failure: JSONValue = .null
        func send(_ request: JSONObject, counter: Int) throws {
            let compact = try JWE.encrypt(
                request.serializedBytes, to: .direct(requestKey), encryption: .a128cbcHS256, keyID: acsTransID,
                iv: ChannelKeys.counterIV(counter, encryption: .a128cbcHS256, fromSDK: true))
            requests.append(.string(compact))
        }
        try send(try builder.request(counter: 0, answer: nil), counter: 0)
        for (counter, stepValue) in steps.enumerated() {
            guard let step = stepValue.objectValue, let cres = step["cres"]?.stringValue,
                let enc = step["enc"]?.stringValue.flatMap(ContentEncryption.init(rawValue:)),
                let answers = step["answers"]?.arrayValue
            else { throw ToolError("malformed step in \(id)") }
            do {
                let plaintext = try JWE.decrypt(
                    cres, using: .direct(keys), expecting: .init(encryptions: [enc], keyID: .exactly(acsTransID))
                ).plaintext
                guard case .object(let object) = try JSONParser().parse(plaintext) else {
                    throw ToolError("CRes is not an object")
                }
                let response = try ChallengeResponseValidator.validate(
                    object,
                    expecting: ChallengeResponseExpectation(
                        identifiers: identifiers, messageVersion: version, acsCounter: counter,
                        opensOOBApps: opensApps, announcedBridging: builder.announcesBridging))
                guard case .screen(let screen) = response else { break }
                // As the SDK's state machine does: later CReqs use the Bridging version the ACS answered with.
                if let bridging = screen.bridging { builder.adoptBridging(bridging) }
                let script = try answers.map { value throws(TestLabError) -> ScriptedAnswer in
                    guard let answer = value.objectValue else { throw TestLabError(.malformedAnswers, "answer") }
                    return try ScriptedAnswer(json: answer)
                }
                let presenter = ScriptedPresenter(
                    answers: script, opensApps: opensApps, htmlReader: LibXML2FormReader())
                let answer = await presenter.present(
                    PresentationSettings().applying(presenter.presentationOverrides).formState(for: screen))
                if let problem = presenter.problems.first { throw ToolError("\(id): \(problem)") }
                try send(
                    try builder.request(counter: counter + 1, answer: answer, answering: screen), counter: counter + 1)
            } catch let violation as ProtocolViolation {
                failure = .object(["code": .string(violation.code.rawValue), "detail": .string(violation.detail)])
                break
            }
        }
        results.append(.object(["id": .string(id), "creqs": .array(requests), "error": failure]))
    }
    try Data(JSONValue.array(results).serializedBytes).write(to: URL(fileURLWithPath: outPath))
}
