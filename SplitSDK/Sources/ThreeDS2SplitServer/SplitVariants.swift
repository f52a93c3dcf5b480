public import ThreeDS2Messages

/// The Split-SDK variant codes (`splitSdkType.sdkVariant`), in one place with their source and confidence.
///
/// | variant | code | source | confidence |
/// | --- | --- | --- | --- |
/// | Native (client in native code in the app) | `01` | EMVCo's Split-SDK white paper; a 3DS Server's public 2.3.1 API reference | high |
/// | Shell (JavaScript client in a secured web view opened by a thin app) | not public | — | — |
/// | Browser (JavaScript client in a browser) | not public | — | — |
///
/// The web client this server serves is a JavaScript client (Shell or Browser), whose code is not public: the
/// declared code is configuration, with no default (``SplitServerConfiguration/variant``), and `01` is refused for
/// it unless the configuration says the client is native.
public enum SplitVariants {
    /// `01`: the Native variant, the one code public sources give (ThreeDS2Messages' ``SDKVariant/native``).
    public static let native = SDKVariant.native

    /// Whether a configured code may be declared: two digits, and `01` only for a native client.
    ///
    /// - Parameters:
    ///   - code: The configured `sdkVariant`.
    ///   - clientIsNative: Whether the deployment's client is native code (never the web client).
    /// - Returns: Why it may not, or `nil`.
    public static func refusal(of code: SDKVariant, clientIsNative: Bool) -> String? {
        guard code.isWellFormed else {
            return "the Split-SDK variant must be two digits, was \"\(code.rawValue.prefix(8))\""
        }
        if code == native, !clientIsNative {
            return "variant 01 is Native; the web client is a JavaScript client: configure the code your DS assigned"
        }
        return nil
    }
}
