public import ThreeDS2JOSE
public import ThreeDS2Messages

/// The Results Response (RRes) a 3DS Server answers a valid RReq with: the RReq's identifiers echoed and a
/// ``ResultsStatus``. Plain JSON, like the RReq.
public struct ResultsResponse: Sendable, Hashable {
    /// The message version (the RReq's).
    public var messageVersion: MessageVersion
    /// `threeDSServerTransID`, `acsTransID`, `dsTransID`, echoed.
    public var threeDSServerTransID: String
    /// `acsTransID`, echoed.
    public var acsTransID: String
    /// `dsTransID`, echoed.
    public var dsTransID: String
    /// `sdkTransID`, echoed when the RReq had one (2.2.0 and later).
    public var sdkTransID: String?
    /// `resultsStatus`.
    public var resultsStatus: ResultsStatus

    /// The answer to an RReq the validator accepted: its identifiers and version, echoed.
    ///
    /// - Parameters:
    ///   - request: The RReq.
    ///   - version: Its message version.
    ///   - resultsStatus: The status (`01` normally).
    public init(answering request: JSONObject, version: MessageVersion, resultsStatus: ResultsStatus = .received) {
        messageVersion = version
        threeDSServerTransID = request["threeDSServerTransID"]?.stringValue ?? ""
        acsTransID = request["acsTransID"]?.stringValue ?? ""
        dsTransID = request["dsTransID"]?.stringValue ?? ""
        sdkTransID = request["sdkTransID"]?.stringValue
        self.resultsStatus = resultsStatus
    }

    /// Reads an RRes, as the ACS does; `nil` for anything else (an Erro, or an RRes without its status or ids).
    ///
    /// - Parameter object: The JSON object received.
    public init?(json object: JSONObject) {
        guard object["messageType"]?.stringValue.map(MessageType.init(rawValue:)) == .resultsResponse,
            let version = object["messageVersion"]?.stringValue.flatMap(MessageVersion.init),
            let status = object["resultsStatus"]?.stringValue,
            let server = object["threeDSServerTransID"]?.stringValue, let acs = object["acsTransID"]?.stringValue,
            let ds = object["dsTransID"]?.stringValue
        else { return nil }
        messageVersion = version
        threeDSServerTransID = server
        acsTransID = acs
        dsTransID = ds
        sdkTransID = object["sdkTransID"]?.stringValue
        resultsStatus = ResultsStatus(rawValue: status)
    }

    /// The RRes JSON object.
    public var json: JSONObject {
        var object: JSONObject = [
            "messageType": .string(MessageType.resultsResponse.rawValue),
            "messageVersion": .string(messageVersion.rawValue), "threeDSServerTransID": .string(threeDSServerTransID),
            "acsTransID": .string(acsTransID), "dsTransID": .string(dsTransID),
            "resultsStatus": resultsStatus.json,
        ]
        if let sdkTransID { object["sdkTransID"] = .string(sdkTransID) }
        return object
    }
}
