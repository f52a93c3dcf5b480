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

/// The device information sent, encrypted, to the directory server: `{"DV","DD","DPNA","SW"}`.
public struct DeviceInformation: Sendable, Hashable {
    /// The data version of the EMVCo Device Information specification this follows.
    public static let dataVersion = "1.7"
    /// The largest JSON accepted; the AReq field is bounded at 64,000 characters after encryption.
    public static let maxJSONCharacters = 64_000

    /// Collected parameters by ID (`C001`, …).
    public var collected: [String: String]
    /// Parameters not available, by ID, with the reason.
    public var unavailable: [String: UnavailableReason]
    /// Security warning IDs.
    public var securityWarnings: [String]

    /// The JSON text, members in a fixed order and parameters sorted by ID.
    public var json: String {
        var dd = JSONObject()
        for key in collected.keys.sorted() { dd[key] = .string(collected[key] ?? "") }
        var dpna = JSONObject()
        for key in unavailable.keys.sorted() { dpna[key] = .string(unavailable[key]?.rawValue ?? "") }
        let object: JSONObject = [
            "DV": .string(Self.dataVersion), "DD": .object(dd), "DPNA": .object(dpna),
            "SW": .array(securityWarnings.map { .string($0) }),
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

/// Collects the common parameters C001–C018 through a ``SystemProbe``. Never prompts, never blocks on anything but
/// small local file reads; a restricted parameter is not read at all.
struct DeviceInformationCollector: Sendable {
    let probe: any SystemProbe
    let restricted: Set<String>

    /// The common parameter IDs, in order.
    static let parameterIDs = (1...18).map { String(format: "C%03d", $0) }

    /// Reads one parameter: a value, or the reason it is unavailable.
    private func read(_ id: String, _ context: DeviceInformationContext) -> Result<String, UnavailableReason> {
        switch id {
        case "C001": return .success(probe.platformName)
        case "C002": return value(nonBlank(probe.readFile("/sys/class/dmi/id/product_name")) ?? probe.machine)
        case "C003": return value(osRelease()["NAME"] ?? probe.platformName)
        case "C004": return value(osRelease()["VERSION_ID"] ?? probe.readFile("/proc/sys/kernel/osrelease"))
        case "C005": return value(Self.localeTag(context.locale))
        case "C006": return .success(String(TimeZone.current.secondsFromGMT(for: context.now) / 60))
        case "C007": return .failure(.unsupportedPlatform)  // a hardware or advertising ID: none on this platform
        case "C008": return screenResolution()
        case "C009": return value(probe.hostName)
        case "C010": return value(probe.ipAddress)
        case "C011", "C012": return .failure(.permissionRequired)  // location: the SDK never asks for it
        case "C013": return value(context.appIdentifier)
        case "C014": return value(context.sdkAppID)
        case "C015": return value(context.sdkVersion)
        case "C016": return value(context.sdkReferenceNumber)
        case "C017": return .success(Self.utcTimestamp(context.now))
        case "C018": return value(context.sdkTransactionID)
        default: return .failure(.unsupportedPlatform)
        }
    }

    func collect(_ context: DeviceInformationContext, warnings: [Warning]) -> DeviceInformation {
        var info = DeviceInformation(collected: [:], unavailable: [:], securityWarnings: warnings.map(\.id))
        for id in Self.parameterIDs {
            if restricted.contains(id) {
                info.unavailable[id] = .restricted
                continue
            }
            switch read(id, context) {
            case .success(let value): info.collected[id] = String(value.prefix(256))
            case .failure(let reason): info.unavailable[id] = reason
            }
        }
        return info
    }

    /// The text unless it is empty or only white space (an empty DMI file names nothing).
    private func nonBlank(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    private func value(_ text: String?) -> Result<String, UnavailableReason> {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return .failure(.noValue)
        }
        return .success(trimmed)
    }

    private func osRelease() -> [String: String] {
        guard let text = probe.readFile("/etc/os-release") else { return [:] }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            fields[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        return fields
    }

    private func screenResolution() -> Result<String, UnavailableReason> {
        guard
            let size = probe.readFile("/sys/class/graphics/fb0/virtual_size")?.trimmingCharacters(
                in: .whitespacesAndNewlines),
            case let parts = size.split(separator: ","), parts.count == 2
        else { return .failure(.noValue) }
        return .success("\(parts[0])x\(parts[1])")
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
