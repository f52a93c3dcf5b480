import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

@Suite("Protocol values as types")
struct ProtocolValueTests {
    @Test("a transaction status keeps its letter, known or not, and decodes from an ARes field")
    func transactionStatus() throws {
        #expect(TransactionStatus.authenticated.rawValue == "Y" && "\(TransactionStatus.decoupled)" == "D")
        let unknown = TransactionStatus(rawValue: "Z")
        #expect(unknown.rawValue == "Z" && unknown != .authenticated)
        let statuses = [
            TransactionStatus.authenticated, .notAuthenticated, .unableToAuthenticate, .attempted,
            .challengeRequired, .decoupled, .rejected, .informational,
        ]
        #expect(statuses.map(\.rawValue).joined() == "YNUACDRI")
        struct ARes: Decodable { let transStatus: TransactionStatus }
        let decoded = try JSONDecoder().decode(ARes.self, from: Data(#"{"transStatus":"C"}"#.utf8))
        #expect(decoded.transStatus == .challengeRequired)
    }

    @Test("an Erro from a peer keeps an unknown code, component and message type, and serializes as it came")
    func erroValues() throws {
        let received: JSONObject = [
            "errorCode": .string("305"), "errorComponent": .string("X"),
            "errorDescription": .string("Transaction Data"),
            "errorDetail": .string("card"), "errorMessageType": .string("PReq"), "messageType": .string("Erro"),
            "messageVersion": .string("2.2.0"),
        ]
        let erro = try ErrorMessage(json: received)
        #expect(erro.errorCode == ProtocolErrorCode(rawValue: "305") && erro.errorCode.standardDescription == nil)
        #expect(erro.errorComponent.rawValue == "X" && erro.errorComponent != .acs)
        #expect(erro.errorMessageType == MessageType(rawValue: "PReq"))
        #expect(erro.json.serialized == received.serialized)
        #expect(MessageType(in: received) == .error && MessageType(in: ["messageType": .bool(true)]) == nil)
    }

    @Test("the Erro the SDK sends names itself, its component and the faulty message with the same bytes as before")
    func sentErro() {
        let ids = TransactionIdentifiers(
            threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
            acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340", sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")
        let sent = ErrorMessage(
            sdkViolation: ProtocolViolation(.decryptionFailure, detail: "acsCounterAtoS"),
            messageType: .challengeResponse, identifiers: ids, messageVersion: .v2_2_0)
        #expect(
            sent.json.serialized
                == #"{"threeDSServerTransID":"8a880dc0-d2d2-4067-bcb1-b08d1690b26e","#
                + #""acsTransID":"d7c1ee99-9478-44a6-b1f2-391e29c6b340","errorCode":"302","errorComponent":"C","#
                + #""errorDescription":"Data Decryption Failure","errorDetail":"acsCounterAtoS","#
                + #""errorMessageType":"CRes","messageType":"Erro","messageVersion":"2.2.0","#
                + #""sdkTransID":"b2385523-a66c-4907-ac3c-91848e8c0067"}"#)
        let codes: [ProtocolErrorCode] = [
            .messageReceivedInvalid, .messageVersionNotSupported, .requiredElementMissing,
            .criticalExtensionNotRecognised, .invalidFormat, .duplicateElement, .reservedValueNotRecognised,
            .transactionIDNotRecognised, .decryptionFailure, .transactionTimedOut,
        ]
        #expect(codes.map(\.rawValue) == ["101", "102", "201", "202", "203", "204", "207", "301", "302", "402"])
        #expect(codes.allSatisfy { $0.standardDescription != nil })
        let components: [ErrorComponent] = [.sdk, .threeDSServer, .directoryServer, .acs]
        #expect(components.map(\.rawValue).joined() == "CSDA")
        let types: [MessageType] = [
            .authenticationRequest, .authenticationResponse, .challengeRequest, .challengeResponse, .resultsRequest,
            .resultsResponse, .error,
        ]
        #expect(types.map(\.rawValue) == ["AReq", "ARes", "CReq", "CRes", "RReq", "RRes", "Erro"])
    }
}
