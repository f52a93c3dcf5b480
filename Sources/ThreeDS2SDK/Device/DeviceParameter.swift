/// One device parameter as the SDK collects it: where it comes from on each platform, why it may be missing, whether
/// it is collected by default, and what Apple's privacy rules make of it.
///
/// ``registry`` is the one list: device-information collection, the configuration's validation of parameter IDs,
/// the privacy manifest's test and the data-safety page all read it.
public struct DeviceParameter: Sendable, Hashable {
    /// The identifier.
    public let id: DeviceParameterID
    /// What the parameter is.
    public let title: String
    /// The API (or file) each platform reads it from; a platform missing here does not provide the parameter.
    public let sources: [DevicePlatform: String]
    /// The reason reported in `DPNA` where the parameter is never read (for example location: `RE03`).
    public let reasonNeverRead: UnavailableReason?
    /// The platforms where it is collected unless the app restricts it; elsewhere in ``sources`` it is collected
    /// only when the app lists it in ``ConfigParameters/enabledParameters``.
    public let collectedByDefault: Set<DevicePlatform>
    /// Why it is not collected by default on a platform that provides it, for the data-safety page.
    public let notCollectedByDefaultBecause: String?
    /// The data type Apple's privacy manifest declares for it when collected (`NSPrivacyCollectedDataType…`).
    public let appleDataType: ApplePrivacy.CollectedDataType?
    /// The required-reason API category its Apple source uses, with the declared reason; `nil` for none.
    public let requiredReasonAPI: ApplePrivacy.RequiredReasonAPI?

    /// The platforms that provide it.
    public var platforms: Set<DevicePlatform> { Set(sources.keys) }

    /// Whether `platform` reports it at all, in `DD` or `DPNA`: the common parameters everywhere, the iOS ones on iOS.
    public func isReported(on platform: DevicePlatform) -> Bool {
        id.rawValue.hasPrefix("C") || sources[platform] != nil
    }

    /// The entry for an identifier.
    public static func entry(_ id: DeviceParameterID) -> DeviceParameter {
        guard let entry = registry.first(where: { $0.id == id }) else {
            preconditionFailure("every DeviceParameterID has a registry entry")
        }
        return entry
    }

    /// Every parameter: `C001`–`C018`, then `I001`–`I015`.
    public static let registry: [DeviceParameter] = common + iOSParameters

    private static let everywhere: Set<DevicePlatform> = Set(DevicePlatform.allCases)
    private static let context = "the SDK's own data"

    private static func make(
        _ id: DeviceParameterID, _ title: String, _ sources: [DevicePlatform: String],
        neverRead: UnavailableReason? = nil, byDefault: Set<DevicePlatform>? = nil, offBecause: String? = nil,
        dataType: ApplePrivacy.CollectedDataType? = .otherDataTypes
    ) -> DeviceParameter {
        DeviceParameter(
            id: id, title: title, sources: sources, reasonNeverRead: neverRead,
            collectedByDefault: byDefault ?? Set(sources.keys), notCollectedByDefaultBecause: offBecause,
            appleDataType: sources.keys.contains(where: \.isApple) ? dataType : nil, requiredReasonAPI: nil)
    }

