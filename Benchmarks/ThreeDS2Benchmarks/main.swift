// Benchmarks: each composite JOSE operation of the SDK against the bare swift-crypto / swift-certificates
// operations it is built from, measured in the same run, interleaved, and reported as a ratio.
//
//   swift run -c release threeds-benchmarks [--quick] [--only TEXT]
//
// The goal is a ratio of at most 1.3 for every composite. The floor is what any implementation must do
// (the key operations, the cipher and MAC over the same bytes, the certificate parsing and path validation);
// the composite adds encoding, header handling and the checks.

import Crypto
import Foundation
import Logging
import SwiftASN1
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab
import X509
@_spi(FixedExpiryValidationTime) import X509
import _CryptoExtras

struct Measurement {
    let name: String
    let composite: Duration
    let floor: Duration
    var ratio: Double { seconds(composite) / seconds(floor) }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func format(_ duration: Duration) -> String {
    let value = seconds(duration)
    return value >= 1e-3 ? String(format: "%8.3f ms", value * 1e3) : String(format: "%8.2f µs", value * 1e6)
}

/// Times `iterations` calls of `body`; returns the per-call time. Synchronous, so nothing but the body is timed:
/// an async closure formed in top-level code would hop to the main actor and back on every call.
func timePerCall(iterations: Int, _ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try body() }
    return (clock.now - start) / iterations
}

/// The async form, for operations that are async themselves (certificate path validation). The bodies are
/// `@Sendable`, so not isolated to the main actor as closures written in top-level code otherwise are: each call
/// then runs on the caller's executor instead of hopping to the main thread and back (two thread switches that an
/// SDK call from a task does not pay, and which took a third of the signed-content rows).
func timePerCall(iterations: Int, _ body: @Sendable () async throws -> Void) async rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try await body() }
    return (clock.now - start) / iterations
}

func median(_ samples: [Duration]) -> Duration { samples.sorted()[samples.count / 2] }

func selected(_ name: String) -> Bool {
    if let only, !name.localizedCaseInsensitiveContains(only) { return false }
    FileHandle.standardError.write(Data("measuring \(name)\n".utf8))
    return true
}

/// Measures composite and floor alternately, round by round, so drift affects both alike.
func compare(
    _ name: String, rounds: Int, iterations: Int, composite: () throws -> Void, floor: () throws -> Void
) throws -> Measurement? {
    guard selected(name) else { return nil }
    for _ in 0..<max(1, iterations / 4) {
        try composite()
        try floor()
    }
    var compositeSamples: [Duration] = []
    var floorSamples: [Duration] = []
    for _ in 0..<rounds {
        compositeSamples.append(try timePerCall(iterations: iterations, composite))
        floorSamples.append(try timePerCall(iterations: iterations, floor))
    }
    return Measurement(name: name, composite: median(compositeSamples), floor: median(floorSamples))
}

/// ``compare(_:rounds:iterations:composite:floor:)`` for async operations.
func compareAsync(
    _ name: String, rounds: Int, iterations: Int, composite: @Sendable () async throws -> Void,
    floor: @Sendable () async throws -> Void
) async throws -> Measurement? {
    guard selected(name) else { return nil }
    for _ in 0..<max(1, iterations / 4) {
        try await composite()
        try await floor()
    }
    var compositeSamples: [Duration] = []
    var floorSamples: [Duration] = []
    for _ in 0..<rounds {
        compositeSamples.append(try await timePerCall(iterations: iterations, composite))
        floorSamples.append(try await timePerCall(iterations: iterations, floor))
    }
    return Measurement(name: name, composite: median(compositeSamples), floor: median(floorSamples))
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

let quick = CommandLine.arguments.contains("--quick")
/// `--only TEXT` runs only the measurements whose name contains TEXT.
let only = CommandLine.arguments.firstIndex(of: "--only").flatMap { index in
    CommandLine.arguments.indices.contains(index + 1) ? CommandLine.arguments[index + 1] : nil
}
let rounds = quick ? 3 : 15
func scaled(_ iterations: Int) -> Int { quick ? max(1, iterations / 20) : iterations }

var results: [Measurement?] = []

// 1. P-256 key generation: a fresh SDK ephemeral key and its JWK, against the bare scalar multiplication and the
//    affine coordinates of its result (the scalar drawn once, outside the loop).
let fixedScalar = P256.KeyAgreement.PrivateKey.ephemeral().rawRepresentation
func keyGenerationFloor() throws {
    blackHole(try P256.KeyAgreement.PrivateKey(rawRepresentation: fixedScalar).publicKey.rawRepresentation)
}
results.append(
    try compare(
        "P-256 key generation + JWK", rounds: rounds, iterations: scaled(2000),
        composite: { blackHole(P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey).jsonString) },
        floor: keyGenerationFloor))

