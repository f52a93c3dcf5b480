public import ThreeDS2JOSE
public import ThreeDS2Messages

/// The interface an ACS will challenge in (`acsRenderingType.acsInterface`).
public enum ACSInterface: String, Sendable, Hashable, CaseIterable {
    /// `01`: native UI.
    case native = "01"
    /// `02`: HTML UI.
    case html = "02"
}

/// Builds an ARes as a 3DS Server hands it to the app (protocol reference §3.3; 2.3.1 Table A.2): what
/// ``AuthenticationResponseRules`` and the SDK's `AuthenticationResponse` read. A challenge (`C`) carries the
/// `ChallengeParameterFields` and the rendering type; other statuses only the identifiers and the status.
///
/// The object carries no `messageType`: it is the app-facing answer in ARes field names, as the TestLab's 3DS Server
/// sends it. Anything else goes through `patched(_:)`, applied to the JSON object just before encoding.
public struct AuthenticationResponseBuilder: RawPatchable {
    /// `acsRenderingType`: the interface and UI template of the coming challenge.
    public struct RenderingType: Sendable, Hashable {
        /// `acsInterface`.
        public var interface: ACSInterface
        /// `acsUiTemplate`.
        public var template: UIType

        /// Creates a rendering type.
        ///
        /// - Parameters:
        ///   - interface: Native or HTML.
        ///   - template: The UI type of the first screen.
        public init(interface: ACSInterface, template: UIType) {
            self.interface = interface
            self.template = template
        }
    }

    /// The message version of the transaction.
    public var messageVersion: MessageVersion
    /// The 3DS Server, ACS and SDK transaction IDs.
    public var identifiers: TransactionIdentifiers
    /// `dsTransID`, when the directory server's ID is passed on.
    public var dsTransID: String?
    /// `transStatus`.
    public var transStatus: TransactionStatus
    /// `acsURL` (a browser challenge's; an app's comes in the signed content).
    public var acsURL: String?
    /// `acsReferenceNumber`.
    public var acsReferenceNumber: String?
    /// `acsSignedContent`, the JWS the SDK verifies.
    public var acsSignedContent: String?
    /// `acsRenderingType`.
    public var renderingType: RenderingType?
    /// `acsDecConInd` `Y` (2.2.0 and later): the ACS confirms a decoupled authentication (sent with `transStatus`
    /// `D`).
    public var confirmsDecoupled = false
    /// `cardholderInfo` (2.2.0 and later): a text for the cardholder, such as where to approve a decoupled
    /// authentication.
    public var cardholderInfo: String?
    /// The raw patches, in order (`patched(_:)` adds one).
    public var rawPatches: [RawPatch] = []

    /// An ARes with the identifiers and the status.
    ///
    /// - Parameters:
    ///   - messageVersion: The message version.
    ///   - identifiers: The transaction identifiers.
    ///   - transStatus: The status.
    public init(messageVersion: MessageVersion, identifiers: TransactionIdentifiers, transStatus: TransactionStatus) {
        self.messageVersion = messageVersion
        self.identifiers = identifiers
        self.transStatus = transStatus
    }

    /// A challenge ARes (`C`) with what the SDK needs to start it.
    ///
    /// - Parameters:
    ///   - messageVersion: The message version.
    ///   - identifiers: The transaction identifiers.
    ///   - acsReferenceNumber: The ACS reference number.
    ///   - acsSignedContent: The signed content (JWS).
    ///   - renderingType: The rendering type.
    /// - Returns: The ARes.
    public static func challenge(
        messageVersion: MessageVersion, identifiers: TransactionIdentifiers, acsReferenceNumber: String,
        acsSignedContent: String, renderingType: RenderingType?
    ) -> AuthenticationResponseBuilder {
        var ares = AuthenticationResponseBuilder(
            messageVersion: messageVersion, identifiers: identifiers, transStatus: .challengeRequired)
        ares.acsReferenceNumber = acsReferenceNumber
        ares.acsSignedContent = acsSignedContent
        ares.renderingType = renderingType
        return ares
    }

    /// The ARes JSON object: the typed fields, then the raw patches.
    public var json: JSONObject {
        var object: JSONObject = [
            "messageVersion": .string(messageVersion.rawValue),
            "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
            "acsTransID": .string(identifiers.acsTransID), "sdkTransID": .string(identifiers.sdkTransID),
        ]
        if let dsTransID { object["dsTransID"] = .string(dsTransID) }
        object["transStatus"] = .string(transStatus.rawValue)
        if let acsURL { object["acsURL"] = .string(acsURL) }
        if let acsReferenceNumber { object["acsReferenceNumber"] = .string(acsReferenceNumber) }
        if let acsSignedContent { object["acsSignedContent"] = .string(acsSignedContent) }
        if let renderingType {
            object["acsRenderingType"] = .object([
                "acsInterface": .string(renderingType.interface.rawValue),
                "acsUiTemplate": .string(renderingType.template.rawValue),
            ])
        }
        if confirmsDecoupled, messageVersion != .v2_1_0 { object["acsDecConInd"] = .string("Y") }
        if let cardholderInfo, messageVersion != .v2_1_0 { object["cardholderInfo"] = .string(cardholderInfo) }
        return rawPatches.applied(to: object)
    }

    /// The ARes as bytes.
    public var serializedBytes: [UInt8] { json.serializedBytes }
}