    private static let common: [DeviceParameter] = [
        make(
            .platform, "Platform",
            [.iOS: "compile-time platform (\"iOS\")", .macOS: "compile-time platform (\"macOS\")", .linux: "\"Linux\""]
        ),
        make(
            .deviceModel, "Device model",
            [
                .iOS: "sysctlbyname(\"hw.machine\"); SIMULATOR_MODEL_IDENTIFIER in the Simulator",
                .macOS: "sysctlbyname(\"hw.model\")",
                .linux: "/sys/class/dmi/id/product_name, else uname().machine",
            ]),
        make(
            .osName, "OS name",
            [.iOS: "UIDevice.current.systemName", .macOS: "\"macOS\"", .linux: "/etc/os-release NAME"]),
        make(
            .osVersion, "OS version",
            [
                .iOS: "ProcessInfo.operatingSystemVersion", .macOS: "ProcessInfo.operatingSystemVersion",
                .linux: "/etc/os-release VERSION_ID, else the kernel release",
            ]),
        make(
            .locale, "Locale",
            [
                .iOS: "the locale given to initialize", .macOS: "the locale given to initialize",
                .linux: "the locale given to initialize",
            ]),
        make(
            .timeZone, "Time zone", [.iOS: "TimeZone.current", .macOS: "TimeZone.current", .linux: "TimeZone.current"]),
        make(.hardwareID, "Hardware or advertising ID", [:], neverRead: .unsupportedPlatform),
        make(
            .screenResolution, "Screen resolution",
            [
                .iOS: "UIWindowScene.screen.nativeBounds", .macOS: "NSScreen.main frame × backingScaleFactor",
                .linux: "/sys/class/graphics/fb0/virtual_size",
            ]),
        make(
            .deviceName, "Device name",
            [.iOS: "UIDevice.current.name", .macOS: "gethostname()", .linux: "gethostname()"],
            byDefault: [.iOS, .linux],
            offBecause:
                "on macOS the computer's name usually carries its owner's name (\"Jane's MacBook Pro\"); on iOS 16 and"
                + " later UIDevice.name is the generic model name"),
        make(
            .ipAddress, "IP address",
            [.iOS: "getifaddrs()", .macOS: "getifaddrs()", .linux: "getifaddrs()"], byDefault: [.linux],
            offBecause:
                "enumerating network interfaces is a fingerprinting signal App Review has named when rejecting a"
                + " 3-D Secure SDK, and the 3DS Server sees the app's public address anyway",
            dataType: .coarseLocation),
        make(.latitude, "Latitude", [:], neverRead: .permissionRequired),
        make(.longitude, "Longitude", [:], neverRead: .permissionRequired),
        make(
            .appIdentifier, "App identifier",
            [.iOS: "sdk.appIdentifier", .macOS: "sdk.appIdentifier", .linux: "sdk.appIdentifier"]),
        make(
            .sdkAppID, "SDK App ID", [.iOS: context, .macOS: context, .linux: context], dataType: .deviceID),
        make(.sdkVersion, "SDK version", [.iOS: context, .macOS: context, .linux: context]),
        make(.sdkReferenceNumber, "SDK reference number", [.iOS: context, .macOS: context, .linux: context]),
        make(.dateTime, "Date and time (UTC)", [.iOS: "Date()", .macOS: "Date()", .linux: "Date()"]),
        make(.sdkTransactionID, "SDK transaction ID", [.iOS: context, .macOS: context, .linux: context]),
    ]

    private static let iOSParameters: [DeviceParameter] = [
        make(
            .identifierForVendor, "Identifier for vendor", [.iOS: "UIDevice.current.identifierForVendor"],
            dataType: .deviceID),
        make(.userInterfaceIdiom, "User interface idiom", [.iOS: "UIDevice.current.userInterfaceIdiom (raw value)"]),
        make(.fontFamilyNames, "Font family names", [.iOS: "UIFont.familyNames"]),
        make(
            .systemFontFamilyFontNames, "System font family's font names",
            [.iOS: "UIFont.fontNames(forFamilyName:) of the system font's family"]),
        make(.systemFontName, "System font name", [.iOS: "UIFont.systemFont(ofSize:).fontName"]),
        make(.labelFontSize, "Label font size", [.iOS: "UIFont.labelFontSize"]),
        make(.buttonFontSize, "Button font size", [.iOS: "UIFont.buttonFontSize"]),
        make(.smallSystemFontSize, "Small system font size", [.iOS: "UIFont.smallSystemFontSize"]),
        make(.systemFontSize, "System font size", [.iOS: "UIFont.systemFontSize"]),
        make(.systemLocale, "System locale", [.iOS: "NSLocale.system"]),
        make(.availableLocaleIdentifiers, "Available locale identifiers", [.iOS: "Locale.availableIdentifiers"]),
        make(.preferredLanguages, "Preferred languages", [.iOS: "Locale.preferredLanguages"]),
        make(.defaultTimeZone, "Default time zone", [.iOS: "NSTimeZone.default"]),
        make(
            .appStoreReceiptURL, "App Store receipt URL", [.iOS: "Bundle.main.appStoreReceiptURL"], byDefault: [],
            offBecause:
                "the path carries the app container's per-install UUID, an identifier; I015 gives the risk signal"
                + " (whether a receipt exists) without it",
            dataType: .deviceID),
        make(
            .appStoreReceiptExists, "App Store receipt exists",
            [
                .iOS:
                    "the first byte of the file at Bundle.main.appStoreReceiptURL (FileHandle; empty or absent is false)"
            ]),
    ]
}

