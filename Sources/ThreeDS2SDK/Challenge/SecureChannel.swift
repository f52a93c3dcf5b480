import ThreeDS2JOSE
import ThreeDS2Messages

/// The encrypted SDK–ACS channel, SDK side: CReqs encrypted with counter IVs, CRes decrypted with strict header
/// checks. Key use and IVs follow ``ChannelKeys``; CRes IVs are whatever the ACS chose and are never judged.
///
/// The keys are checked and split, and the CReq header encoded, once per transaction (``JWE/DirectEncrypter``,
/// ``JWE/DirectDecrypter``); the checks each message gets are the same as through ``JWE``.
struct SecureChannel: Sendable {
    let requestEncryption: ContentEncryption
    private let encrypter: JWE.DirectEncrypter
    private let decrypter: JWE.DirectDecrypter

    /// A channel over the transaction's derived keys.
    init(keys: ChannelKeys, acsTransID: String, requestEncryption: ContentEncryption) throws(JOSEError) {
        self.requestEncryption = requestEncryption
        encrypter = try JWE.DirectEncrypter(
            key: keys.sdkToACS(requestEncryption), encryption: requestEncryption, keyID: acsTransID)
        decrypter = try JWE.DirectDecrypter(
            keys: keys.acsToSDKKeys,
            expecting: .init(keyID: .exactly(acsTransID), maxCompactBytes: ChallengeStateMachine.maxResponseBytes))
    }

    /// Encrypts a CReq whose `sdkCounterStoA` is `counter`.
    func encrypt(_ request: JSONObject, counter: Int) throws(JOSEError) -> [UInt8] {
        try encrypter.encryptedBytes(
            request.serializedBytes, iv: ChannelKeys.counterIV(counter, encryption: requestEncryption, fromSDK: true))
    }

    /// Decrypts a CRes (or an encrypted Erro). A JOSE failure is a 302 naming the part or header; a plaintext
    /// that is not a JSON object is 101 (204 for a member named twice). Each is thrown as the finding of its rule
    /// (``ConformanceFinding/channel(_:)``, ``ConformanceFinding/payload(_:)``), which the SDK answers.
    func decrypt(_ compact: [UInt8]) throws(FirstFinding) -> JSONObject {
        let plaintext: [UInt8]
        do {
            plaintext = try decrypter.decrypt(bytes: compact).plaintext
        } catch {
            throw FirstFinding(.channel(error))
        }
        let parsed: JSONValue
        do {
            parsed = try JSONParser(limits: .init(maxBytes: ChallengeStateMachine.maxResponseBytes, maxDepth: 16))
                .parse(plaintext)
        } catch {
            throw FirstFinding(.payload(error))
        }
        guard case .object(let object) = parsed else { throw FirstFinding(.payload(nil)) }
        return object
    }
}