// 2. ECDH + Concat KDF (EMVCo profile), against ECDH plus one SHA-256 over the same KDF input.
let sdkKey = P256.KeyAgreement.PrivateKey()
let acsKey = P256.KeyAgreement.PrivateKey().publicKey
let reference = "3DS_LOA_SDK_PPFU_020100_00007"
let kdfInputLength = 4 + 32 + 4 + 4 + 4 + reference.utf8.count + 4
func keyAgreementFloor() throws {
    let secret = try sdkKey.sharedSecretFromKeyAgreement(with: acsKey)
    blackHole(
        secret.withUnsafeBytes {
            SHA256.hash(data: Array($0) + [UInt8](repeating: 0, count: kdfInputLength - 32))
        })
}
results.append(
    try compare(
        "ECDH + Concat KDF", rounds: rounds, iterations: scaled(2000),
        composite: {
            let secret = try sdkKey.sharedSecretFromKeyAgreement(with: acsKey)
            blackHole(ConcatKDF.emvcoKey(sharedSecret: secret.withUnsafeBytes { Array($0) }, partyVInfo: reference))
        },
        floor: keyAgreementFloor))

// 3. Device data: a 2 KB JWE to an RSA-2048 and to a P-256 directory-server key.
let deviceData = [UInt8](repeating: UInt8(ascii: "a"), count: 2048)
let dsRSA = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
let dsRSAPublicDER = Array(dsRSA.publicKey.derRepresentation)
let dsEC = P256.KeyAgreement.PrivateKey()

func cbcFloor(_ plaintext: [UInt8], key: SymmetricKey, aadLength: Int) throws {
    let (mac, enc) = key.withUnsafeBytes { (SymmetricKey(data: $0[0..<16]), SymmetricKey(data: $0[16..<32])) }
    let iv = try AES._CBC.IV(ivBytes: [UInt8](repeating: 1, count: 16))
    let ciphertext = try AES._CBC.encrypt(plaintext, using: enc, iv: iv)
    blackHole(
        HMAC<SHA256>.authenticationCode(for: [UInt8](repeating: 0, count: aadLength + 16 + 8) + ciphertext, using: mac))
}

func cbcOpenFloor(_ ciphertext: Data, iv: [UInt8], key: SymmetricKey, aadLength: Int) throws {
    let (mac, enc) = key.withUnsafeBytes { (SymmetricKey(data: $0[0..<16]), SymmetricKey(data: $0[16..<32])) }
    blackHole(
        HMAC<SHA256>.authenticationCode(for: [UInt8](repeating: 0, count: aadLength + 16 + 8) + ciphertext, using: mac))
    blackHole(try AES._CBC.decrypt(ciphertext, using: enc, iv: AES._CBC.IV(ivBytes: iv)))
}

func deviceDataRSAFloor() throws {
    let publicKey = try _RSA.Encryption.PublicKey(derRepresentation: dsRSAPublicDER)
    let cek = SymmetricKey(size: .bits256)
    blackHole(try cek.withUnsafeBytes { try publicKey.encrypt(Array($0), padding: .PKCS1_OAEP_SHA256) })
    try cbcFloor(deviceData, key: cek, aadLength: 60)
}

results.append(
    try compare(
        "device data JWE 2 KB, RSA-OAEP-256", rounds: rounds, iterations: scaled(500),
        composite: {
            blackHole(
                try JWE.encrypt(deviceData, to: .rsaOAEP256(publicKeyDER: dsRSAPublicDER), encryption: .a128cbcHS256))
        },
        floor: deviceDataRSAFloor))

results.append(
    try compare(
        "device data JWE 2 KB, ECDH-ES P-256", rounds: rounds, iterations: scaled(1000),
        composite: {
            blackHole(
                try JWE.encrypt(
                    deviceData, to: .ecdhES(dsEC.publicKey, derivation: .emvco(partyVInfo: "A000000004")),
                    encryption: .a128cbcHS256))
        },
        floor: {
            let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: fixedScalar)
            let secret = try ephemeral.sharedSecretFromKeyAgreement(with: dsEC.publicKey)
            let cek = SymmetricKey(
                data: secret.withUnsafeBytes { SHA256.hash(data: Array($0) + [UInt8](repeating: 0, count: 30)) })
            try cbcFloor(deviceData, key: cek, aadLength: 190)
        }))

