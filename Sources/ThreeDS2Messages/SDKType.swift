public import ThreeDS2JOSE

/// The 2.3.1 AReq's `sdkType`: which kind of 3DS SDK made the AReq. Required in every 2.3.1 app-channel AReq
/// (the Default-SDK included), absent from 2.1.0 and 2.2.0 AReqs (``MessageVersion/carriesSDKType``).
///
/// A closed enum: this SDK is a Default-SDK and writes `01`; the Split-SDK (`02`, which also needs
/// `splitSdkType` and `sdkServerSignedContent`) is a later addition.
public enum SDKType: String, ProtocolCode, CaseIterable {
    /// `01`: Default-SDK, the whole SDK in the app (this SDK). The AReq then carries `defaultSdkType`.
    case defaultSDK = "01"
}

/// The 2.3.1 AReq's `defaultSdkType` object, required when `sdkType` is `01` (Default-SDK): the SDK's variant and
/// whether it is wrapped in a cross-platform framework.
public struct DefaultSDKType: Sendable, Hashable {
    /// `sdkVariant`: how the SDK is built.
    public enum Variant: String, ProtocolCode, CaseIterable {
        /// `01`: native code embedded in the app (this SDK). `02`–`79` are reserved for EMVCo, `80`–`99` for
        /// directory servers.
        case native = "01"
    }

    /// `sdkVariant`.
    public var variant: Variant
    /// `wrappedInd`: whether the SDK runs wrapped in a cross-platform framework (an app built with one sets it).
    public var wrapped: Bool

    /// Creates the object.
    ///
    /// - Parameters:
    ///   - variant: The SDK's variant; native by default.
    ///   - wrapped: Whether the SDK is wrapped in a cross-platform framework; `false` by default.
    public init(variant: Variant = .native, wrapped: Bool = false) {
        self.variant = variant
        self.wrapped = wrapped
    }

    /// The object as the AReq carries it: `{"sdkVariant": "01", "wrappedInd": "N"}`.
    public var json: JSONObject {
        JSONObject([("sdkVariant", variant.json), ("wrappedInd", YesNoIndicator(wrapped).json)])
    }

    /// Reads the object as a 3DS Server checks it: `sdkVariant` a variant this type knows, `wrappedInd` `Y` or `N`
    /// when present.
    ///
    /// - Parameter value: The AReq's `defaultSdkType`.
    /// - Returns: The object, or `nil` when it is not one.
    public init?(_ value: JSONValue?) {
        guard case .object(let object)? = value,
            let variant = object["sdkVariant"]?.stringValue.flatMap(Variant.init(rawValue:))
        else { return nil }
        let wrapped = object["wrappedInd"]
        guard wrapped == nil || YesNoIndicator(wrapped) != nil else { return nil }
        self.init(variant: variant, wrapped: YesNoIndicator(wrapped) == .yes)
    }
}
