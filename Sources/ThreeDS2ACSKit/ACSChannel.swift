public import Crypto
public import ThreeDS2JOSE
public import ThreeDS2Messages

/// The ACS end of one challenge's SDK–ACS channel (protocol reference §5.2–§5.4): the key agreement with the SDK's
/// ephemeral key, CReq decryption with the `kid` and `sdkCounterStoA` checked, and CRes encryption under the counter IV.
/// A test ACS and the TestLab's ACS are both built on it; the SDK's end is its own.
///
/// A value: keep one per challenge and store it back after each mutating call (the counters move).
public struct ACSChannel: Sendable {
    /// A CReq as received: its protected header, content encryption and members.
    public struct Request: Sendable {
        /// The JWE protected header.
        public let header: JSONObject
        /// The content encryption the SDK chose (a CRes answers in the same unless told otherwise).
        public let encryption: ContentEncryption
        /// The decrypted CReq.
        public let message: JSONObject
    }

    /// The transaction identifiers; `acsTransID` is the CReq JWE's `kid`.
    public let identifiers: TransactionIdentifiers
    /// The message version of the transaction.
    public let messageVersion: MessageVersion
    /// The SDK's ephemeral public key, from the AReq.
    public let sdkEphemeralPublicKey: P256PublicJWK
    /// The ACS's ephemeral public key, for the signed content.
    public let acsEphemeralPublicKey: P256.KeyAgreement.PublicKey
    private let keys: ChannelKeys
    /// The channel's keys, for a test that must know them: the Split-SDK's leak test searches what crossed the client
    /// and the server for them (tools-only SPI).
    @_spi(ThreeDS2Tools) public var channelKeysForTests: ChannelKeys { keys }
    /// The `sdkCounterStoA` the next CReq must carry.
    public private(set) var sdkCounter = 0
    /// The `acsCounterAtoS` of the next CRes.
    public private(set) var acsCounter = 0

    /// Agrees the channel: a fresh ACS ephemeral key, ECDH with the SDK's, the Concat KDF with the SDK reference
    /// number (`ChannelKeys`).
    ///
    /// - Parameters:
    ///   - identifiers: The transaction identifiers.
    ///   - messageVersion: The message version of the transaction.
    ///   - sdkEphemeralPublicKey: The SDK's ephemeral public key from the AReq.
    ///   - sdkReferenceNumber: The SDK reference number from the AReq.
    /// - Throws: An error from the key agreement.
    public init(
        identifiers: TransactionIdentifiers, messageVersion: MessageVersion, sdkEphemeralPublicKey: P256PublicJWK,
        sdkReferenceNumber: String
    ) throws {
        let ephemeral = P256.KeyAgreement.PrivateKey.ephemeral()
        let secret = try ephemeral.sharedSecretFromKeyAgreement(with: sdkEphemeralPublicKey.keyAgreementKey)
            .withUnsafeBytes { Array($0) }
        self.identifiers = identifiers
        self.messageVersion = messageVersion
        self.sdkEphemeralPublicKey = sdkEphemeralPublicKey
        acsEphemeralPublicKey = ephemeral.publicKey
        keys = ChannelKeys(sharedSecret: secret, sdkReferenceNumber: sdkReferenceNumber)
    }

    /// The payload of the signed content that hands the SDK this channel's ACS key.
    ///
    /// - Parameter acsURL: Where the SDK sends its CReqs.
    /// - Returns: The payload, to be signed by the ACS's signer.
    public func signedContent(acsURL: String) -> ACSSignedContent {
        ACSSignedContent(
            acsURL: acsURL, acsEphemeralPublicKey: P256PublicJWK(acsEphemeralPublicKey),
            sdkEphemeralPublicKey: sdkEphemeralPublicKey)
    }

    /// The `kid` of a compact JWE's protected header, read without decrypting: which channel a CReq is for.
    ///
    /// - Parameter compact: The request body.
    /// - Returns: The key ID, or `nil` when the body is not a five-part JWE with a string `kid`.
    public static func keyID(of compact: String) -> String? {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, let headerBytes = try? Base64.urlDecode(parts[0]),
            case .object(let header)? = try? JSONParser().parse(headerBytes)
        else { return nil }
        return header["kid"]?.stringValue
    }

