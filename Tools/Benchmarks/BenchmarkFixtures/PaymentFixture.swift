import Crypto
public import Foundation
import ThreeDS2ACSKit
public import ThreeDS2JOSE
import ThreeDS2Messages

/// The client side of one whole payment, without the network: the ephemeral key and its JWK, the device data
/// encrypted to the directory server (RSA-OAEP-256), the ACS signed content checked (PS256 chain) and read, ECDH and
/// the channel keys, then two exchanges (the first CReq and the CRes with the code screen, the answer and the final
/// CRes). The CRes are encrypted once under the fixtures' channel keys (a fresh key per payment would need an ACS in
/// the loop); the derivation still runs every payment. The floor is the sum of the bare primitives of the same steps,
/// as in the rows before. The independent peer (`--peer`) does the same steps.
public struct PaymentFixture: Sendable {
    /// The keys, PKI and channel keys the payment uses.
    public let fixtures: Fixtures
    /// The transaction's identifiers and CReq builder.
    public let exchange: ExchangeFixture
    /// The ACS signed content the payment checks (PS256).
    public let signedContent: SignedContentCase
    /// The two CReq (the first, then the answer) and the two CRes (the code screen, then the final one).
    public let requests: [JSONObject]
    /// The two CRes as compact JWE bytes.
    public let cres: [[UInt8]]
    /// The two CRes cut into IV and ciphertext, for the floor.
    public let cresParts: [(iv: [UInt8], ciphertext: Data)]

    /// Builds the two CReq and seals the two CRes under the fixtures' channel keys.
    public init(_ fixtures: Fixtures, exchange: ExchangeFixture, signedContent: SignedContentCase) throws {
        self.fixtures = fixtures
        self.exchange = exchange
        self.signedContent = signedContent
        let identifiers = exchange.identifiers
        let finalCRes = ChallengeResponseBuilder(
            identifiers: identifiers, messageVersion: .v2_2_0, acsCounter: 1, content: .final(.authenticated)
        ).json
        let firstCRes = ExchangeFixture.codeScreen(identifiers, acsCounter: 0).json
        cres = try [firstCRes, finalCRes].map { try ExchangeFixture.seal($0, fixtures) }
        cresParts = try cres.map { try ivAndCiphertext(ofCompact: String(decoding: $0, as: UTF8.self)) }
        requests = try [
            exchange.builder.request(counter: 0, answer: nil),
            exchange.builder.request(counter: 1, answer: ChallengeAnswer(.submitText("123456"))),
        ]
    }

    /// The SDK's steps for one payment, through the same components the SDK runs.
    public func client() async throws {
        let key = P256.KeyAgreement.PrivateKey.ephemeral()
        blackHole(P256PublicJWK(key.publicKey).jsonString)
        blackHole(
            try JWE.encrypt(
                fixtures.deviceData, to: .rsaOAEP256(publicKeyDER: fixtures.dsRSAPublicDER), encryption: .a128cbcHS256)
        )
        let verified = try await fixtures.verifier.verify(signedContent.compact)
        let content = try ACSSignedContent(payload: verified.payload)
        let secret = try key.sharedSecretFromKeyAgreement(with: content.acsEphemeralPublicKey.keyAgreementKey)
        blackHole(
            ChannelKeys(sharedSecret: secret.withUnsafeBytes { Array($0) }, sdkReferenceNumber: fixtures.reference))
        // The keys the CRes were sealed under stand in for the ones just derived.
        let keys = fixtures.channelKeys
        let encrypter = try JWE.DirectEncrypter(
            key: keys.sdkToACS(.a128cbcHS256), encryption: .a128cbcHS256, keyID: fixtures.acsTransID)
        let decrypter = try JWE.DirectDecrypter(
            keys: keys.acsToSDKKeys, expecting: JWE.Expectations(keyID: .exactly(fixtures.acsTransID)))
        for counter in 0..<2 {
            try exchange.exchange(
                counter: counter, answer: counter == 0 ? nil : ChallengeAnswer(.submitText("123456")),
                cres: cres[counter], expecting: exchange.expectation(acsCounter: counter), encrypter: encrypter,
                decrypter: decrypter)
        }
    }

    /// The bare primitives of the same steps.
    public func floor() async throws {
        try fixtures.keyGenerationFloor()
        try fixtures.deviceDataRSAFloor()
        try await signedContent.floor()
        try fixtures.keyAgreementFloor()
        for counter in 0..<2 {
            try cbcSealFloor(requests[counter].serializedBytes, key: fixtures.channelKey, aadLength: 100)
            try cbcOpenFloor(
                cresParts[counter].ciphertext, iv: cresParts[counter].iv, key: fixtures.channelKey, aadLength: 100)
        }
    }
}
