import Foundation
import ThreeDS2JOSE

/// Why a device parameter is missing from device data (EMVCo Device Information, "DPNA" reason codes).
public enum UnavailableReason: String, Sendable, Hashable, Error {
    /// RE01: restricted by the app's configuration (market or region rules); the value is not read at all.
    case restricted = "RE01"
    /// RE02: the platform does not support the parameter.
    case unsupportedPlatform = "RE02"
    /// RE03: reading it needs a permission the app does not have (the SDK never asks for one).
    case permissionRequired = "RE03"
    /// RE04: the value is empty or cannot be determined.
    case noValue = "RE04"
}

/// A collected parameter's value: text, or a list of texts (the iOS font, locale and language lists).
public enum DeviceValue: Sendable, Hashable {
    /// A text.
    case text(String)
    /// A list of texts, sent as a JSON array.
    case list([String])

    var json: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .list(let items): .array(items.map { .string($0) })
        }
    }
}

/// The device information sent, encrypted, to the directory server: `{"DV","DD","DPNA","SW"}`.
public struct DeviceInformation: Sendable, Hashable {
    /// The data version of the EMVCo Device Information specification this follows.
    public static let dataVersion = "1.7"
    /// The largest JSON accepted; the AReq field is bounded at 64,000 characters after encryption.
    public static let maxJSONCharacters = 64_000

    /// Collected parameters.
    public var collected: [DeviceParameterID: DeviceValue]
    /// Parameters not available, with the reason.
    public var unavailable: [DeviceParameterID: UnavailableReason]
    /// Security warning IDs.
    public var securityWarnings: [Warning.ID]

    /// Creates device information.
    ///
    /// - Parameters:
    ///   - collected: Collected parameters.
    ///   - unavailable: Parameters not available, with the reason.
    ///   - securityWarnings: Security warning IDs.
    public init(
        collected: [DeviceParameterID: DeviceValue] = [:], unavailable: [DeviceParameterID: UnavailableReason] = [:],
        securityWarnings: [Warning.ID] = []
    ) {
        self.collected = collected
        self.unavailable = unavailable
        self.securityWarnings = securityWarnings
    }

    /// The JSON text, members in a fixed order and parameters sorted by ID.
    public var json: String {
        var dd = JSONObject()
        for key in collected.keys.sorted() { dd[key.rawValue] = collected[key]?.json ?? .string("") }
        var dpna = JSONObject()
        for key in unavailable.keys.sorted() { dpna[key.rawValue] = .string(unavailable[key]?.rawValue ?? "") }
        let object: JSONObject = [
            "DV": .string(Self.dataVersion), "DD": .object(dd), "DPNA": .object(dpna),
            "SW": .array(securityWarnings.map { .string($0.rawValue) }),
        ]
        return object.serialized
    }
}

/// The transaction-specific inputs of device information.
struct DeviceInformationContext: Sendable {
    let locale: Locale
    let appIdentifier: String
    let sdkAppID: String
    let sdkVersion: String
    let sdkReferenceNumber: String
    let sdkTransactionID: String
    let now: Date
}

/// Collects the parameters of ``DeviceParameter/registry`` that the probe's platform reports, through the probe.
/// Never prompts, never blocks on anything but small local reads; a restricted parameter, or one not collected by
/// default and not enabled, is not read at all.
struct DeviceInformationCollector: Sendable {
    let probe: any SystemProbe
    let restricted: Set<DeviceParameterID>
    let enabled: Set<DeviceParameterID>

    /// The most characters of one text value, and the most entries and characters of one list.
    static let maxTextCharacters = 256
    static let maxListEntries = 1_000
    static let maxListCharacters = 16_000

    /// The UI facts each parameter reads; the collector asks the probe for all of them in one call.
    static func facts(for id: DeviceParameterID, on platform: DevicePlatform) -> [PlatformFact] {
        switch id {
        case .osName: platform == .iOS ? [.systemName] : []
        case .screenResolution: platform == .linux ? [] : [.nativeScreenSize]
        case .deviceName: platform == .iOS ? [.deviceName] : []
        case .identifierForVendor: [.identifierForVendor]
        case .userInterfaceIdiom: [.userInterfaceIdiom]
        case .fontFamilyNames: [.fontFamilyNames]
        case .systemFontFamilyFontNames: [.systemFontFamilyFontNames]
        case .systemFontName: [.systemFontName]
        case .labelFontSize: [.labelFontSize]
        case .buttonFontSize: [.buttonFontSize]
        case .smallSystemFontSize: [.smallSystemFontSize]
        case .systemFontSize: [.systemFontSize]
        case .systemLocale: [.systemLocaleIdentifier]
        case .availableLocaleIdentifiers: [.availableLocaleIdentifiers]
        case .preferredLanguages: [.preferredLanguages]
        case .defaultTimeZone: [.defaultTimeZoneOffset]
        case .appStoreReceiptURL: [.appStoreReceiptURL]
        case .appStoreReceiptExists: [.appStoreReceiptExists]
        default: []
        }
    }