    /// Decrypts a CReq with the SDK→ACS key; its `kid` must be this channel's `acsTransID`. The counters do not move.
    ///
    /// - Parameter compact: The request body (JWE compact serialization).
    /// - Returns: The request.
    /// - Throws: `JOSEError` when it is not a CReq JWE of this channel or its plaintext is not a JSON object.
    public func decrypt(_ compact: String) throws(JOSEError) -> Request {
        let decrypted = try keys.decrypt(compact, fromSDK: true, acsTransID: identifiers.acsTransID)
        guard case .object(let message) = try JSONParser().parse(decrypted.plaintext) else {
            throw JOSEError(.malformedJSON, "the CReq is not a JSON object")
        }
        return Request(header: decrypted.header, encryption: decrypted.encryption, message: message)
    }

    /// Takes a decrypted CReq's `sdkCounterStoA`: it must be the next one, which then moves on.
    ///
    /// - Parameter request: The decrypted CReq.
    /// - Throws: `ProtocolViolation` 302 (data decryption failure) naming `sdkCounterStoA`, as an ACS answers a
    ///   replayed or skipped CReq; the counter does not move.
    public mutating func acceptCounter(of request: JSONObject) throws(ProtocolViolation) {
        let expected = ChallengeRequestBuilder.counterText(sdkCounter)
        guard request["sdkCounterStoA"] == .string(expected) else {
            throw ProtocolViolation(
                .decryptionFailure, detail: "sdkCounterStoA",
                explanation: "CReq field `sdkCounterStoA` was not \(expected)")
        }
        sdkCounter += 1
    }

    /// A CRes of this channel with the next `acsCounterAtoS`, to patch if need be and then ``encrypt(_:encryption:)``.
    ///
    /// - Parameter content: The screen or the final status.
    /// - Returns: The CRes.
    public func response(_ content: ChallengeResponseBuilder.Content) -> ChallengeResponseBuilder {
        ChallengeResponseBuilder(
            identifiers: identifiers, messageVersion: messageVersion, acsCounter: acsCounter, content: content)
    }

    /// Encrypts a CRes with the ACS→SDK key under the counter IV of ``acsCounter`` (whatever counter the CRes
    /// itself says, so a patched counter is still a readable CRes), then moves the counter on.
    ///
    /// - Parameters:
    ///   - response: The CRes.
    ///   - encryption: The content encryption.
    /// - Returns: The JWE compact serialization, with `kid` the `acsTransID`.
    /// - Throws: `JOSEError` from encryption.
    public mutating func encrypt(_ response: ChallengeResponseBuilder, encryption: ContentEncryption = .a128cbcHS256)
        throws(JOSEError) -> String
    {
        try encrypt(bytes: response.serializedBytes, encryption: encryption)
    }

    /// Encrypts any bytes as the next CRes (a test ACS's fault: a plaintext that is not JSON, a member named twice),
    /// with the counter IV, then advances the counter.
    ///
    /// - Parameters:
    ///   - bytes: The plaintext.
    ///   - encryption: The content encryption.
    /// - Returns: The compact JWE.
    /// - Throws: `JOSEError` when encryption fails.
    public mutating func encrypt(bytes: [UInt8], encryption: ContentEncryption = .a128cbcHS256) throws(JOSEError)
        -> String
    {
        let iv = ChannelKeys.counterIV(acsCounter, encryption: encryption, fromSDK: false)
        let compact = try JWE.encrypt(
            bytes, to: .direct(keys.acsToSDK(encryption)), encryption: encryption, keyID: identifiers.acsTransID,
            iv: iv)
        acsCounter += 1
        return compact
    }

    /// The Erro message a body carries as plain JSON (what an SDK posts instead of a CReq).
    ///
    /// - Parameter body: The request body.
    /// - Returns: The Erro's members, or `nil` when the body is not a JSON Erro message.
    public static func errorMessage(in body: [UInt8]) -> JSONObject? { ChallengeChannelBody(body).error }
}
