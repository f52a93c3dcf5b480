import Foundation

/// The SDK's configuration: the EMVCo group/name/value parameters, with typed accessors for what the SDK uses.
///
/// Every typed accessor reads and writes the same group/name/value store, so a configuration built through either
/// API is the same configuration. Values are checked when the service is initialised
/// (``ThreeDS2Service/initialize(configParameters:locale:uiCustomization:)``), where a bad value is an
/// invalid-input error naming the parameter.
public struct ConfigParameters: Sendable, Hashable {
    /// The group used when none is given.
    public static let defaultGroup = "default"
    /// The group of the SDK's own parameters.
    public static let sdkGroup = "sdk"

    private var groups: [String: [String: String]] = [:]

    /// Creates an empty configuration.
    public init() {}

    /// Adds a parameter.
    ///
    /// - Parameters:
    ///   - group: The group; ``defaultGroup`` when `nil`.
    ///   - name: The parameter name; not empty.
    ///   - value: The value; `nil` is stored as an empty string.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an empty name or a parameter that already exists.
    public mutating func addParam(group: String? = nil, name: String, value: String?) throws(ThreeDS2Error) {
        let group = try Self.groupName(group)
        guard !name.isEmpty else { throw .invalidInput("a configuration parameter name must not be empty") }
        guard groups[group]?[name] == nil else {
            throw .invalidInput("configuration parameter \(group).\(name) is already set; remove it first")
        }
        groups[group, default: [:]][name] = value ?? ""
    }

    /// Reads a parameter.
    ///
    /// - Parameters:
    ///   - group: The group; ``defaultGroup`` when `nil`.
    ///   - name: The parameter name.
    /// - Returns: The value, or `nil` when the parameter is not set.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an empty name.
    public func getParamValue(group: String? = nil, name: String) throws(ThreeDS2Error) -> String? {
        guard !name.isEmpty else { throw .invalidInput("a configuration parameter name must not be empty") }
        return groups[try Self.groupName(group)]?[name]
    }

    /// Removes a parameter.
    ///
    /// - Parameters:
    ///   - group: The group; ``defaultGroup`` when `nil`.
    ///   - name: The parameter name.
    /// - Returns: The removed value, or `nil` when it was not set.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an empty name.
    @discardableResult
    public mutating func removeParam(group: String? = nil, name: String) throws(ThreeDS2Error) -> String? {
        guard !name.isEmpty else { throw .invalidInput("a configuration parameter name must not be empty") }
        let group = try Self.groupName(group)
        let removed = groups[group]?.removeValue(forKey: name)
        if groups[group]?.isEmpty == true { groups[group] = nil }
        return removed
    }

    /// The names of the groups that hold at least one parameter, sorted.
    public var groupNames: [String] { groups.keys.sorted() }

    private static func groupName(_ group: String?) throws(ThreeDS2Error) -> String {
        guard let group else { return defaultGroup }
        guard !group.isEmpty else { throw .invalidInput("a configuration group name must not be empty") }
        return group
    }

    // Typed access to the same store; setting nil removes.
    func value(_ group: String, _ name: String) -> String? { groups[group]?[name] }

    mutating func set(_ group: String, _ name: String, _ value: String?) {
        if let value {
            groups[group, default: [:]][name] = value
        } else {
            groups[group]?[name] = nil
            if groups[group]?.isEmpty == true { groups[group] = nil }
        }
    }
}

extension ConfigParameters {
    /// Parameter names in the ``sdkGroup``.
    public enum SDKParameter: String, Sendable, CaseIterable {
        /// The EMVCo-assigned SDK reference number (at most 32 characters). Required.
        case sdkReferenceNumber
        /// The app's identifier (bundle ID or package name), device parameter C013.
        case appIdentifier
        /// The app's version; the SDK App ID is re-created when it changes.
        case appVersion
        /// The log level: trace, debug, info, notice, warning, error or critical.
        case logLevel
        /// Comma-separated device parameter IDs that must not be collected (reported as RE01). An ID that is not in
        /// ``DeviceParameter/registry`` is refused at initialize.
        case restrictedParameters
        /// Comma-separated device parameter IDs the SDK does not collect by default on this platform that the app
        /// chooses to collect (for example `C010` on iOS); see ``DeviceParameter/collectedByDefault``.
        case enabledParameters
        /// `true` to allow plain-HTTP URLs on the loopback interface. For testing only; off by default.
        case allowPlainHTTPLoopback
        /// The directory where the SDK keeps its per-install data (the SDK App ID).
        case dataDirectory
        /// The minimum OS version considered supported (SW05): `major[.minor[.patch]]`, compared with the OS's
        /// structured version (`16.4` on iOS, `13.5` on macOS, a kernel release such as `5.10` on Linux).
        case minimumOSVersion
        /// The SHA-256 (hex) the app expects of its own executable; a mismatch raises SW02.
        case expectedExecutableSHA256
        /// `false` when the app does not let the SDK open the bank's app (2.3.1 CReqs then say `oobAppURLInd` `03`).
        case opensOOBApps
    }

