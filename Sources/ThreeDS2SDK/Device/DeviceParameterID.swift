/// A device parameter's identifier in the EMVCo Device Information specification: the common parameters
/// `C001`–`C018` and the iOS parameters `I001`–`I015`.
///
/// Only the identifiers in ``DeviceParameter/registry`` exist: ``init(_:)`` refuses any other text, so a misspelled ID
/// in ``ConfigParameters/restrictedParameters`` is an error at initialize instead of a parameter silently collected.
public struct DeviceParameterID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The identifier as device data carries it, for example `C002`.
    public let rawValue: String

    private init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// The registered identifier with this text, or `nil` for text that names no registered parameter.
    ///
    /// - Parameter rawValue: The identifier, for example `I004` (upper case, as the specification writes it).
    public init?(_ rawValue: String) {
        guard let id = Self.all.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = id
    }

    /// The identifier.
    public var description: String { rawValue }

    /// Orders common parameters before iOS ones, each by number.
    public static func < (lhs: DeviceParameterID, rhs: DeviceParameterID) -> Bool {
        (lhs.rawValue.first == "C" ? 0 : 1, lhs.rawValue) < (rhs.rawValue.first == "C" ? 0 : 1, rhs.rawValue)
    }

    /// Every identifier this SDK knows, in order: `C001`–`C018`, then `I001`–`I015`.
    public static let all: [DeviceParameterID] =
        (1...18).map { DeviceParameterID(unchecked: "C" + threeDigits($0)) }
        + (1...15).map { DeviceParameterID(unchecked: "I" + threeDigits($0)) }

    private static func threeDigits(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    // MARK: Common parameters

    /// C001: the platform.
    public static let platform = DeviceParameterID(unchecked: "C001")
    /// C002: the device model.
    public static let deviceModel = DeviceParameterID(unchecked: "C002")
    /// C003: the operating system's name.
    public static let osName = DeviceParameterID(unchecked: "C003")
    /// C004: the operating system's version.
    public static let osVersion = DeviceParameterID(unchecked: "C004")
    /// C005: the locale, `lang-COUNTRY`.
    public static let locale = DeviceParameterID(unchecked: "C005")
    /// C006: the time zone, as an offset from UTC in minutes.
    public static let timeZone = DeviceParameterID(unchecked: "C006")
    /// C007: a hardware or advertising identifier.
    public static let hardwareID = DeviceParameterID(unchecked: "C007")
    /// C008: the screen resolution, `WxH` in pixels.
    public static let screenResolution = DeviceParameterID(unchecked: "C008")
    /// C009: the device name.
    public static let deviceName = DeviceParameterID(unchecked: "C009")
    /// C010: the IP address.
    public static let ipAddress = DeviceParameterID(unchecked: "C010")
    /// C011: the latitude.
    public static let latitude = DeviceParameterID(unchecked: "C011")
    /// C012: the longitude.
    public static let longitude = DeviceParameterID(unchecked: "C012")
    /// C013: the app's identifier (bundle ID or package name).
    public static let appIdentifier = DeviceParameterID(unchecked: "C013")
    /// C014: the SDK App ID.
    public static let sdkAppID = DeviceParameterID(unchecked: "C014")
    /// C015: the SDK version.
    public static let sdkVersion = DeviceParameterID(unchecked: "C015")
    /// C016: the SDK reference number.
    public static let sdkReferenceNumber = DeviceParameterID(unchecked: "C016")
    /// C017: the date and time in UTC, `yyyyMMddHHmmss`.
    public static let dateTime = DeviceParameterID(unchecked: "C017")
    /// C018: the SDK transaction ID.
    public static let sdkTransactionID = DeviceParameterID(unchecked: "C018")

    // MARK: iOS parameters

    /// I001: the identifier for vendor.
    public static let identifierForVendor = DeviceParameterID(unchecked: "I001")
    /// I002: the user interface idiom.
    public static let userInterfaceIdiom = DeviceParameterID(unchecked: "I002")
    /// I003: the installed font family names.
    public static let fontFamilyNames = DeviceParameterID(unchecked: "I003")
    /// I004: the font names of the system font's family.
    public static let systemFontFamilyFontNames = DeviceParameterID(unchecked: "I004")
    /// I005: the system font's name.
    public static let systemFontName = DeviceParameterID(unchecked: "I005")
    /// I006: the label font size.
    public static let labelFontSize = DeviceParameterID(unchecked: "I006")
    /// I007: the button font size.
    public static let buttonFontSize = DeviceParameterID(unchecked: "I007")
    /// I008: the small system font size.
    public static let smallSystemFontSize = DeviceParameterID(unchecked: "I008")
    /// I009: the system font size.
    public static let systemFontSize = DeviceParameterID(unchecked: "I009")
    /// I010: the system locale, `lang-COUNTRY`.
    public static let systemLocale = DeviceParameterID(unchecked: "I010")
    /// I011: the available locale identifiers.
    public static let availableLocaleIdentifiers = DeviceParameterID(unchecked: "I011")
    /// I012: the preferred languages.
    public static let preferredLanguages = DeviceParameterID(unchecked: "I012")
    /// I013: the default time zone, as an offset from UTC in minutes.
    public static let defaultTimeZone = DeviceParameterID(unchecked: "I013")
    /// I014: the App Store receipt's URL.
    public static let appStoreReceiptURL = DeviceParameterID(unchecked: "I014")
    /// I015: whether an App Store receipt exists (`true` or `false`).
    public static let appStoreReceiptExists = DeviceParameterID(unchecked: "I015")
}

/// A platform the SDK collects device information on.
public enum DevicePlatform: String, Sendable, Hashable, CaseIterable {
    /// iOS and iPadOS.
    case iOS
    /// macOS.
    case macOS
    /// Linux.
    case linux = "Linux"

    /// Whether this is one of Apple's platforms.
    public var isApple: Bool { self != .linux }
}
