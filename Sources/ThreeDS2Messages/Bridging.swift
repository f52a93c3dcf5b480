public import ThreeDS2JOSE

/// The Bridging message extension (`A000000802-004`), through which a 2.2.0 challenge carries the bank's-app link
/// that 2.3.1 has as core fields (bridging reference in the project's shared documentation).
///
/// The SDK announces it in the first CReq of a 2.2.0 challenge whose app can open the bank's app and gave its
/// `threeDSRequestorAppURL`; a CRes answering with it may link the bank's app (`challengeData.oobAppURL` and
/// `oobAppLabel`); the continue CReq after the cardholder came back from that app carries it again with
/// `oobContinue` `02`. It is never sent in 2.1.0 or 2.3.1.
public enum Bridging {
    /// The extension's `id`.
    public static let id = "A000000802-004"
    /// The extension's `name`.
    public static let name = "Bridging"

    /// The versions of the extension the SDK knows. The pairing rule keeps one version for a whole transaction: the
    /// SDK offers ``Version/v1_0`` and from then on uses the version the ACS answered with.
    public enum Version: String, Sendable, Hashable, CaseIterable {
        /// `1.0`.
        case v1_0 = "1.0"
        /// `2.0`.
        case v2_0 = "2.0"
    }

    /// What the SDK read from a CRes's Bridging extension.
    public struct Received: Sendable, Hashable {
        /// The version the ACS answered with, when it is one the SDK knows.
        public let version: Version?
        /// The version as sent, when it is not one the SDK knows.
        public let unknownVersion: String?
        /// The bank's app link, when both it and the label were present and it is an https URL with a host.
        public let appURL: String?
        /// The app button's label, present exactly when ``appURL`` is.
        public let appLabel: String?

        /// What a Bridging extension says, as the SDK reads it or an ACS writes it (`ChallengeResponseBuilder` of
        /// ThreeDS2ACSKit).
        ///
        /// - Parameters:
        ///   - version: The version, when it is one the SDK knows.
        ///   - unknownVersion: The version as sent, when it is not.
        ///   - appURL: The bank's app link.
        ///   - appLabel: The app button's label.
        public init(version: Version?, unknownVersion: String? = nil, appURL: String?, appLabel: String?) {
            self.version = version
            self.unknownVersion = unknownVersion
            self.appURL = appURL
            self.appLabel = appLabel
        }
    }

    /// The extension object a CReq carries.
    ///
    /// - Parameters:
    ///   - version: The version (``Version/v1_0`` until the ACS answered with another).
    ///   - returnedFromApp: `true` for the continue CReq after the cardholder came back from the bank's app
    ///     (`oobContinue` `02`); `false` for the announcement.
    /// - Returns: The `messageExtension` entry (non-critical).
    public static func requestExtension(version: Version, returnedFromApp: Bool) -> JSONValue {
        var challengeData: JSONObject = ["oobAppURLInd": .string(OOBAppURLIndicator.supported.rawValue)]
        if returnedFromApp { challengeData["oobContinue"] = OOBContinueIndicator.automatic.json }
        return .object([
            "name": .string(name), "id": .string(id), "criticalityIndicator": .bool(false),
            "data": .object(["version": .string(version.rawValue), "challengeData": .object(challengeData)]),
        ])
    }

    /// Reads the Bridging entry of a `messageExtension` array, if there is one. The version is read from
    /// `data.version` or, failing that, beside `data` (as one shipping SDK writes it).
    ///
    /// The link and its label are peer text like any core CRes field and go through the same rule
    /// (``ChallengeResponseValidator/extensionText(_:field:max:in:)``): a string of more than its length in
    /// Unicode scalars (45 for the label, 2048 for the link), of another JSON type, or carrying a control or
    /// bidirectional control character (``PeerText``) is an invalid data element (Erro 203 naming
    /// `messageExtension.Bridging.challengeData.oobAppLabel` or `…oobAppURL`). The app link is then offered only
    /// when both are present and the link is https with a host.
    ///
    /// - Parameter extensions: The message's `messageExtension` value (already checked for shape).
    /// - Returns: What it says, or `nil` when the message has no Bridging entry.
    /// - Throws: ``ProtocolViolation`` (invalid data element) for a label or link that breaks the display-text rule.
    public static func read(_ extensions: JSONValue?) throws(ProtocolViolation) -> Received? {
        try read(extensions, recorder: .stoppingAtFirst())
    }

    /// ``read(_:)`` recording into `recorder` (the CRes validator's, so an audit reports the extension's violations).
    static func read(_ extensions: JSONValue?, recorder: CResRecorder) throws(ProtocolViolation) -> Received? {
        guard let entries = extensions?.arrayValue,
            let entry = entries.compactMap(\.objectValue).first(where: { $0["id"] == .string(id) })
        else { return nil }
        let data = entry["data"]?.objectValue
        let versionText = data?["version"]?.stringValue ?? entry["version"]?.stringValue
        let version = versionText.flatMap(Version.init(rawValue:))
        let challengeData = data?["challengeData"]?.objectValue ?? [:]
        let prefix = "messageExtension.\(name).challengeData."
        var url = try ChallengeResponseValidator.extensionText(
            "oobAppURL", field: prefix + "oobAppURL", max: 2048, in: challengeData, recorder: recorder)
        var label = try ChallengeResponseValidator.extensionText(
            "oobAppLabel", field: prefix + "oobAppLabel", max: 45, in: challengeData, recorder: recorder)
        if let link = url, !ChallengeResponseValidator.isHTTPSURL(link) {
            // Tolerated: the link is not offered, and the screen is shown without the app button.
            try recorder.invalid(
                .bridgingAppURLNotHTTPS, prefix + "oobAppURL", "is not an https universal or app link",
                seen: .string(link))
        }
        if url == nil || label == nil || !ChallengeResponseValidator.isHTTPSURL(url ?? "") {
            url = nil
            label = nil
        }
        return Received(
            version: version, unknownVersion: version == nil ? versionText : nil, appURL: url, appLabel: label)
    }
}
