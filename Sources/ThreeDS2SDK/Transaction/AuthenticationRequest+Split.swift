public import Crypto
import ThreeDS2JOSE
public import ThreeDS2Messages
public import X509

extension AuthenticationRequest {
    /// These AReq parameters as a Split-SDK Server sends them (2.3.1): `sdkType` `02`, `splitSdkType`,
    /// `sdkServerSignedContent` and, when given, `sdkSignatureTimestamp`; `defaultSdkType` is left out. Every other
    /// field stays as it is.
    ///
    /// The 2.2.0 Device Acknowledgement Message Extension, which carries Split-SDK data in 2.2.0, is not supported:
    /// its layout is not public.
    ///
    /// - Parameters:
    ///   - type: The Split-SDK's variant and whether its client is Limited.
    ///   - signedContent: The compact JWS the server signed for this AReq (`SDKServerSignedContent`).
    ///   - signatureTimestamp: The timestamp in the signed content, to send beside it; `nil` leaves it out.
    /// - Returns: The Split-SDK AReq parameters.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for a version before 2.3.1, an empty signed content or
    ///   one longer than `SDKServerSignedContent.maxCompactLength`.
    public func splitSDK(
        type: SplitSDKType, signedContent: String, signatureTimestamp: SDKSignatureTimestamp? = nil
    ) throws(ThreeDS2Error) -> AuthenticationRequest {
        guard messageVersion.carriesSDKType else {
            throw .invalidInput(
                "a Split-SDK AReq needs 2.3.1 (2.2.0's Device Acknowledgement extension is not supported), "
                    + "not \(messageVersion)")
        }
        guard !signedContent.isEmpty, signedContent.utf8.count <= SDKServerSignedContent.maxCompactLength else {
            throw .invalidInput(
                "sdkServerSignedContent must be 1 to \(SDKServerSignedContent.maxCompactLength) characters")
        }
        var request = self
        request.sdkType = .splitSDK
        request.defaultSDKType = nil
        request.splitSDKType = type
        request.sdkServerSignedContent = signedContent
        request.sdkSignatureTimestamp = signatureTimestamp
        return request
    }

    /// These AReq parameters as a Split-SDK Server sends them, signing the SDK Server Signed Content for them: its
    /// body takes this AReq's `sdkReferenceNumber` and `sdkTransID`, the server's ID and the timestamp, which is also
    /// sent as `sdkSignatureTimestamp`.
    ///
    /// - Parameters:
    ///   - type: The Split-SDK's variant and whether its client is Limited.
    ///   - serverID: The Split-SDK Server ID the directory server assigned.
    ///   - timestamp: The signing time (the server's clock).
    ///   - key: The server's P-256 signing key.
    ///   - certificateChain: The server's certificate first (the one the directory server registered).
    /// - Returns: The Split-SDK AReq parameters.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` as ``splitSDK(type:signedContent:signatureTimestamp:)``
    ///   does, or when the content cannot be made or signed (its `SDKServerSignedContentError` underlying).
    public func splitSDK(
        type: SplitSDKType, serverID: SplitSDKServerID, timestamp: SDKSignatureTimestamp,
        key: P256.Signing.PrivateKey, certificateChain: [Certificate]
    ) throws(ThreeDS2Error) -> AuthenticationRequest {
        let compact: String
        do {
            compact = try SDKServerSignedContent(
                sdkReferenceNumber: sdkReferenceNumber, signatureTimestamp: timestamp,
                sdkTransactionID: sdkTransactionID, serverID: serverID
            ).sign(key: key, certificateChain: certificateChain)
        } catch {
            throw ThreeDS2Error(.invalidInput, "the SDK Server Signed Content: \(error.message)", underlying: error)
        }
        return try splitSDK(type: type, signedContent: compact, signatureTimestamp: timestamp)
    }
}
