public import ThreeDS2JOSE

/// The three transaction identifiers of a challenge.
public struct TransactionIdentifiers: Sendable, Hashable {
    /// The 3DS Server transaction ID.
    public var threeDSServerTransID: String
    /// The ACS transaction ID.
    public var acsTransID: String
    /// The SDK transaction ID.
    public var sdkTransID: String

    /// Creates the identifiers.
    public init(threeDSServerTransID: String, acsTransID: String, sdkTransID: String) {
        self.threeDSServerTransID = threeDSServerTransID
        self.acsTransID = acsTransID
        self.sdkTransID = sdkTransID
    }
}

/// An EMV 3-D Secure error message (`Erro`).
public struct ErrorMessage: Sendable, Hashable {
    /// The error code (three digits), as received.
    public var errorCode: ProtocolErrorCode
    /// The component that found the error: `C` SDK, `S` 3DS Server, `D` DS, `A` ACS.
    public var errorComponent: ErrorComponent
    /// The description.
    public var errorDescription: String
    /// The detail (the data elements concerned).
    public var errorDetail: String
    /// The type of the message in error, when known (`CRes`, `CReq`, …).
    public var errorMessageType: MessageType?
    /// The message version, as sent: an Erro from the ACS may carry a version the SDK does not speak.
    public var messageVersion: String
    /// The 3DS Server transaction ID, when known.
    public var threeDSServerTransID: String?
    /// The ACS transaction ID, when known.
    public var acsTransID: String?
    /// The SDK transaction ID, when known.
    public var sdkTransID: String?
    /// The DS transaction ID, when known (the SDK never knows it).
    public var dsTransID: String?
    /// Whether a received Erro names another transaction than the one it was received in: one of its transaction IDs
    /// is present and differs from the transaction's (set by the SDK when it reads an ACS's Erro; `false` for an Erro
    /// the SDK sends). Such an Erro still ends the challenge; a support team should know it was not about this one.
    public var concernsAnotherTransaction = false

    /// The ACS's `errorDescription` and `errorDetail` are **peer text**: written by another party, never by the SDK,
    /// and possibly in any language or none. For a log or a support screen, this is them with every control and
    /// bidirectional character written as a visible `\u{…}` escape (and a backslash doubled); never show either to
    /// the cardholder (the SDK's cardholder text is for that).
    public var escapedPeerText: (description: String, detail: String) {
        (PeerText.escapedForTerminal(errorDescription), PeerText.escapedForTerminal(errorDetail))
    }

    /// Whether any transaction ID this Erro carries differs from `identifiers` (a missing one contradicts nothing).
    ///
    /// - Parameter identifiers: The transaction's identifiers.
    /// - Returns: `true` when the Erro names another transaction.
    public func names(anotherTransactionThan identifiers: TransactionIdentifiers) -> Bool {
        [
            (threeDSServerTransID, identifiers.threeDSServerTransID), (acsTransID, identifiers.acsTransID),
            (sdkTransID, identifiers.sdkTransID),
        ].contains { received, own in received.map { $0 != own } ?? false }
    }

    /// The Erro the SDK sends about a violation in a message of `messageType`.
    ///
    /// - Parameters:
    ///   - violation: What was wrong.
    ///   - messageType: The type of the faulty message (`CRes`, or `CReq` for a timeout).
    ///   - identifiers: The transaction identifiers.
    ///   - messageVersion: The transaction's version.
    public init(
        sdkViolation violation: ProtocolViolation, messageType: MessageType, identifiers: TransactionIdentifiers,
        messageVersion: MessageVersion
    ) {
        errorCode = violation.code
        errorComponent = .sdk
        errorDescription = violation.code.sentDescription
        errorDetail = violation.detail
        errorMessageType = messageType
        self.messageVersion = messageVersion.rawValue
        threeDSServerTransID = identifiers.threeDSServerTransID
        acsTransID = identifiers.acsTransID
        sdkTransID = identifiers.sdkTransID
    }

