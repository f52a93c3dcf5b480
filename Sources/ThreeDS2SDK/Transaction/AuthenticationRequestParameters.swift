public import ThreeDS2JOSE
public import ThreeDS2Messages

/// What the app sends to its 3DS Server for the AReq.
public struct AuthenticationRequestParameters: Sendable, Hashable {
    /// The SDK transaction ID (`sdkTransID`): a random UUID, lower case.
    public let sdkTransactionID: String
    /// The encrypted device data (`sdkEncData`), a compact JWE.
    public let deviceData: String
    /// The SDK ephemeral public key, typed: the P-256 key itself, its coordinates and its JWK object, with nothing
    /// to parse back. ``sdkEphemeralPublicKey`` and ``sdkEphemeralPublicKeyJWK`` are its EMVCo forms.
    public let ephemeralPublicKey: P256PublicJWK
    /// The SDK ephemeral public key (`sdkEphemPubKey`) as the JSON text of a P-256 JWK (the EMVCo SDK API's form).
    public var sdkEphemeralPublicKey: String { ephemeralPublicKey.jsonObject.serialized }
    /// The same key as the members of the JWK object (`kty`, `crv`, `x`, `y`): what the AReq carries
    /// (``AuthenticationRequest`` encodes it as an object).
    public var sdkEphemeralPublicKeyJWK: [String: String] {
        let jwk = ephemeralPublicKey.jsonObject
        var members: [String: String] = [:]
        for name in jwk.names { members[name] = jwk[name]?.stringValue }
        return members
    }
    /// The SDK App ID (`sdkAppID`).
    public let sdkAppID: String
    /// The SDK reference number (`sdkReferenceNumber`).
    public let sdkReferenceNumber: String
    /// The message version of the transaction.
    public let messageVersion: MessageVersion

    /// `sdkType` (2.3.1): `SDKType.defaultSDK` (`01`) in a 2.3.1 transaction, `nil` in 2.1.0 and 2.2.0, whose
    /// AReqs have no such field.
    public var sdkType: SDKType? { messageVersion.carriesSDKType ? .defaultSDK : nil }

    /// `defaultSdkType` (2.3.1), present exactly when ``sdkType`` is `01`: a native SDK, not wrapped (an app built
    /// with a cross-platform framework sets ``AuthenticationRequest/defaultSDKType``'s `wrapped`).
    public var defaultSDKType: DefaultSDKType? { sdkType == .defaultSDK ? DefaultSDKType() : nil }
}
