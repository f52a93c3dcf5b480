public import Crypto
public import ThreeDS2JOSE

/// The keys and IVs of the SDK–ACS channel, for both ends (SDK Technical Guide; protocol reference §5.2–§5.4).
///
/// The content-encryption key is the Concat KDF of the ECDH secret with PartyVInfo = the SDK reference number
/// (256 bits). A128CBC-HS256 uses the whole key in both directions; A128GCM uses its first half SDK→ACS and its
/// second half ACS→SDK. Counter IVs put the counter in the last byte of an IV filled with 0x00 (SDK→ACS) or 0xFF
/// (ACS→SDK); the key is per transaction and each counter is sent once, so an IV never repeats under a key.
public struct ChannelKeys: Sendable {
    private let whole: SymmetricKey
    private let firstHalf: SymmetricKey
    private let secondHalf: SymmetricKey

    /// Derives the channel keys.
    ///
    /// - Parameters:
    ///   - sharedSecret: Z, the ECDH shared secret.
    ///   - sdkReferenceNumber: The SDK reference number from the AReq.
    public init(sharedSecret: [UInt8], sdkReferenceNumber: String) {
        self.init(derived: ConcatKDF.emvcoKey(sharedSecret: sharedSecret, partyVInfo: sdkReferenceNumber))
    }

    /// The keys from the 32-byte key the KDF derived (`threeds inspect creq|cres` with a saved key) (tools-only SPI).
    @_spi(ThreeDS2Tools) public init(derived: SymmetricKey) {
        whole = derived
        (firstHalf, secondHalf) = whole.withUnsafeBytes {
            (SymmetricKey(data: $0[0..<16]), SymmetricKey(data: $0[16..<32]))
        }
    }

    /// The 32-byte key the KDF derived, for `threeds pay --save-transaction-keys` (test use); tools-only SPI, which
    /// no app imports by accident.
    @_spi(ThreeDS2Tools) public var derivedKey: SymmetricKey { whole }

    /// The key that protects CReqs under `encryption`.
    public func sdkToACS(_ encryption: ContentEncryption) -> SymmetricKey {
        encryption == .a128gcm ? firstHalf : whole
    }

    /// The key that protects CRes messages under `encryption`.
    public func acsToSDK(_ encryption: ContentEncryption) -> SymmetricKey {
        encryption == .a128gcm ? secondHalf : whole
    }

    /// One key per content encryption, for decrypting what the SDK sends (the ACS side).
    public var sdkToACSKeys: [ContentEncryption: SymmetricKey] {
        Dictionary(uniqueKeysWithValues: ContentEncryption.allCases.map { ($0, sdkToACS($0)) })
    }

    /// One key per content encryption, for decrypting what the ACS sends (the SDK side).
    public var acsToSDKKeys: [ContentEncryption: SymmetricKey] {
        Dictionary(uniqueKeysWithValues: ContentEncryption.allCases.map { ($0, acsToSDK($0)) })
    }

    /// Decrypts a message of this channel: a CReq (`fromSDK`) under the key of that direction, or a CRes under the
    /// other, its `kid` held to the transaction's `acsTransID`.
    ///
    /// - Parameters:
    ///   - compact: The compact JWE.
    ///   - fromSDK: Whether it is a CReq (sent by the SDK) rather than a CRes.
    ///   - acsTransID: The transaction's `acsTransID`, the `kid` both directions carry.
    /// - Returns: The decrypted JWE.
    /// - Throws: `JOSEError` when it does not decrypt under this channel's key or names another `kid`.
    public func decrypt(_ compact: String, fromSDK: Bool, acsTransID: String) throws(JOSEError) -> JWE.Decrypted {
        try JWE.decrypt(
            compact, using: .direct(fromSDK ? sdkToACSKeys : acsToSDKKeys),
            expecting: .init(keyID: .exactly(acsTransID)))
    }

    /// The counter IV for a CReq (`fromSDK`) or a CRes.
    ///
    /// - Parameters:
    ///   - counter: `sdkCounterStoA` or `acsCounterAtoS`, 0…255.
    ///   - encryption: The content encryption (16-byte IV for CBC, 12 for GCM).
    ///   - fromSDK: `true` for SDK→ACS (0x00 fill), `false` for ACS→SDK (0xFF fill).
    /// - Returns: The IV.
    public static func counterIV(_ counter: Int, encryption: ContentEncryption, fromSDK: Bool) -> [UInt8] {
        var iv = [UInt8](repeating: fromSDK ? 0x00 : 0xFF, count: encryption.ivByteCount)
        iv[iv.count - 1] = UInt8(truncatingIfNeeded: counter)
        return iv
    }
}
