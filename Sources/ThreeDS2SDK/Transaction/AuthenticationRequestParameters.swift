public import ThreeDS2Messages

/// What the app sends to its 3DS Server for the AReq.
public struct AuthenticationRequestParameters: Sendable, Hashable {
    /// The SDK transaction ID (`sdkTransID`): a random UUID, lower case.
    public let sdkTransactionID: String
    /// The encrypted device data (`sdkEncData`), a compact JWE.
    public let deviceData: String
    /// The SDK ephemeral public key (`sdkEphemPubKey`) as the JSON text of a P-256 JWK.
    public let sdkEphemeralPublicKey: String
    /// The same key as the members of the JWK object (`kty`, `crv`, `x`, `y`): what the AReq carries
    /// (``AuthenticationRequest`` encodes it as an object).
    public let sdkEphemeralPublicKeyJWK: [String: String]
    /// The SDK App ID (`sdkAppID`).
    public let sdkAppID: String
    /// The SDK reference number (`sdkReferenceNumber`).
    public let sdkReferenceNumber: String
    /// The message version of the transaction.
    public let messageVersion: MessageVersion
}
