public import ThreeDS2JOSE
public import ThreeDS2Messages

/// Builds the Results Request (RReq) an ACS sends through the DS to the 3DS Server after a challenge, with each
/// version's fields and conditions (docs/results-reference.md sections 2 and 3). Plain JSON: the results leg is never
/// signed or encrypted.
///
/// One datum, one owner: the method is held once as the 2.3.1 code (``AuthenticationMethod``) and written as
/// `authenticationType` in 2.1.0/2.2.0; the trust answer is written as `whiteListStatus` (2.2.0) or
/// `trustListStatus` (2.3.1); fields a version or condition does not allow are left out.
public struct ResultsRequestBuilder: RawPatchable {
    /// The transaction's message version.
    public var messageVersion: MessageVersion
    /// The 3DS Server, ACS and SDK transaction IDs (`sdkTransID` is written from 2.2.0).
    public var identifiers: TransactionIdentifiers
    /// `dsTransID`.
    public var dsTransID: String
    /// `messageCategory`: `01` payment (the default), `02` non-payment.
    public var messageCategory = "01"
    /// `transStatus`: `Y`, `N`, `U`, `A` or `R`.
    public var transStatus: TransactionStatus
    /// `transStatusReason`, written when the status is `N`, `U` or `R`.
    public var transStatusReason: TransStatusReason?
    /// `authenticationValue`, written when the status is `Y` or `A`.
    public var authenticationValue: String?
    /// `eci`.
    public var eci: String?
    /// How the cardholder was authenticated; written when the status is `Y` or `N`.
    public var method: AuthenticationMethod?
    /// Whether the authentication was decoupled: no `interactionCounter`, no `acsRenderingType`.
    public var isDecoupled = false
    /// `acsRenderingType`: the first screen's interface and template.
    public var renderingType: AuthenticationResponseBuilder.RenderingType?
    /// `interactionCounter`: how many authentication cycles the cardholder went through.
    public var interactionCounter = 0
    /// The cardholder's answer to the trust question and who set it (2.2.0 and later).
    public var trustList: (status: TrustListStatus, source: TrustListStatusSource)?
    /// `challengeCancel`.
    public var challengeCancel: ChallengeCancelIndicator?
    /// The Erro the ACS exchanged with the SDK, written as `challengeErrorReporting` with `09`/`10` (2.3.1).
    public var challengeError: ErrorMessage?
    /// The raw patches, in order (`patched(_:)` adds one): the fault profiles' changes.
    public var rawPatches: [RawPatch] = []

    /// An RReq with the identifiers and the status.
    ///
    /// - Parameters:
    ///   - messageVersion: The transaction's version.
    ///   - identifiers: The transaction identifiers.
    ///   - dsTransID: The DS transaction ID.
    ///   - transStatus: The outcome.
    public init(
        messageVersion: MessageVersion, identifiers: TransactionIdentifiers, dsTransID: String,
        transStatus: TransactionStatus
    ) {
        self.messageVersion = messageVersion
        self.identifiers = identifiers
        self.dsTransID = dsTransID
        self.transStatus = transStatus
    }

    /// The RReq JSON object: the typed fields the version and conditions allow, then the raw patches.
    public var json: JSONObject {
        let version = messageVersion
        var object: JSONObject = [
            "messageType": .string(MessageType.resultsRequest.rawValue), "messageVersion": .string(version.rawValue),
            "messageCategory": .string(messageCategory),
            "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
            "acsTransID": .string(identifiers.acsTransID), "dsTransID": .string(dsTransID),
            "transStatus": .string(transStatus.rawValue),
        ]
        if version.resultsAreFrom2_2 { object["sdkTransID"] = .string(identifiers.sdkTransID) }
        if [.notAuthenticated, .unableToAuthenticate, .rejected].contains(transStatus), let transStatusReason {
            object["transStatusReason"] = transStatusReason.json
        }
        if [.authenticated, .attempted].contains(transStatus), let authenticationValue {
            object["authenticationValue"] = .string(authenticationValue)
        }
        if let eci { object["eci"] = .string(eci) }
        if [.authenticated, .notAuthenticated].contains(transStatus), let method {
            if version.resultsUseAuthenticationMethod {
                object["authenticationMethod"] = .array([method.json])
            } else {
                object["authenticationType"] = method.authenticationType.json
            }
        }
        writeChallenge(into: &object)
        return rawPatches.applied(to: object)
    }

    /// The challenge's description: rendering type and counter unless decoupled, the trust answer, the cancel code
    /// and (2.3.1, `09`/`10`) the Erro.
    private func writeChallenge(into object: inout JSONObject) {
        let version = messageVersion
        if !isDecoupled {
            object["interactionCounter"] = .string(
                interactionCounter < 10 ? "0\(interactionCounter)" : "\(min(interactionCounter, 99))")
            if let renderingType {
                object["acsRenderingType"] = .object([
                    "acsInterface": .string(renderingType.interface.rawValue),
                    "acsUiTemplate": .string(renderingType.template.rawValue),
                ])
            }
        }
        if let trustList, version.resultsAreFrom2_2 {
            let prefix = version.resultsUseAuthenticationMethod ? "trustList" : "whiteList"
            object[prefix + "Status"] = trustList.status.json
            object[prefix + "StatusSource"] = trustList.source.json
        }
        if let challengeCancel {
            object["challengeCancel"] = challengeCancel.json
            if challengeCancel.reportsError, version.resultsUseAuthenticationMethod, let challengeError {
                object["challengeErrorReporting"] = .object(challengeError.json)
            }
        }
    }

    /// The RReq as bytes.
    public var serializedBytes: [UInt8] { json.serializedBytes }
}