// 4. CReq encrypt + CRes decrypt of 1 KB, in both content encryptions.
let message = [UInt8](repeating: UInt8(ascii: "b"), count: 1024)
let channelKey = SymmetricKey(size: .bits256)
let acsTransID = "d7c1ee99-9478-44a6-b1f2-391e29c6b340"
let cresCBC = try JWE.encrypt(message, to: .direct(channelKey), encryption: .a128cbcHS256, keyID: acsTransID)
let cresCBCParts = cresCBC.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
let cresCBCCiphertext = Data(try Base64.urlDecode(cresCBCParts[3]))
let cresCBCIV = try Base64.urlDecode(cresCBCParts[2])
let gcmKeyStoA = channelKey.withUnsafeBytes { SymmetricKey(data: $0[0..<16]) }
let gcmKeyAtoS = channelKey.withUnsafeBytes { SymmetricKey(data: $0[16..<32]) }
let cresGCM = try JWE.encrypt(message, to: .direct(gcmKeyAtoS), encryption: .a128gcm, keyID: acsTransID)
let cresGCMParts = cresGCM.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
let cresGCMIV = try Base64.urlDecode(cresGCMParts[2])
let cresGCMCiphertext = try Base64.urlDecode(cresGCMParts[3])
let cresGCMTag = try Base64.urlDecode(cresGCMParts[4])
let cresGCMAAD = Array(cresGCMParts[0].utf8)
let expectCBC = JWE.Expectations(encryptions: [.a128cbcHS256], keyID: .exactly(acsTransID))

// The SDK's channel prepares its keys and CReq header once per transaction (JWE.DirectEncrypter/DirectDecrypter),
// sends counter IVs and works on HTTP body bytes; the one-shot JWE API checks and splits the key and builds the
// header for every message, and works on strings. The floors seal with a fixed IV as well.
let counterIVCBC = ChannelKeys.counterIV(1, encryption: .a128cbcHS256, fromSDK: true)
let counterIVGCM = ChannelKeys.counterIV(1, encryption: .a128gcm, fromSDK: true)
let channelEncrypterCBC = try JWE.DirectEncrypter(key: channelKey, encryption: .a128cbcHS256, keyID: acsTransID)
var channelDecrypterCBC = try JWE.DirectDecrypter(keys: [.a128cbcHS256: channelKey], expecting: expectCBC)

func cbcPairFloor() throws {
    try cbcFloor(message, key: channelKey, aadLength: 100)
    try cbcOpenFloor(cresCBCCiphertext, iv: cresCBCIV, key: channelKey, aadLength: 100)
}

func gcmPairFloor() throws {
    blackHole(
        try AES.GCM.seal(
            message, using: gcmKeyStoA, nonce: AES.GCM.Nonce(data: counterIVGCM),
            authenticating: [UInt8](repeating: 0, count: 100)))
    // The CRes side: the sealed box is assembled from its parts, as any decryption must.
    let box = try AES.GCM.SealedBox(
        nonce: AES.GCM.Nonce(data: cresGCMIV), ciphertext: cresGCMCiphertext, tag: cresGCMTag)
    blackHole(try AES.GCM.open(box, using: gcmKeyAtoS, authenticating: cresGCMAAD))
}

struct ChannelCase {
    let encryption: ContentEncryption
    let sendKey: SymmetricKey
    let receiveKey: SymmetricKey
    let cres: String
    let iv: [UInt8]
    let floor: () throws -> Void
}
let channelCases = [
    ChannelCase(
        encryption: .a128cbcHS256, sendKey: channelKey, receiveKey: channelKey, cres: cresCBC, iv: counterIVCBC,
        floor: cbcPairFloor),
    ChannelCase(
        encryption: .a128gcm, sendKey: gcmKeyStoA, receiveKey: gcmKeyAtoS, cres: cresGCM, iv: counterIVGCM,
        floor: gcmPairFloor),
]
for item in channelCases {
    let encrypter = try JWE.DirectEncrypter(key: item.sendKey, encryption: item.encryption, keyID: acsTransID)
    let decrypter = try JWE.DirectDecrypter(
        keys: [item.encryption: item.receiveKey],
        expecting: JWE.Expectations(encryptions: [item.encryption], keyID: .exactly(acsTransID)))
    let cresBytes = Array(item.cres.utf8)
    results.append(
        try compare(
            "CReq encrypt + CRes decrypt 1 KB, \(item.encryption.rawValue)", rounds: rounds,
            iterations: scaled(5000),
            composite: {
                blackHole(try encrypter.encryptedBytes(message, iv: item.iv))
                blackHole(try decrypter.decrypt(bytes: cresBytes))
            },
            floor: item.floor))
}
for item in channelCases {
    let expectations = JWE.Expectations(encryptions: [item.encryption], keyID: .exactly(acsTransID))
    results.append(
        try compare(
            "  the same through one-shot JWE calls, \(item.encryption.rawValue)", rounds: rounds,
            iterations: scaled(5000),
            composite: {
                blackHole(
                    try JWE.encrypt(
                        message, to: .direct(item.sendKey), encryption: item.encryption, keyID: acsTransID, iv: item.iv)
                )
                blackHole(
                    try JWE.decrypt(
                        item.cres, using: .direct([item.encryption: item.receiveKey]), expecting: expectations))
            },
            floor: item.floor))
}

