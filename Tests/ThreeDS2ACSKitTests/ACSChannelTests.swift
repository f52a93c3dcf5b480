import Crypto
import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

/// The SDK's end of a channel, written out here from the keys alone, to check the ACS end against.
private struct SDKEnd {
    let key = P256.KeyAgreement.PrivateKey()
    let reference = "3DS_LOA_SDK_TEST_020300_00001"

    func keys(with channel: ACSChannel) throws -> ChannelKeys {
        let secret = try key.sharedSecretFromKeyAgreement(with: channel.acsEphemeralPublicKey).withUnsafeBytes {
            Array($0)
        }
        return ChannelKeys(sharedSecret: secret, sdkReferenceNumber: reference)
    }

    func creq(_ counter: Int, with channel: ACSChannel, keyID: String = ids.acsTransID) throws -> String {
        let object = try ChallengeRequestBuilder(
            identifiers: ids, messageVersion: .v2_2_0, requestorAppURL: nil
        ).request(counter: counter, answer: counter == 0 ? nil : ChallengeAnswer(.resend))
        return try JWE.encrypt(
            object.serializedBytes, to: .direct(try keys(with: channel).sdkToACS(.a128gcm)), encryption: .a128gcm,
            keyID: keyID, iv: ChannelKeys.counterIV(counter, encryption: .a128gcm, fromSDK: true))
    }
}

@Suite("ACS channel: key agreement, CReq decryption with the counter, CRes encryption under the counter IV")
struct ACSChannelTests {
    private func open(_ sdk: SDKEnd) throws -> ACSChannel {
        try ACSChannel(
            identifiers: ids, messageVersion: .v2_2_0, sdkEphemeralPublicKey: P256PublicJWK(sdk.key.publicKey),
            sdkReferenceNumber: sdk.reference)
    }

    @Test("the signed content names both keys; a CReq decrypts and its counter is taken once, in order")
    func requests() throws {
        let sdk = SDKEnd()
        var channel = try open(sdk)
        let content = channel.signedContent(acsURL: "https://acs.example/challenge")
        #expect(content.acsEphemeralPublicKey == P256PublicJWK(channel.acsEphemeralPublicKey))
        #expect(content.sdkEphemeralPublicKey == P256PublicJWK(sdk.key.publicKey))
        let first = try channel.decrypt(try sdk.creq(0, with: channel))
        #expect(first.encryption == .a128gcm && first.header["kid"] == .string(ids.acsTransID))
        #expect(first.message["sdkCounterStoA"] == .string("000"))
        #expect(ACSChannel.keyID(of: try sdk.creq(0, with: channel)) == ids.acsTransID)
        try channel.acceptCounter(of: first.message)
        #expect(channel.sdkCounter == 1)
        // A replay of CReq 000 is refused as a conforming ACS refuses it; the counter does not move.
        do {
            try channel.acceptCounter(of: first.message)
            Issue.record("a replayed counter was accepted")
        } catch {
            #expect(error.code == .decryptionFailure && error.detail == "sdkCounterStoA")
        }
        let second = try channel.decrypt(try sdk.creq(1, with: channel))
        try channel.acceptCounter(of: second.message)
        #expect(channel.sdkCounter == 2)
    }

    @Test("a CReq for another transaction, a tampered one, or a body that is no JWE is refused")
    func refusals() throws {
        let sdk = SDKEnd()
        let channel = try open(sdk)
        #expect(throws: JOSEError.self) { try channel.decrypt(try sdk.creq(0, with: channel, keyID: ids.sdkTransID)) }
        var tampered = Array(try sdk.creq(0, with: channel).utf8)
        tampered[tampered.count - 3] = tampered[tampered.count - 3] == UInt8(ascii: "A") ? 66 : 65
        #expect(throws: JOSEError.self) { try channel.decrypt(String(decoding: tampered, as: UTF8.self)) }
        #expect(ACSChannel.keyID(of: "not.a.jwe") == nil && ACSChannel.keyID(of: "") == nil)
        let other = try open(SDKEnd())
        #expect(throws: JOSEError.self) { try other.decrypt(try sdk.creq(0, with: channel)) }
    }

    @Test("CRes messages are encrypted under the ACS→SDK key with counter IVs 0xFF…00, 0xFF…01, and validate")
    func responses() throws {
        let sdk = SDKEnd()
        var channel = try open(sdk)
        let keys = try sdk.keys(with: channel)
        for (counter, encryption) in [(0, ContentEncryption.a128cbcHS256), (1, .a128gcm)] {
            let response = channel.response(.screen(fullScreen(.text, .v2_2_0)))
            #expect(response.acsCounter == counter)
            let compact = try channel.encrypt(response, encryption: encryption)
            let iv = try Base64.urlDecode(compact.split(separator: ".", omittingEmptySubsequences: false)[2])
            #expect(iv == ChannelKeys.counterIV(counter, encryption: encryption, fromSDK: false))
            let decrypted = try JWE.decrypt(
                compact, using: .direct(keys.acsToSDKKeys), expecting: .init(keyID: .exactly(ids.acsTransID)))
            guard case .object(let object) = try JSONParser().parse(decrypted.plaintext) else {
                Issue.record("the CRes is not an object")
                return
            }
            let expecting = ChallengeResponseExpectation(
                identifiers: ids, messageVersion: .v2_2_0, acsCounter: counter, opensOOBApps: true,
                announcedBridging: true)
            #expect(
                try ChallengeResponseValidator.validate(object, expecting: expecting)
                    == .screen(fullScreen(.text, .v2_2_0)))
        }
        #expect(channel.acsCounter == 2)
    }

    @Test("an Erro posted as plain JSON is recognised; anything else is not")
    func errorMessages() {
        let erro: JSONObject = ["messageType": .string("Erro"), "errorCode": .string("402")]
        #expect(ACSChannel.errorMessage(in: erro.serializedBytes) == erro)
        let creq: JSONObject = ["messageType": .string("CReq")]
        #expect(ACSChannel.errorMessage(in: creq.serializedBytes) == nil)
        #expect(ACSChannel.errorMessage(in: Array("eyJ.a.b.c.d".utf8)) == nil)
    }
}
