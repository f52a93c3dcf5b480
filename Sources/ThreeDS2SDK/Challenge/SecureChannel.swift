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

    /// Decrypts a CRes (or an encrypted Erro). Any JOSE failure is a 302 naming the part or header.
    func decrypt(_ compact: [UInt8]) throws(ProtocolViolation) -> JSONObject {
        let plaintext: [UInt8]
        do {
            plaintext = try decrypter.decrypt(bytes: compact).plaintext
        } catch {
            throw ProtocolViolation(
                .decryptionFailure, detail: "Data Decryption Failure",
                explanation: "CRes could not be decrypted: \(humanReadable(error))")
        }
        do {
            guard
                case .object(let object) = try JSONParser(
                    limits: .init(maxBytes: ChallengeStateMachine.maxResponseBytes, maxDepth: 16)
                ).parse(
                    plaintext)
            else {
                throw ProtocolViolation(
                    .messageReceivedInvalid, detail: "Invalid Formatted Message",
                    explanation: "CRes plaintext is not a JSON object")
            }
            return object
        } catch let violation as ProtocolViolation {
            throw violation
        } catch {
            let duplicate = (error as? JOSEError)?.code == .duplicateMember
            throw ProtocolViolation(
                duplicate ? .duplicateElement : .messageReceivedInvalid,
                detail: duplicate ? "duplicate data element" : "Invalid Formatted Message",
                explanation: "CRes plaintext is not valid JSON: \(humanReadable(error))")
        }
    }
}