    /// Reads one of the SDK's parameters.
    ///
    /// - Parameter parameter: The parameter.
    /// - Returns: The value, or `nil`.
    public subscript(parameter: SDKParameter) -> String? {
        get { value(Self.sdkGroup, parameter.rawValue) }
        set { set(Self.sdkGroup, parameter.rawValue, newValue) }
    }

    /// The SDK reference number.
    public var sdkReferenceNumber: String? {
        get { self[.sdkReferenceNumber] }
        set { self[.sdkReferenceNumber] = newValue }
    }

    /// The app identifier.
    public var appIdentifier: String? {
        get { self[.appIdentifier] }
        set { self[.appIdentifier] = newValue }
    }

    /// The app version.
    public var appVersion: String? {
        get { self[.appVersion] }
        set { self[.appVersion] = newValue }
    }

    /// The device parameter IDs that must not be collected, as written (validated at initialize).
    public var restrictedParameters: Set<String> {
        get { Self.idList(self[.restrictedParameters]) }
        set { self[.restrictedParameters] = newValue.isEmpty ? nil : newValue.sorted().joined(separator: ",") }
    }

    /// The device parameter IDs the app chooses to collect although the SDK does not by default, as written
    /// (validated at initialize).
    public var enabledParameters: Set<String> {
        get { Self.idList(self[.enabledParameters]) }
        set { self[.enabledParameters] = newValue.isEmpty ? nil : newValue.sorted().joined(separator: ",") }
    }

    private static func idList(_ text: String?) -> Set<String> {
        Set((text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    /// Whether plain-HTTP loopback URLs are allowed (testing only).
    public var allowsPlainHTTPLoopback: Bool {
        get { self[.allowPlainHTTPLoopback] == "true" }
        set { self[.allowPlainHTTPLoopback] = newValue ? "true" : nil }
    }

    /// Whether the app lets the SDK open the bank's out-of-band app from a challenge (2.3.1 `oobAppURL`, 2.2.0's
    /// Bridging extension); `true` unless set to `false`. The SDK says it can (`oobAppURLInd` `01`; in 2.2.0 the
    /// Bridging announcement, which also needs the `threeDSRequestorAppURL`) only when this is `true` and the
    /// presenter has an ``OOBAppOpener``.
    public var opensOOBApps: Bool {
        get { self[.opensOOBApps] != "false" }
        set { self[.opensOOBApps] = newValue ? nil : "false" }
    }

    /// The per-install data directory, overriding the per-user default.
    public var dataDirectory: String? {
        get { self[.dataDirectory] }
        set { self[.dataDirectory] = newValue }
    }
}

extension ConfigParameters {
    /// The group of the app's own texts: the one place an app replaces any text the SDK and its presenters show.
    /// Each parameter's name is an ``SDKStrings/Key`` raw value (`cancel`, `secureCheckout`, `noteTooLong`, …) and
    /// its value the text, used whatever the locale. At initialize, a name that is no key, or a text whose
    /// placeholders differ from the English text's, is an invalid-input error naming the parameter.
    public static let textsGroup = "texts"

    /// Replaces one of the SDK's texts in every language (the ``textsGroup`` group).
    ///
    /// - Parameters:
    ///   - text: The app's text, with the same placeholders as the English one (``SDKStrings/Key/placeholders``);
    ///     `nil` removes the replacement.
    ///   - key: The text replaced.
    public mutating func setText(_ text: String?, for key: SDKStrings.Key) {
        set(Self.textsGroup, key.rawValue, text)
    }

    /// The app's own texts, by key; names in ``textsGroup`` that are no key are left out (and refused at
    /// initialize).
    public var texts: [SDKStrings.Key: String] {
        var texts: [SDKStrings.Key: String] = [:]
        for (name, text) in textEntries {
            if let key = SDKStrings.Key(rawValue: name) { texts[key] = text }
        }
        return texts
    }

    /// Every parameter of the ``textsGroup`` group, by name.
    var textEntries: [String: String] { groups[Self.textsGroup] ?? [:] }
}