// 5. ACS signed content: x5c chain of three certificates to the DS root, then the signature.
let root = try CertificateAuthority.makeRoot(commonName: "Bench DS Root", key: .makeRSA())
let intermediate = try CertificateAuthority.issue(
    commonName: "Bench DS CA", key: .makeRSA(), role: .authority(pathLength: 0), issuer: root)
// The payload an ACS signs: its URL and a fresh ephemeral key (the SDK's key is checked by the SDK, not here).
let benchACSKey = P256.KeyAgreement.PrivateKey.ephemeral()
let contentPayload = ACSSignedContent(
    acsURL: "https://127.0.0.1:8443/acs", acsEphemeralPublicKey: P256PublicJWK(benchACSKey.publicKey),
    sdkEphemeralPublicKey: P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey)
).json.serializedBytes
let verifier = try X5CVerifier(roots: [root.certificate])

/// One signed content and the bare work of checking it: the three certificates parsed, the path validated, the
/// signature verified with the leaf key. (The signing input and signature are cut out once, here: `String.split`
/// walks characters, and on 5 KB it costs as much as the chain.)
struct SignedContentCase: Sendable {
    let compact: String
    let ders: [[UInt8]]
    let signerKey: LabPrivateKey
    let roots: CertificateStore
    let signingInput: [UInt8]
    let signature: [UInt8]

    init(compact: String, ders: [[UInt8]], signerKey: LabPrivateKey, roots: CertificateStore) throws {
        self.compact = compact
        self.ders = ders
        self.signerKey = signerKey
        self.roots = roots
        let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        signingInput = Array(compact.utf8[parts[0].startIndex..<parts[1].endIndex])
        signature = try Base64.urlDecode(String(decoding: parts[2], as: UTF8.self))
    }

    func floor() async throws {
        let certificates = try ders.map { try Certificate(derEncoded: $0) }
        var chainVerifier = Verifier(rootCertificates: roots) { RFC5280Policy(fixedExpiryValidationTime: Date()) }
        blackHole(
            await chainVerifier.validate(
                leaf: certificates[0], intermediates: CertificateStore(certificates.dropFirst())))
        switch signerKey {
        case .rsa:
            let key = _RSA.Signing.PublicKey(certificates[0].publicKey)!
            blackHole(
                key.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .PSS))
        case .p256:
            let key = P256.Signing.PublicKey(certificates[0].publicKey)!
            blackHole(
                key.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: signingInput))
        }
    }
}

var signedContents: [String: SignedContentCase] = [:]
for (label, signerKey) in [("PS256", try LabPrivateKey.makeRSA()), ("ES256", LabPrivateKey.makeP256())] {
    let signer = try CertificateAuthority.issue(
        commonName: "Bench ACS \(label)", key: signerKey, role: .signer, issuer: intermediate)
    let chain = [signer.certificate, intermediate.certificate, root.certificate]
    let jwsKey: JWSSigningKey
    switch signerKey {
    case .rsa(let key): jwsKey = .ps256(privateKeyDER: Array(key.derRepresentation))
    case .p256(let key): jwsKey = .es256(key)
    }
    let item = try SignedContentCase(
        compact: try JWS.sign(contentPayload, with: jwsKey, certificateChain: chain),
        ders: try [signer.certificateDER, intermediate.certificateDER, root.certificateDER], signerKey: signerKey,
        roots: CertificateStore([root.certificate]))
    signedContents[label] = item
    results.append(
        try await compareAsync(
            "ACS signed content check, \(label), 3-cert chain", rounds: rounds, iterations: scaled(300),
            composite: { [verifier] in blackHole(try await verifier.verify(item.compact)) },
            floor: { try await item.floor() }))
}

// 6. One challenge exchange as the SDK processes it (CReq built and encrypted, CRes decrypted, parsed and
//    validated), against the cryptographic floor of that exchange (AES-CBC + HMAC each way over the same bytes).
let exchangeIDs = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: acsTransID,
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")
let exchangeBuilder = ChallengeRequestBuilder(
    identifiers: exchangeIDs, messageVersion: .v2_2_0, requestorAppURL: "shop://checkout")
let cresObject: JSONObject = [
    "threeDSServerTransID": .string(exchangeIDs.threeDSServerTransID), "acsTransID": .string(acsTransID),
    "sdkTransID": .string(exchangeIDs.sdkTransID),
    "acsCounterAtoS": .string("001"), "messageType": .string("CRes"), "messageVersion": .string("2.2.0"),
    "challengeCompletionInd": .string("N"),
    "acsUiType": .string("01"), "challengeInfoHeader": .string("Confirm your payment"),
    "challengeInfoText": .string("We sent a one-time code to your phone ending in 12.\nEnter it below."),
    "challengeInfoLabel": .string("One-time code"), "submitAuthenticationLabel": .string("Verify"),
    "resendInformationLabel": .string("Send a new code"),
    "whyInfoLabel": .string("Why am I asked this?"),
    "whyInfoText": .string("Your bank checks that it is really you paying."),
]
let cresExchange = try JWE.encrypt(
    cresObject.serializedBytes, to: .direct(channelKey), encryption: .a128cbcHS256, keyID: acsTransID)
