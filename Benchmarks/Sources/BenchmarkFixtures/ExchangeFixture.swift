import Crypto
import Foundation
package import ThreeDS2JOSE
package import ThreeDS2Messages

/// The challenge messages of one transaction: its identifiers, the SDK's CReq builder and the CRes an ACS sends with
/// the code screen, sealed under the fixtures' channel key.
package struct ExchangeFixture: Sendable {
    package let identifiers: TransactionIdentifiers
    package let builder: ChallengeRequestBuilder
    /// The CRes of the code screen (counter 1), as an object and as its compact JWE bytes.
    package let cresObject: JSONObject
    package let cresBytes: [UInt8]

    package init(_ fixtures: Fixtures) throws {
        identifiers = TransactionIdentifiers(
            threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: fixtures.acsTransID,
            sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")
        builder = ChallengeRequestBuilder(
            identifiers: identifiers, messageVersion: .v2_2_0, requestorAppURL: "shop://checkout")
        cresObject = [
            "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
            "acsTransID": .string(identifiers.acsTransID), "sdkTransID": .string(identifiers.sdkTransID),
            "acsCounterAtoS": .string("001"), "messageType": .string("CRes"), "messageVersion": .string("2.2.0"),
            "challengeCompletionInd": .string("N"),
            "acsUiType": .string("01"), "challengeInfoHeader": .string("Confirm your payment"),
            "challengeInfoText": .string("We sent a one-time code to your phone ending in 12.\nEnter it below."),
            "challengeInfoLabel": .string("One-time code"), "submitAuthenticationLabel": .string("Verify"),
            "resendInformationLabel": .string("Send a new code"),
            "whyInfoLabel": .string("Why am I asked this?"),
            "whyInfoText": .string("Your bank checks that it is really you paying."),
        ]
        cresBytes = try Self.seal(cresObject, fixtures)
    }

    /// A CRes as the ACS sends it: the compact JWE (A128CBC-HS256 under the channel key) as HTTP body bytes.
    package static func seal(_ cres: JSONObject, _ fixtures: Fixtures) throws -> [UInt8] {
        Array(
            try JWE.encrypt(
                cres.serializedBytes, to: .direct(fixtures.channelKey), encryption: .a128cbcHS256,
                keyID: fixtures.acsTransID
            ).utf8)
    }

    /// What the SDK expects of the CRes answering CReq `counter`.
    package func expectation(acsCounter counter: Int) -> ChallengeResponseExpectation {
        ChallengeResponseExpectation(identifiers: identifiers, messageVersion: .v2_2_0, acsCounter: counter)
    }

    /// The SDK's side of one exchange: CReq `counter` built and encrypted, then `cres` decrypted, parsed and
    /// validated against `expectation`.
    package func exchange(
        counter: Int, answer: ChallengeAnswer?, cres: [UInt8], expecting expectation: ChallengeResponseExpectation,
        encrypter: JWE.DirectEncrypter, decrypter: JWE.DirectDecrypter
    ) throws {
        let request = try builder.request(counter: counter, answer: answer)
        blackHole(
            try encrypter.encryptedBytes(
                request.serializedBytes,
                iv: ChannelKeys.counterIV(counter, encryption: .a128cbcHS256, fromSDK: true)))
        let plaintext = try decrypter.decrypt(bytes: cres).plaintext
        guard case .object(let object) = try JSONParser().parse(plaintext) else { preconditionFailure("not a CRes") }
        blackHole(try ChallengeResponseValidator.validate(object, expecting: expectation))
    }

    /// The SDK's channel for the exchange: A128CBC-HS256 under the fixtures' channel key, both ways.
    package static func channel(_ fixtures: Fixtures) throws -> (JWE.DirectEncrypter, JWE.DirectDecrypter) {
        let encrypter = try JWE.DirectEncrypter(
            key: fixtures.channelKey, encryption: .a128cbcHS256, keyID: fixtures.acsTransID)
        let decrypter = try JWE.DirectDecrypter(
            keys: [.a128cbcHS256: fixtures.channelKey],
            expecting: JWE.Expectations(encryptions: [.a128cbcHS256], keyID: .exactly(fixtures.acsTransID)))
        return (encrypter, decrypter)
    }
}