    func collect(_ context: DeviceInformationContext, warnings: [Warning]) -> DeviceInformation {
        let platform = probe.platform
        var info = DeviceInformation(securityWarnings: warnings.map(\.id))
        var readable: [DeviceParameterID] = []
        for entry in DeviceParameter.registry where entry.isReported(on: platform) {
            switch availability(entry, on: platform) {
            case .failure(let reason): info.unavailable[entry.id] = reason
            case .success: readable.append(entry.id)
            }
        }
        // Every UI fact in one call (one main-thread hop on Apple platforms), and only the facts of parameters read.
        var wanted: [PlatformFact] = []
        for id in readable {
            for fact in Self.facts(for: id, on: platform) where !wanted.contains(fact) { wanted.append(fact) }
        }
        let facts = wanted.isEmpty ? [:] : probe.platformFacts(wanted)
        for id in readable {
            switch read(id, on: platform, context, facts) {
            case .success(let value): info.collected[id] = value
            case .failure(let reason): info.unavailable[id] = reason
            }
        }
        return info
    }

    /// Whether the parameter is read at all: restricted by the app (RE01), never read (its fixed reason), not on this
    /// platform (RE02), or off by default and not enabled by the app (RE01).
    private func availability(_ entry: DeviceParameter, on platform: DevicePlatform) -> Result<
        Void, UnavailableReason
    > {
        if restricted.contains(entry.id) { return .failure(.restricted) }
        if let reason = entry.reasonNeverRead { return .failure(reason) }
        guard entry.sources[platform] != nil else { return .failure(.unsupportedPlatform) }
        if !entry.collectedByDefault.contains(platform), !enabled.contains(entry.id) { return .failure(.restricted) }
        return .success(())
    }

    /// Reads one parameter: a value, or the reason it is unavailable.
    private func read(
        _ id: DeviceParameterID, on platform: DevicePlatform, _ context: DeviceInformationContext,
        _ facts: [PlatformFact: PlatformFactValue]
    ) -> Result<DeviceValue, UnavailableReason> {
        func fact(_ fact: PlatformFact) -> PlatformFactValue? { facts[fact] }
        let linux = LinuxDeviceSource(probe: probe)
        switch id {
        case .platform: return text(platform.rawValue)
        case .deviceModel:
            switch platform {
            case .linux: return text(linux.deviceModel())
            case .iOS, .macOS:
                let simulated = probe.isSimulator ? probe.environment("SIMULATOR_MODEL_IDENTIFIER") : nil
                // `hw.machine` names an iPhone or iPad ("iPhone15,2"); on a Mac it is the architecture ("arm64"),
                // and `hw.model` names the Mac ("Mac14,9"), also for an iPhone/iPad app there and Mac Catalyst.
                let onMac = platform == .macOS || probe.runtimeEnvironment.hostIsMac
                return text(simulated ?? probe.sysctlString(onMac ? "hw.model" : "hw.machine"))
            }
        case .osName:
            switch platform {
            case .linux: return text(linux.osName())
            case .iOS: return text(fact(.systemName).flatMap(Self.textValue) ?? platform.rawValue)
            case .macOS: return text(platform.rawValue)
            }
        case .osVersion:
            return text(platform == .linux ? linux.osVersion() : probe.operatingSystemVersion?.dottedDescription)
        case .locale: return text(Self.localeTag(context.locale))
        case .timeZone: return .success(.text(String(TimeZone.current.secondsFromGMT(for: context.now) / 60)))
        case .screenResolution:
            if platform == .linux {
                return text(linux.screenResolution().map { "\($0.width)x\($0.height)" })
            }
            guard case .size(let width, let height)? = fact(.nativeScreenSize), width >= 1, height >= 1,
                width < 1e6, height < 1e6
            else { return .failure(.noValue) }
            return text("\(Int(width.rounded()))x\(Int(height.rounded()))")
        case .deviceName: return text(platform == .iOS ? fact(.deviceName).flatMap(Self.textValue) : probe.hostName)
        case .ipAddress: return text(probe.ipAddress)
        case .appIdentifier: return text(context.appIdentifier)
        case .sdkAppID: return text(context.sdkAppID)
        case .sdkVersion: return text(context.sdkVersion)
        case .sdkReferenceNumber: return text(context.sdkReferenceNumber)
        case .dateTime: return .success(.text(Self.utcTimestamp(context.now)))
        case .sdkTransactionID: return text(context.sdkTransactionID)
        default: return readPlatformFact(id, facts)
        }
    }