let cresExchangeParts = cresExchange.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
let cresExchangeCiphertext = Data(try Base64.urlDecode(cresExchangeParts[3]))
let cresExchangeIV = try Base64.urlDecode(cresExchangeParts[2])
let cresExchangeBytes = Array(cresExchange.utf8)
let expectation = ChallengeResponseExpectation(identifiers: exchangeIDs, messageVersion: .v2_2_0, acsCounter: 1)
let creqLength = try exchangeBuilder.request(counter: 1, answer: ChallengeAnswer(.submitText("123456"))).serializedBytes
    .count
results.append(
    try compare(
        "challenge exchange (CReq out, CRes in), SDK side", rounds: rounds, iterations: scaled(5000),
        composite: {
            let request = try exchangeBuilder.request(counter: 1, answer: ChallengeAnswer(.submitText("123456")))
            blackHole(try channelEncrypterCBC.encryptedBytes(request.serializedBytes, iv: counterIVCBC))
            let plaintext = try channelDecrypterCBC.decrypt(bytes: cresExchangeBytes).plaintext
            guard case .object(let object) = try JSONParser().parse(plaintext) else { return }
            blackHole(try ChallengeResponseValidator.validate(object, expecting: expectation))
        },
        floor: {
            try cbcFloor([UInt8](repeating: 0x61, count: creqLength), key: channelKey, aadLength: 100)
            try cbcOpenFloor(cresExchangeCiphertext, iv: cresExchangeIV, key: channelKey, aadLength: 100)
        }))