    /// Creates an error message from all its fields.
    public init(
        errorCode: ProtocolErrorCode, errorComponent: ErrorComponent, errorDescription: String, errorDetail: String,
        errorMessageType: MessageType?,
        messageVersion: String, threeDSServerTransID: String?, acsTransID: String?, sdkTransID: String?,
        dsTransID: String? = nil
    ) {
        self.errorCode = errorCode
        self.errorComponent = errorComponent
        self.errorDescription = errorDescription
        self.errorDetail = errorDetail
        self.errorMessageType = errorMessageType
        self.messageVersion = messageVersion
        self.threeDSServerTransID = threeDSServerTransID
        self.acsTransID = acsTransID
        self.sdkTransID = sdkTransID
        self.dsTransID = dsTransID
    }

    /// The Erro fields a peer may send, in the order they are checked, with their length bounds and whether they
    /// are required.
    private static let fields: [(name: String, max: Int, required: Bool)] = [
        ("errorCode", 3, true), ("errorComponent", 1, true), ("errorDescription", 2048, true),
        ("errorDetail", 2048, true), ("messageVersion", 8, true), ("errorMessageType", 4, false),
        ("threeDSServerTransID", 36, false), ("acsTransID", 36, false), ("sdkTransID", 36, false),
        ("dsTransID", 36, false),
    ]

    /// Reads an Erro received from a peer. Only `messageType` "Erro" and the required fields are checked; lengths
    /// are bounded so a hostile peer cannot make the SDK keep a large message.
    ///
    /// - Parameter object: The JSON object.
    /// - Throws: ``ProtocolViolation`` when it is not a well-formed Erro.
    public init(json object: JSONObject) throws(ProtocolViolation) {
        guard MessageType(in: object) == .error else {
            throw ProtocolViolation(
                .messageReceivedInvalid, detail: "messageType", explanation: "the message is not an Erro")
        }
        for rule in Self.fields {
            let name = rule.name
            guard let value = object[name] else {
                if rule.required {
                    throw ProtocolViolation(
                        .requiredElementMissing, detail: name, explanation: "Erro field `\(name)` is missing")
                }
                continue
            }
            guard case .string(let text) = value, !text.isEmpty, PeerText.fits(text, max: rule.max) else {
                throw ProtocolViolation(
                    .invalidFormat, detail: name,
                    explanation: "Erro field `\(name)` is not a string of 1–\(rule.max) characters")
            }
        }
        // Every field is within its bound now, so the tolerant reading keeps each exactly as sent.
        self.init(received: object)
    }

    /// Reads an Erro as an ACS sent it, tolerating missing or malformed fields: what is there is kept (strings cut
    /// to their bound), what is missing is empty. An Erro is reported to the app, never answered with another Erro,
    /// so there is nothing to refuse.
    ///
    /// - Parameter object: A JSON object whose `messageType` is `Erro`.
    public init(received object: JSONObject) {
        func text(_ name: String) -> String? {
            guard case .string(let value)? = object[name], !value.isEmpty,
                let rule = Self.fields.first(where: { $0.name == name })
            else { return nil }
            return String(String.UnicodeScalarView(value.unicodeScalars.prefix(rule.max)))
        }
        errorCode = ProtocolErrorCode(rawValue: text("errorCode") ?? "")
        errorComponent = ErrorComponent(rawValue: text("errorComponent") ?? "")
        errorDescription = text("errorDescription") ?? ""
        errorDetail = text("errorDetail") ?? ""
        messageVersion = text("messageVersion") ?? ""
        errorMessageType = text("errorMessageType").map(MessageType.init(rawValue:))
        threeDSServerTransID = text("threeDSServerTransID")
        acsTransID = text("acsTransID")
        sdkTransID = text("sdkTransID")
        dsTransID = text("dsTransID")
    }

    /// The JSON object, in a fixed member order.
    public var json: JSONObject {
        var object: JSONObject = [:]
        if let threeDSServerTransID { object["threeDSServerTransID"] = .string(threeDSServerTransID) }
        if let acsTransID { object["acsTransID"] = .string(acsTransID) }
        if let dsTransID { object["dsTransID"] = .string(dsTransID) }
        object["errorCode"] = .string(errorCode.rawValue)
        object["errorComponent"] = .string(errorComponent.rawValue)
        object["errorDescription"] = .string(errorDescription)
        object["errorDetail"] = .string(errorDetail)
        if let errorMessageType { object["errorMessageType"] = .string(errorMessageType.rawValue) }
        object["messageType"] = .string(MessageType.error.rawValue)
        object["messageVersion"] = .string(messageVersion)
        if let sdkTransID { object["sdkTransID"] = .string(sdkTransID) }
        return object
    }
}
