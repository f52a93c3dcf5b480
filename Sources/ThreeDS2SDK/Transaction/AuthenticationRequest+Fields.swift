public import ThreeDS2JOSE

extension AuthenticationRequest {
    /// The AReq fields the SDK writes, and `threeDSRequestorAppURL`, which no AReq carries (the CReqs do: give it to
    /// the transaction); an app's field (``addField(_:_:)``) may not take one of these names.
    public static let sdkFieldNames: Set<String> = [
        "messageVersion", "deviceChannel", "sdkTransID", "sdkAppID", "sdkReferenceNumber", "sdkEncData",
        "sdkEphemPubKey", "sdkMaxTimeout", "deviceRenderOptions", "sdkType", "defaultSdkType",
        "splitSdkType", "sdkServerSignedContent", "sdkSignatureTimestamp", "threeDSRequestorAppURL",
    ]

    /// Adds a field the app owns (the purchase, the account, the 3DS Requestor's fields) to this AReq, so the value
    /// is sent as it is, without the app encoding the SDK's part again.
    ///
    /// ```swift
    /// var areq = try transaction.authenticationRequest(presenter: presenter)
    /// try areq.addField("acctNumber", .string(cardNumber))
    /// try areq.addField("purchaseAmount", .string("1999"))
    /// let body = try JSONEncoder().encode(areq)  // or areq.json.serializedBytes
    /// ```
    ///
    /// - Parameters:
    ///   - name: The field's name in the AReq.
    ///   - value: Its value.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for an empty name, a name the SDK writes
    ///   (``sdkFieldNames``) or one already added.
    public mutating func addField(_ name: String, _ value: JSONValue) throws(ThreeDS2Error) {
        guard !name.isEmpty else { throw .invalidInput("an AReq field name must not be empty") }
        guard name != "threeDSRequestorAppURL" else {
            throw .invalidInput(
                "no AReq carries threeDSRequestorAppURL: give a RequestorAppURL to authenticate or to "
                    + "authenticationRequest(presenter:challengeTimeout:requestorAppURL:), and every CReq carries it")
        }
        guard !Self.sdkFieldNames.contains(name) else {
            throw .invalidInput("the AReq field \(name) is written by the SDK; an app cannot add it")
        }
        guard additionalFields[name] == nil else { throw .invalidInput("the AReq field \(name) is already added") }
        additionalFields[name] = value
    }

    /// This AReq with the app's fields added (see ``addField(_:_:)``).
    ///
    /// - Parameter fields: The fields, in the order to send them.
    /// - Returns: The AReq with the fields.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` as ``addField(_:_:)`` does.
    public func adding(_ fields: JSONObject) throws(ThreeDS2Error) -> AuthenticationRequest {
        var request = self
        for (name, value) in fields.members { try request.addField(name, value) }
        return request
    }

    /// The whole AReq as one JSON object, members in the order they are encoded: the SDK's fields, then the app's.
    public var json: JSONObject {
        let key = sdkEphemeralPublicKey
        let keyOrder = ["kty", "crv", "x", "y"].filter { key[$0] != nil }
        let keyMembers = (keyOrder + key.keys.filter { !keyOrder.contains($0) }.sorted()).map {
            ($0, JSONValue.string(key[$0] ?? ""))
        }
        var object = JSONObject([
            ("messageVersion", .string(messageVersion.rawValue)), ("deviceChannel", .string(deviceChannel.rawValue)),
            ("sdkTransID", .string(sdkTransactionID)), ("sdkAppID", .string(sdkAppID)),
            ("sdkReferenceNumber", .string(sdkReferenceNumber)), ("sdkEncData", .string(deviceData)),
            ("sdkEphemPubKey", .object(JSONObject(keyMembers))), ("sdkMaxTimeout", .string(sdkMaxTimeout)),
            (
                "deviceRenderOptions",
                .object([
                    "sdkInterface": .string(deviceRenderOptions.interface.rawValue),
                    "sdkUiType": .array(deviceRenderOptions.uiTypes.map { .string($0.rawValue) }),
                ])
            ),
        ])
        if let sdkType { object["sdkType"] = sdkType.json }
        if let defaultSDKType { object["defaultSdkType"] = .object(defaultSDKType.json) }
        if let splitSDKType { object["splitSdkType"] = .object(splitSDKType.json) }
        if let sdkServerSignedContent { object["sdkServerSignedContent"] = .string(sdkServerSignedContent) }
        if let sdkSignatureTimestamp { object["sdkSignatureTimestamp"] = .string(sdkSignatureTimestamp.text) }
        for (name, value) in additionalFields.members { object[name] = value }
        return object
    }
}

/// A field name chosen at run time (the app's AReq fields).
struct FieldName: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A `JSONValue` through `Encodable`, so the app's fields go out with the SDK's under `JSONEncoder`. A number
/// keeps its literal text where the encoder can (an integer or a `Double` it reads exactly).
struct EncodableJSON: Encodable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .object(let object):
            var container = encoder.container(keyedBy: FieldName.self)
            for (name, member) in object.members {
                try container.encode(EncodableJSON(member), forKey: FieldName(name))
            }
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(EncodableJSON(item)) }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int(text) {
                try container.encode(integer)
            } else if let real = Double(text) {
                try container.encode(real)
            } else {
                throw EncodingError.invalidValue(
                    text, .init(codingPath: encoder.codingPath, debugDescription: "\(text) is not a JSON number"))
            }
        }
    }
}
