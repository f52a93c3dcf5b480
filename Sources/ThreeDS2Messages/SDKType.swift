public import ThreeDS2JOSE

/// The 2.3.1 AReq's `sdkType`: which kind of 3DS SDK made the AReq. Required in every 2.3.1 app-channel AReq
/// (the Default-SDK included), absent from 2.1.0 and 2.2.0 AReqs (``MessageVersion/carriesSDKType``).
///
/// An open struct over the code as sent: this SDK is a Default-SDK and writes `01`; `02` is the Split-SDK (which
/// also needs `splitSdkType` and `sdkServerSignedContent`), and the ranges the specification reserves for EMVCo and
/// the directory servers stay representable, so a reader (a 3DS Server, `threeds inspect`) keeps a value it does not
/// know and decides its own policy.
public struct SDKType: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: Default-SDK, the whole SDK in the app (this SDK). The AReq then carries `defaultSdkType`.
    public static let defaultSDK = SDKType(rawValue: "01")
    /// `02`: Split-SDK, part of the SDK on a server. The AReq then carries `splitSdkType`.
    public static let splitSDK = SDKType(rawValue: "02")

    /// Whether the value has the shape of a code: two ASCII digits.
    public var isWellFormed: Bool { isTwoDigits(rawValue) }
}

/// The 2.3.1 `sdkVariant` code, shared by `defaultSdkType` and `splitSdkType`: how the SDK is built. An open
/// struct over the code as sent: `02`–`79` are reserved for EMVCo, `80`–`99` for directory servers, and a reader keeps
/// a value it does not know.
///
/// Only `01` (Native) is public, in both objects [confidence H]; no public source gives the codes of the Split-SDK's
/// Shell and Browser variants, so none is declared here: a Split-SDK Server that declares one takes it from its
/// configuration (``init(rawValue:)``).
public struct SDKVariant: ProtocolCode {
    /// The two digits as sent.
    public let rawValue: String

    /// A code as sent, known or not.
    ///
    /// - Parameter rawValue: The two digits.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `01`: native code embedded in the app (this SDK; a Split-SDK whose client is native code).
    public static let native = SDKVariant(rawValue: "01")

    /// Whether the value has the shape of a code: two ASCII digits.
    public var isWellFormed: Bool { isTwoDigits(rawValue) }
}

/// The 2.3.1 AReq's `defaultSdkType` object, required when `sdkType` is `01` (Default-SDK): the SDK's variant and
/// whether it is wrapped in a cross-platform framework.
public struct DefaultSDKType: Sendable, Hashable {
    /// `sdkVariant`: how the SDK is built; the code space ``SplitSDKType`` shares (``SDKVariant``).
    public typealias Variant = SDKVariant

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

    /// Reads the object as a 3DS Server checks it: `sdkVariant` two digits (a variant of any range; the reader decides
    /// which it accepts), `wrappedInd` `Y` or `N` when present.
    ///
    /// - Parameter value: The AReq's `defaultSdkType`.
    /// - Returns: The object, or `nil` when it is not one.
    public init?(_ value: JSONValue?) {
        guard case .object(let object)? = value,
            let variant = object["sdkVariant"]?.stringValue.map(Variant.init(rawValue:)), variant.isWellFormed
        else { return nil }
        let wrapped = object["wrappedInd"]
        guard wrapped == nil || YesNoIndicator(wrapped) != nil else { return nil }
        self.init(variant: variant, wrapped: YesNoIndicator(wrapped) == .yes)
    }
}

/// Two ASCII digits: the shape of the 2.3.1 SDK type codes.
func isTwoDigits(_ text: String) -> Bool {
    text.utf8.count == 2 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
}