    /// The iOS parameters: one UIKit fact each, formatted here.
    private func readPlatformFact(_ id: DeviceParameterID, _ facts: [PlatformFact: PlatformFactValue]) -> Result<
        DeviceValue, UnavailableReason
    > {
        func fact(_ fact: PlatformFact) -> PlatformFactValue? { facts[fact] }
        switch id {
        case .identifierForVendor: return text(fact(.identifierForVendor).flatMap(Self.textValue))
        case .userInterfaceIdiom: return number(fact(.userInterfaceIdiom))
        case .fontFamilyNames: return list(fact(.fontFamilyNames))
        case .systemFontFamilyFontNames:
            // Never empty (EMVCo test case TC_SDK_10176_001): the system font's private family usually lists no
            // names, and an empty list is sent as one empty name.
            guard case .texts(let names)? = fact(.systemFontFamilyFontNames) else { return .failure(.noValue) }
            return names.isEmpty ? .success(.list([""])) : list(.texts(names))
        case .systemFontName: return text(fact(.systemFontName).flatMap(Self.textValue))
        case .labelFontSize: return number(fact(.labelFontSize))
        case .buttonFontSize: return number(fact(.buttonFontSize))
        case .smallSystemFontSize: return number(fact(.smallSystemFontSize))
        case .systemFontSize: return number(fact(.systemFontSize))
        case .systemLocale:
            // NSLocale.system is the root locale on iOS: its identifier names no language, and nothing is invented.
            guard let identifier = fact(.systemLocaleIdentifier).flatMap(Self.textValue),
                Locale(identifier: identifier).language.languageCode != nil
            else { return .failure(.noValue) }
            return text(Self.localeTag(Locale(identifier: identifier)))
        case .availableLocaleIdentifiers: return list(fact(.availableLocaleIdentifiers))
        case .preferredLanguages: return list(fact(.preferredLanguages))
        case .defaultTimeZone:
            guard case .number(let seconds)? = fact(.defaultTimeZoneOffset), abs(seconds) < 86_400 else {
                return .failure(.noValue)
            }
            return .success(.text(String(Int(seconds) / 60)))
        case .appStoreReceiptURL: return text(fact(.appStoreReceiptURL).flatMap(Self.textValue))
        case .appStoreReceiptExists:
            guard case .flag(let exists)? = fact(.appStoreReceiptExists) else { return .failure(.noValue) }
            return .success(.text(exists ? "true" : "false"))
        default: return .failure(.unsupportedPlatform)
        }
    }

    private static func textValue(_ value: PlatformFactValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }

    private func text(_ text: String?) -> Result<DeviceValue, UnavailableReason> {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return .failure(.noValue)
        }
        return .success(.text(String(trimmed.prefix(Self.maxTextCharacters))))
    }

    private func number(_ value: PlatformFactValue?) -> Result<DeviceValue, UnavailableReason> {
        guard case .number(let number)? = value, number.isFinite, abs(number) < 1e9 else { return .failure(.noValue) }
        return .success(.text(Self.format(number)))
    }

    private func list(_ value: PlatformFactValue?) -> Result<DeviceValue, UnavailableReason> {
        guard case .texts(let items)? = value, !items.isEmpty else { return .failure(.noValue) }
        var kept: [String] = []
        var characters = 0
        for item in items.prefix(Self.maxListEntries) {
            let bounded = String(item.prefix(Self.maxTextCharacters))
            characters += bounded.count
            guard characters <= Self.maxListCharacters else { break }
            kept.append(bounded)
        }
        return .success(.list(kept))
    }

    /// A number as the shortest text: `17` for a whole number, `17.5` otherwise.
    static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }

    static func localeTag(_ locale: Locale) -> String {
        let language = locale.language.languageCode?.identifier ?? "en"
        // lang-COUNTRY: a numeric UN M.49 region ("001", the world) is not a country, so it is left out.
        guard let region = locale.region?.identifier, region.count == 2, region.allSatisfy(\.isLetter) else {
            return language
        }
        return "\(language)-\(region)"
    }

    static func utcTimestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02d%02d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
            c.second ?? 0)
    }
}