// 6a. The client side of one whole payment, without the network: the ephemeral key and its JWK, the device data
//     encrypted to the directory server (RSA-OAEP-256), the ACS signed content checked (PS256 chain) and read, ECDH
//     and the channel keys, then two exchanges (the first CReq and the CRes with the code screen, the answer and the
//     final CRes). The CRes are encrypted once under a fixed channel key (a fresh key per payment would need an ACS
//     in the loop); the derivation still runs every payment. The floor is the sum of the bare primitives of the same
//     steps, as in the rows above. The independent peer (`--peer`) does the same steps.
let finalCResObject: JSONObject = [
    "threeDSServerTransID": .string(exchangeIDs.threeDSServerTransID), "acsTransID": .string(acsTransID),
    "sdkTransID": .string(exchangeIDs.sdkTransID), "acsCounterAtoS": .string("001"), "messageType": .string("CRes"),
    "messageVersion": .string("2.2.0"), "challengeCompletionInd": .string("Y"), "transStatus": .string("Y"),
]
var firstCResObject = cresObject
firstCResObject["acsCounterAtoS"] = .string("000")
let paymentCRes = try [firstCResObject, finalCResObject].map {
    Array(
        try JWE.encrypt($0.serializedBytes, to: .direct(channelKey), encryption: .a128cbcHS256, keyID: acsTransID)
            .utf8)
}
let paymentCResParts = try paymentCRes.map { compact in
    let parts = String(decoding: compact, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
    return (iv: try Base64.urlDecode(String(parts[2])), ciphertext: Data(try Base64.urlDecode(String(parts[3]))))
}
let paymentRequests = try [
    exchangeBuilder.request(counter: 0, answer: nil),
    exchangeBuilder.request(counter: 1, answer: ChallengeAnswer(.submitText("123456"))),
]
let paymentSignedContent = signedContents["PS256"]!

/// The SDK's steps for one payment, through the same components the SDK runs.
@Sendable func clientPayment() async throws {
    let key = P256.KeyAgreement.PrivateKey.ephemeral()
    blackHole(P256PublicJWK(key.publicKey).jsonString)
    blackHole(try JWE.encrypt(deviceData, to: .rsaOAEP256(publicKeyDER: dsRSAPublicDER), encryption: .a128cbcHS256))
    let verified = try await verifier.verify(paymentSignedContent.compact)
    let content = try ACSSignedContent(payload: verified.payload)
    let secret = try key.sharedSecretFromKeyAgreement(with: content.acsEphemeralPublicKey.keyAgreementKey)
    blackHole(ChannelKeys(sharedSecret: secret.withUnsafeBytes { Array($0) }, sdkReferenceNumber: reference))
    let keys = ChannelKeys(derived: channelKey)
    let encrypter = try JWE.DirectEncrypter(
        key: keys.sdkToACS(.a128cbcHS256), encryption: .a128cbcHS256, keyID: acsTransID)
    let decrypter = try JWE.DirectDecrypter(
        keys: keys.acsToSDKKeys, expecting: JWE.Expectations(keyID: .exactly(acsTransID)))
    for counter in 0..<2 {
        let answer = counter == 0 ? nil : ChallengeAnswer(.submitText("123456"))
        let request = try exchangeBuilder.request(counter: counter, answer: answer)
        blackHole(
            try encrypter.encryptedBytes(
                request.serializedBytes,
                iv: ChannelKeys.counterIV(counter, encryption: .a128cbcHS256, fromSDK: true)))
        let plaintext = try decrypter.decrypt(bytes: paymentCRes[counter]).plaintext
        guard case .object(let object) = try JSONParser().parse(plaintext) else { preconditionFailure("not a CRes") }
        blackHole(
            try ChallengeResponseValidator.validate(
                object,
                expecting: ChallengeResponseExpectation(
                    identifiers: exchangeIDs, messageVersion: .v2_2_0, acsCounter: counter)))
    }
}

@Sendable func clientPaymentFloor() async throws {
    try keyGenerationFloor()
    try deviceDataRSAFloor()
    try await paymentSignedContent.floor()
    try keyAgreementFloor()
    for counter in 0..<2 {
        try cbcFloor(paymentRequests[counter].serializedBytes, key: channelKey, aadLength: 100)
        try cbcOpenFloor(
            paymentCResParts[counter].ciphertext, iv: paymentCResParts[counter].iv, key: channelKey, aadLength: 100)
    }
}

results.append(
    try await compareAsync(
        "client side of one payment (no network)", rounds: rounds, iterations: scaled(200),
        composite: { try await clientPayment() }, floor: { try await clientPaymentFloor() }))

// 6b. A hostile JSON object: 30,000 members, parsed strictly (duplicate check, order kept) against Foundation's
//     JSONSerialization of the same bytes. Lookup by name is indexed, so this stays linear in the member count.
let wideObject = Array(("{" + (0..<30_000).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + "}").utf8)
let wideLimits = JSONParser.Limits(maxBytes: 1 << 20, maxDepth: 4)
results.append(
    try compare(
        "strict JSON, object of 30,000 members", rounds: rounds, iterations: scaled(100),
        composite: { blackHole(try JSONParser(limits: wideLimits).parse(wideObject)) },
        floor: { blackHole(try JSONSerialization.jsonObject(with: Data(wideObject))) }))

// 7. End to end: whole challenges (three exchanges: first CReq, a wrong code, the right code) against the
//    in-process TestLab over HTTPS on loopback.
var challengeTimes: [Duration] = []
if only == nil || "full challenge".localizedCaseInsensitiveContains(only ?? "") {
    var labLogger = Logger(label: "bench.lab")
    labLogger.logLevel = .critical
    let lab = try await TestLab.start(logger: labLogger)
    var sdkLogger = Logger(label: "bench.sdk")
    sdkLogger.logLevel = .critical
    let service = ThreeDS2Service(logger: sdkLogger)
    try service.initialize(
        configParameters: try lab.sdkConfiguration(
            dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("threeds-bench").path))
    let transport = try lab.makeTransport()
    let client = ThreeDSServerClient(serverURL: lab.baseURL, transport: transport)
    for _ in 0..<(quick ? 3 : 30) {
        let transaction = try service.createTransaction(
            directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.2.0")
        let response = try await client.authenticate(
            parameters: try transaction.getAuthenticationRequestParameters(),
            purchase: Purchase(cardNumber: Scenario.text.cardNumber, amount: "100", currency: "978"))
        guard let parameters = response.challengeParameters else { break }
        let start = ContinuousClock.now
        let outcome = try await transaction.challenge(
            parameters, presenter: ScriptedPresenter(answers: [.text("000000"), .text("123456")]), transport: transport)
        challengeTimes.append(ContinuousClock.now - start)
        precondition(outcome == .completed(transStatus: .authenticated), "benchmark challenge failed: \(outcome)")
    }
    try await transport.shutdown()
    await lab.stop()
}

// 7b. The TestLab under load: 1,000 challenges at once against the in-process TestLab over HTTPS on loopback, each a
//     whole payment (AReq parameters, 3DS Server, signed content, two exchanges). Reports challenges per second per
//     core (CPU time of this process, which runs both sides), p99 per exchange, and the peak resident memory of the
//     run (the high-water mark is reset first, Linux).
final class TimedExchanges: ChallengeTransport {
    let base: any ChallengeTransport
    let times = Locked<[Duration]>([])

    init(base: any ChallengeTransport) { self.base = base }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let start = ContinuousClock.now
        defer { times.withLock { $0.append(ContinuousClock.now - start) } }
        return try await base.send(request)
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func residentHighWater() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

/// Runs `concurrent` whole payments at once against an in-process TestLab and describes the result.
func challengesUnderLoad(concurrent: Int) async throws -> String {
    var labLogger = Logger(label: "bench.lab")
    labLogger.logLevel = .critical
    let lab = try await TestLab.start(options: TestLabOptions(maxTransactions: 2 * concurrent), logger: labLogger)
    var quietLogger = Logger(label: "bench.sdk")
    quietLogger.logLevel = .critical
    let sdkLogger = quietLogger
    let configuration = try lab.sdkConfiguration(
        dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("threeds-bench").path)
    let transport = try HTTPClientTransport(
        additionalTrustRootsPEM: [try lab.pki.tlsRoot.certificatePEM], maxConnectionsPerHost: 64)
    let exchanges = TimedExchanges(base: transport)
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let cpuBefore = cpuSeconds()
    let wallStart = ContinuousClock.now
    let completed = try await withThrowingTaskGroup(of: Bool.self) { group in
        for _ in 0..<concurrent {
            group.addTask {
                let service = ThreeDS2Service(logger: sdkLogger)
                try service.initialize(configParameters: configuration)
                let transaction = try service.createTransaction(
                    directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.2.0")
                let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
                    parameters: try transaction.getAuthenticationRequestParameters(),
                    purchase: Purchase(cardNumber: Scenario.text.cardNumber, amount: "100", currency: "978"))
                guard let parameters = response.challengeParameters else { return false }
                let outcome = try await transaction.challenge(
                    parameters, presenter: ScriptedPresenter(answers: [.text("123456")]), transport: exchanges)
                transaction.close()
                return outcome == .completed(transStatus: .authenticated)
            }
        }
        var completed = 0
        for try await done in group where done { completed += 1 }
        return completed
    }
    let wall = ContinuousClock.now - wallStart
    let cpu = cpuSeconds() - cpuBefore
    let peak = residentHighWater()
    try await transport.shutdown()
    await lab.stop()
    precondition(completed == concurrent, "only \(completed) of \(concurrent) challenges completed")
    let times = exchanges.times.withLock { $0 }.sorted()
    let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
    let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
    return
        "TestLab under load: \(concurrent) concurrent challenges (2 exchanges each) in \(String(format: "%.2f", wallSeconds)) s; "
        + String(format: "%.1f challenges/s per core (CPU %.2f s, both sides)", Double(concurrent) / cpu, cpu)
        + "; exchange p50 \(format(times[times.count / 2])), p99 \(format(p99)); peak RSS "
        + String(format: "%.0f MB", Double(peak) / 1_048_576)
}

print("")
print("composite operation".padding(toLength: 52, withPad: " ", startingAt: 0) + "  composite        floor   ratio")
for case let result? in results {
    let flag = result.ratio <= 1.5 ? "" : "  (above 1.5)"
    print(
        result.name.padding(toLength: 52, withPad: " ", startingAt: 0) + "  " + format(result.composite) + "  "
            + format(result.floor) + String(format: "   %.2f", result.ratio) + flag)
}
if !challengeTimes.isEmpty {
    let sorted = challengeTimes.sorted()
    print("")
    print(
        "full challenge (3 exchanges, TestLab over HTTPS on loopback, \(sorted.count) runs): median \(format(sorted[sorted.count / 2])), "
            + "fastest \(format(sorted[0])), slowest \(format(sorted[sorted.count - 1]))")
}

// 7c. The client's cost against an independent peer (`--peer PYTHON`): Python's `cryptography` over OpenSSL doing
//     the same steps on the same fixtures (Interop/client_cost_peer.py), measured in the same run, the same way.
let peerPython = CommandLine.arguments.firstIndex(of: "--peer").flatMap { index in
    CommandLine.arguments.indices.contains(index + 1) ? CommandLine.arguments[index + 1] : nil
}

/// The median per-call time of `body` over the benchmark's rounds.
func sdkTime(iterations: Int, _ body: @Sendable () async throws -> Void) async throws -> Duration {
    for _ in 0..<max(1, iterations / 4) { try await body() }
    var samples: [Duration] = []
    for _ in 0..<rounds { samples.append(try await timePerCall(iterations: iterations, body)) }
    return median(samples)
}

struct PeerFailure: Error, CustomStringConvertible {
    let description: String
}

@MainActor func runPeer(python: String) async throws -> [(String, Duration, Double)] {
    let fixtures = FileManager.default.temporaryDirectory.appendingPathComponent("threeds-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: fixtures) }
    let payment: JSONObject = [
        "deviceData": .string(String(decoding: deviceData, as: UTF8.self)),
        "channelKey": .string(channelKey.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }),
        "sdkReferenceNumber": .string(reference),
        "identifiers": .object([
            "threeDSServerTransID": .string(exchangeIDs.threeDSServerTransID), "acsTransID": .string(acsTransID),
            "sdkTransID": .string(exchangeIDs.sdkTransID),
        ]),
        "creq": .array(paymentRequests.map { .object($0) }),
        "cres": .array(paymentCRes.map { .string(String(decoding: $0, as: UTF8.self)) }),
    ]
    let files = [
        "root.pem": try root.certificatePEM, "ps256.jws": signedContents["PS256"]!.compact,
        "es256.jws": signedContents["ES256"]!.compact,
        "ds-rsa.pem": try _RSA.Encryption.PublicKey(derRepresentation: dsRSAPublicDER).pemRepresentation,
        "payment.json": payment.serialized,
    ]
    for (name, text) in files {
        try text.write(to: fixtures.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    // The SDK's side first, then the peer's, each on an otherwise idle machine.
    let sdk: [String: Duration] = [
        "keygen_jwk": try await sdkTime(iterations: scaled(2000)) {
            blackHole(P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey).jsonString)
        },
        "keygen": try await sdkTime(iterations: scaled(2000)) { blackHole(P256.KeyAgreement.PrivateKey.ephemeral()) },
        // The compact forms are captured: reading the main-actor dictionary inside the loop would hop threads.
        "signed_content_ps256": try await sdkTime(iterations: scaled(300)) {
            [verifier, compact = signedContents["PS256"]!.compact] in blackHole(try await verifier.verify(compact))
        },
        "signed_content_es256": try await sdkTime(iterations: scaled(300)) {
            [verifier, compact = signedContents["ES256"]!.compact] in blackHole(try await verifier.verify(compact))
        },
        "payment": try await sdkTime(iterations: scaled(200)) { try await clientPayment() },
    ]
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop/client_cost_peer.py")
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script.path, fixtures.path, String(rounds), quick ? "20" : "1"]
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, case .object(let peer) = try JSONParser().parse(Array(data)) else {
        throw PeerFailure(
            description: "\(python) \(script.path) exited \(process.terminationStatus) or printed no JSON object")
    }
    let rows = [
        ("P-256 key generation + JWK", "keygen_jwk"), ("P-256 key generation alone", "keygen"),
        ("ACS signed content check, PS256, 3-cert chain", "signed_content_ps256"),
        ("ACS signed content check, ES256, 3-cert chain", "signed_content_es256"),
        ("client side of one payment (no network)", "payment"),
    ]
    return rows.map { label, key in
        let microseconds: Double
        if case .number(let text) = peer[key] { microseconds = Double(text) ?? .nan } else { microseconds = .nan }
        return (label, sdk[key]!, microseconds)
    }
}

if let peerPython {
    let rows: [(String, Duration, Double)]
    do {
        rows = try await runPeer(python: peerPython)
    } catch {
        FileHandle.standardError.write(Data("threeds-benchmarks: the --peer step failed: \(error)\n".utf8))
        exit(1)
    }
    print("")
    print(
        "client cost, SDK against Python cryptography/OpenSSL".padding(toLength: 52, withPad: " ", startingAt: 0)
            + "        SDK         peer   SDK/peer")
    for (label, sdk, peer) in rows {
        print(
            label.padding(toLength: 52, withPad: " ", startingAt: 0) + "  " + format(sdk) + "  "
                + format(.nanoseconds(Int64(peer * 1000))) + String(format: "   %.2f", seconds(sdk) * 1e6 / peer))
    }
}

let underLoad: String? =
    only == nil || "under load".localizedCaseInsensitiveContains(only ?? "")
    ? try await challengesUnderLoad(concurrent: quick ? 200 : 1000) : nil

if let underLoad {
    print("")
    print(underLoad)
}

// 8. What an app carries: the stripped size of the example app (core only) beside the CLI (core, NIO transport,
//    libxml2 reader, terminal UI, TestLab). Both are looked for next to this executable, built in the same mode.
print("")
let binaryDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
for name in ["minimal-checkout", "threeds"] {
    let binary = binaryDirectory.appendingPathComponent(name)
    guard FileManager.default.fileExists(atPath: binary.path) else {
        print("\(name): not built here (swift build -c release --product \(name))")
        continue
    }
    let stripped = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    let strip = Process()
    strip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    strip.arguments = ["strip", "-o", stripped.path, binary.path]
    try strip.run()
    strip.waitUntilExit()
    let size = (try FileManager.default.attributesOfItem(atPath: stripped.path)[.size] as? Int) ?? 0
    try? FileManager.default.removeItem(at: stripped)
    print("\(name) stripped: \(String(format: "%.1f", Double(size) / 1_048_576)) MB")
}
