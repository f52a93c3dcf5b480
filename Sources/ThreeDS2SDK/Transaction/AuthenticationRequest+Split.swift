public import ThreeDS2Messages

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
    ///   - signedContent: The compact JWS the server signed for this AReq (made server-side, with
    ///     `SDKServerSignedContent` of ThreeDS2ACSKit: the SDK only carries it).
    ///   - signatureTimestamp: The timestamp in the signed content, to send beside it; `nil` leaves it out.
    /// - Returns: The Split-SDK AReq parameters.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for a version before 2.3.1, an empty signed content or
    ///   one longer than `SplitSDKSignedContentBound.maxLength`.
    public func splitSDK(
        type: SplitSDKType, signedContent: String, signatureTimestamp: SDKSignatureTimestamp? = nil
    ) throws(ThreeDS2Error) -> AuthenticationRequest {
        guard messageVersion.carriesSDKType else {
            throw .invalidInput(
                "a Split-SDK AReq needs 2.3.1 (2.2.0's Device Acknowledgement extension is not supported), "
                    + "not \(messageVersion)")
        }
        guard !signedContent.isEmpty, signedContent.utf8.count <= SplitSDKSignedContentBound.maxLength else {
            throw .invalidInput(
                "sdkServerSignedContent must be 1 to \(SplitSDKSignedContentBound.maxLength) characters")
        }
        var request = self
        request.sdkType = .splitSDK
        request.defaultSDKType = nil
        request.splitSDKType = type
        request.sdkServerSignedContent = signedContent
        request.sdkSignatureTimestamp = signatureTimestamp
        return request
    }
}
