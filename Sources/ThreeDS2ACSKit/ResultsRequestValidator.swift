public import ThreeDS2JOSE
public import ThreeDS2Messages

/// What is wrong with an RReq, as the 3DS Server finds it: the error code it answers with and the field at fault.
public struct ResultsFinding: Sendable, Hashable, CustomStringConvertible {
    /// The Erro code (101, 102, 201, 203, 204, 207, 301, 312, 313).
    public let code: ProtocolErrorCode
    /// The data element concerned (the Erro's `errorDetail`).
    public let field: String
    /// A short explanation.
    public let explanation: String

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - code: The Erro code.
    ///   - field: The data element concerned.
    ///   - explanation: A short explanation.
    public init(_ code: ProtocolErrorCode, _ field: String, _ explanation: String) {
        self.code = code
        self.field = field
        self.explanation = explanation
    }

    /// `201 transStatusReason: …`.
    public var description: String { "\(code) \(field): \(explanation)" }
}

extension ProtocolErrorCode {
    /// 303: Access denied, invalid endpoint.
    public static let accessDenied = ProtocolErrorCode(rawValue: "303")
    /// 312: Duplicate message (2.3.1.1): a second RReq for a transaction.
    public static let duplicateMessage = ProtocolErrorCode(rawValue: "312")
    /// 313: Inconsistent RReq (2.3.1.1): an RReq for a transaction whose ARes status was not `C`, `D` or `S`.
    public static let inconsistentResultsRequest = ProtocolErrorCode(rawValue: "313")
}

/// Checks an RReq as a 3DS Server does (docs/results-reference.md sections 2 and 6): message type and version, the
/// transaction it names, each version's required fields and conditions, allowed values; from 2.3.1 the duplicate
/// (312) and inconsistent (313) cases. Returns every finding, most serious first; the first is the Erro to send.
public struct ResultsRequestValidator: Sendable {
    /// What the 3DS Server knows of the transaction an RReq names.
    public struct Transaction: Sendable, Hashable {
        /// The transaction's message version.
        public var messageVersion: MessageVersion
        /// The 3DS Server, ACS and SDK transaction IDs.
        public var identifiers: TransactionIdentifiers
        /// The DS transaction ID.
        public var dsTransID: String
        /// The ARes's `transStatus`.
        public var authenticationStatus: TransactionStatus
        /// Whether an RReq was already accepted for it.
        public var hasResult: Bool

        /// Creates the transaction's record.
        ///
        /// - Parameters:
        ///   - messageVersion: The version.
        ///   - identifiers: The identifiers.
        ///   - dsTransID: The DS transaction ID.
        ///   - authenticationStatus: The ARes status.
        ///   - hasResult: Whether an RReq was already accepted.
        public init(
            messageVersion: MessageVersion, identifiers: TransactionIdentifiers, dsTransID: String,
            authenticationStatus: TransactionStatus, hasResult: Bool = false
        ) {
            self.messageVersion = messageVersion
            self.identifiers = identifiers
            self.dsTransID = dsTransID
            self.authenticationStatus = authenticationStatus
            self.hasResult = hasResult
        }
    }

    /// The transaction the RReq names, if the 3DS Server knows it.
    public let transaction: Transaction?

    /// A validator for an RReq.
    ///
    /// - Parameter transaction: The transaction its `threeDSServerTransID` names, `nil` when unknown.
    public init(transaction: Transaction?) { self.transaction = transaction }

    /// Every finding in an RReq, most serious first; empty when the 3DS Server answers with an RRes.
    ///
    /// - Parameter request: The RReq JSON object.
    /// - Returns: The findings.
    public func findings(in request: JSONObject) -> [ResultsFinding] {
        guard request["messageType"]?.stringValue.map(MessageType.init(rawValue:)) == .resultsRequest else {
            return [ResultsFinding(.messageReceivedInvalid, "messageType", "not an RReq")]
        }
        guard let text = request["messageVersion"]?.stringValue, let version = MessageVersion(text),
            version.isSupported
        else {
            return [ResultsFinding(.messageVersionNotSupported, "messageVersion", "not a version the server speaks")]
        }
        var reader = Reader(request: request, version: version, transaction: transaction)
        reader.checkTransaction()
        if !reader.findings.isEmpty { return reader.findings }
        reader.checkOutcome()
        reader.checkMethod()
        reader.checkChallenge()
        reader.checkTrustList()
        reader.checkCancel()
        return reader.findings.sorted { $0.code.rawValue < $1.code.rawValue }
    }

    /// The Erro a 3DS Server answers an RReq with, for a finding.
    ///
    /// - Parameters:
    ///   - finding: The first finding.
    ///   - request: The RReq, for its identifiers and version.
    /// - Returns: The Erro.
    public static func error(for finding: ResultsFinding, in request: JSONObject) -> ErrorMessage {
        ErrorMessage(
            errorCode: finding.code, errorComponent: .threeDSServer,
            errorDescription: finding.code.standardDescription ?? finding.explanation, errorDetail: finding.field,
            errorMessageType: .resultsRequest,
            messageVersion: request["messageVersion"]?.stringValue ?? MessageVersion.highest.rawValue,
            threeDSServerTransID: request["threeDSServerTransID"]?.stringValue,
            acsTransID: request["acsTransID"]?.stringValue, sdkTransID: request["sdkTransID"]?.stringValue,
            dsTransID: request["dsTransID"]?.stringValue)
    }
}