/// Apple's privacy-manifest vocabulary, as far as the SDK uses it (`PrivacyInfo.xcprivacy`).
public enum ApplePrivacy {
    /// A collected data type (`NSPrivacyCollectedDataType`).
    public enum CollectedDataType: String, Sendable, Hashable, CaseIterable {
        /// A device-level identifier: the identifier for vendor (I001), the SDK App ID (C014).
        case deviceID = "NSPrivacyCollectedDataTypeDeviceID"
        /// Coarse location, as an IP address can give (C010; off by default on Apple platforms).
        case coarseLocation = "NSPrivacyCollectedDataTypeCoarseLocation"
        /// Device characteristics that fit no other type: model, OS, screen, locale, fonts, time zone.
        case otherDataTypes = "NSPrivacyCollectedDataTypeOtherDataTypes"
    }

    /// A required-reason API category (`NSPrivacyAccessedAPIType`) and the reason codes declared for it.
    public struct RequiredReasonAPI: Sendable, Hashable {
        /// The category, for example `NSPrivacyAccessedAPICategoryFileTimestamp`.
        public let category: String
        /// The declared reason codes, for example `C617.1`.
        public let reasons: [String]

        /// Creates a use.
        ///
        /// - Parameters:
        ///   - category: The category.
        ///   - reasons: The reason codes.
        public init(category: String, reasons: [String]) {
            self.category = category
            self.reasons = reasons
        }
    }

    /// Every required-reason API the SDK's Apple-built code calls, with its reason. Empty today: the SDK calls none of
    /// Apple's required-reason APIs (file timestamps, system boot time, disk space, active keyboards, user
    /// defaults); its security checks test paths with `access` and `readlink`, not `stat`. A test scans the sources
    /// for each category's APIs and holds this list and `PrivacyInfo.xcprivacy` to what it finds.
    public static let requiredReasonAPIs: [RequiredReasonAPI] =
        DeviceParameter.registry.compactMap(\.requiredReasonAPI)

    /// The data types the SDK collects on Apple platforms by default, as `PrivacyInfo.xcprivacy` declares them.
    public static var collectedDataTypesByDefault: Set<CollectedDataType> {
        Set(
            DeviceParameter.registry.filter { !$0.collectedByDefault.filter(\.isApple).isEmpty }
                .compactMap(\.appleDataType))
    }
}

extension DeviceParameter {
    /// The data-safety table of the documentation (`Docs.docc/DataSafety.md`), made from ``registry``: per parameter,
    /// what each platform reads and whether it is collected by default. A test keeps the article equal to it.
    public static func dataSafetyTable() -> String {
        var lines = [
            "| ID | Parameter | iOS | macOS | Linux | By default |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for entry in registry {
            let cells = [DevicePlatform.iOS, .macOS, .linux].map { platform in
                entry.sources[platform].map { "\($0)" } ?? "—"
            }
            lines.append(
                "| \(entry.id) | \(entry.title) | " + cells.joined(separator: " | ") + " | \(entry.defaultSummary) |")
        }
        return lines.joined(separator: "\n")
    }

    private var defaultSummary: String {
        if let reason = reasonNeverRead { return "never read (\(reason.rawValue))" }
        let off = sources.keys.filter { !collectedByDefault.contains($0) }
        guard !off.isEmpty else { return "collected" }
        let names = DevicePlatform.allCases.filter(off.contains).map(\.rawValue).joined(separator: ", ")
        return "off on \(names) (RE01): \(notCollectedByDefaultBecause ?? "")"
    }
}
