import Crypto
import ThreeDS2JOSE
import ThreeDS2Messages

/// The encrypted SDK–ACS channel: keys from ECDH and the Concat KDF (PartyVInfo = SDK reference number), CReq
/// encryption with counter-derived IVs, CRes decryption with strict header checks.
///
/// Key use (SDK Technical Guide, protocol reference §5.3): A128CBC-HS256 uses the whole 32-byte key in both
/// directions; A128GCM uses its first half SDK→ACS and its second half ACS→SDK. The CReq IV is the counter in the
/// last byte of an otherwise zero IV (16 bytes for CBC, 12 for GCM); the key is per transaction and the counter
/// never repeats, so an IV never repeats under a key. CRes IVs are whatever the ACS chose.
struct SecureChannel: Sendable {
    let acsTransID: String
    let requestEncryption: ContentEncryption
    private let decryptionKeys: [ContentEncryption: SymmetricKey]
    private let encryptionKey: SymmetricKey

    init(sharedSecret: [UInt8], sdkReferenceNumber: String, acsTransID: String, requestEncryption: ContentEncryption) {
        let key = ConcatKDF.emvcoKey(sharedSecret: sharedSecret, partyVInfo: sdkReferenceNumber)
        let (first, second) = key.withUnsafeBytes { (SymmetricKey(data: $0[0..<16]), SymmetricKey(data: $0[16..<32])) }
        self.acsTransID = acsTransID
        self.requestEncryption = requestEncryption
        self.decryptionKeys = [.a128cbcHS256: key, .a128gcm: second]
        self.encryptionKey = requestEncryption == .a128gcm ? first : key
    }

    /// Encrypts a CReq whose `sdkCounterStoA` is `counter`.
    func encrypt(_ request: JSONObject, counter: Int) throws(JOSEError) -> String {
        var iv = [UInt8](repeating: 0, count: requestEncryption.ivByteCount)
        iv[iv.count - 1] = UInt8(truncatingIfNeeded: counter)
        return try JWE.encrypt(
            request.serializedBytes, to: .direct(encryptionKey), encryption: requestEncryption, keyID: acsTransID,
            iv: iv)
    }

    /// Decrypts a CRes (or an encrypted Erro). Any JOSE failure is a 302 naming the part or header.
    func decrypt(_ compact: String) throws(ProtocolViolation) -> JSONObject {
        let plaintext: [UInt8]
        do {
            plaintext = try JWE.decrypt(
                compact, using: .direct(decryptionKeys),
                expecting: .init(keyID: .exactly(acsTransID), maxCompactBytes: 256 * 1024)
            ).plaintext
        } catch {
            throw ProtocolViolation(
                .decryptionFailure, detail: "Data Decryption Failure",
                explanation: "CRes could not be decrypted: \(error)")
        }
        do {
            guard
                case .object(let object) = try JSONParser(limits: .init(maxBytes: 256 * 1024, maxDepth: 16)).parse(
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
            let duplicate = "\(error)".contains("duplicate member")
            throw ProtocolViolation(
                duplicate ? .duplicateElement : .messageReceivedInvalid,
                detail: duplicate ? "duplicate data element" : "Invalid Formatted Message",
                explanation: "CRes plaintext is not valid JSON: \(error)")
        }
    }
}
