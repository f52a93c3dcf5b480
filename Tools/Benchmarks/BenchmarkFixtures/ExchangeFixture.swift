import Crypto
import Foundation
public import ThreeDS2ACSKit
public import ThreeDS2JOSE
public import ThreeDS2Messages

/// The challenge messages of one transaction: its identifiers, the SDK's CReq builder and the CRes an ACS sends with
/// the code screen, sealed under the fixtures' channel key.
public struct ExchangeFixture: Sendable {
    /// The transaction's four identifiers.
    public let identifiers: TransactionIdentifiers
    /// The SDK's CReq builder for the transaction.
    public let builder: ChallengeRequestBuilder
    /// The CRes of the code screen (counter 1), as an object and as its compact JWE bytes.
    public let cresObject: JSONObject
    /// The same CRes sealed, as compact JWE bytes.
    public let cresBytes: [UInt8]

    /// Builds the identifiers and the builder, and seals the code-screen CRes.
    public init(_ fixtures: Fixtures) throws {
        identifiers = TransactionIdentifiers(
            threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: fixtures.acsTransID,
            sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")
        builder = ChallengeRequestBuilder(
            identifiers: identifiers, messageVersion: .v2_2_0, requestorAppURL: "shop://checkout")
        cresObject = Self.codeScreen(identifiers, acsCounter: 1).json
        cresBytes = try Self.seal(cresObject, fixtures)
    }

    /// The CRes with the code screen (2.2.0), as the typed builder writes it.
    public static func codeScreen(_ identifiers: TransactionIdentifiers, acsCounter: Int) -> ChallengeResponseBuilder {
        var screen = ChallengeScreen(uiType: .text, messageVersion: .v2_2_0)
        screen.header = "Confirm your payment"
        screen.infoText = "We sent a one-time code to your phone ending in 12.\nEnter it below."
        screen.infoLabel = "One-time code"
        screen.submitLabel = "Verify"
        screen.resendLabel = "Send a new code"
        screen.whyInfo = InformationSection(
            label: "Why am I asked this?", text: "Your bank checks that it is really you paying.")
        return ChallengeResponseBuilder(
            identifiers: identifiers, messageVersion: .v2_2_0, acsCounter: acsCounter, content: .screen(screen))
    }

    /// A CRes as the ACS sends it: the compact JWE (A128CBC-HS256 under the channel key) as HTTP body bytes.
    public static func seal(_ cres: JSONObject, _ fixtures: Fixtures) throws -> [UInt8] {
        Array(
            try JWE.encrypt(
                cres.serializedBytes, to: .direct(fixtures.channelKey), encryption: .a128cbcHS256,
                keyID: fixtures.acsTransID
            ).utf8)
    }

    /// What the SDK expects of the CRes answering CReq `counter`.
    public func expectation(acsCounter counter: Int) -> ChallengeResponseExpectation {
        ChallengeResponseExpectation(identifiers: identifiers, messageVersion: .v2_2_0, acsCounter: counter)
    }

    /// The SDK's side of one exchange: CReq `counter` built and encrypted, then `cres` decrypted, parsed and
    /// validated against `expectation`.
    public func exchange(
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
    public static func channel(_ fixtures: Fixtures) throws -> (JWE.DirectEncrypter, JWE.DirectDecrypter) {
        let encrypter = try JWE.DirectEncrypter(
            key: fixtures.channelKey, encryption: .a128cbcHS256, keyID: fixtures.acsTransID)
        let decrypter = try JWE.DirectDecrypter(
            keys: [.a128cbcHS256: fixtures.channelKey],
            expecting: JWE.Expectations(encryptions: [.a128cbcHS256], keyID: .exactly(fixtures.acsTransID)))
        return (encrypter, decrypter)
    }
}
