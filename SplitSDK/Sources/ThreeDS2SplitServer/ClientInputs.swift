import ThreeDS2JOSE
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

extension ClientRoutes {
    /// The most device parameters a client reports, and the longest value.
    static let maxDeviceParameters = 64
    static let maxDeviceValue = 256

    /// A whole number member (a screen or exchange number).
    static func number(_ body: JSONObject, _ name: String) throws(SplitHTTPError) -> Int {
        guard case .number(let text)? = body[name], let value = Int(text), (0...10_000).contains(value) else {
            throw .badRequest("\(name) must be a number")
        }
        return value
    }

    /// What the client read from the ACS's answer: the CRes object, or why it could not.
    static func opening(_ body: JSONObject) throws(SplitHTTPError) -> RemoteOpening {
        if case .object(let cres)? = body["cres"] { return .message(cres) }
        guard case .object(let error)? = body["error"] else { throw .badRequest("cres or error is required") }
        let detail = String((error["detail"]?.stringValue ?? "").prefix(200))
        switch error["kind"]?.stringValue {
        case "decryption": return .undecryptable(detail)
        case "json": return .notJSON(detail)
        default: throw .badRequest("error.kind must be decryption or json")
        }
    }

    /// The device data the client reported: registered common parameters (`C…`) only, each a bounded string.
    static func deviceData(_ body: JSONObject) throws(SplitHTTPError) -> DeviceInformation {
        guard case .object(let info)? = body["deviceInfo"] else { return DeviceInformation() }
        guard info.count <= maxDeviceParameters else { throw .refused("deviceInfo has too many members") }
        var collected: [DeviceParameterID: DeviceValue] = [:]
        for (name, value) in info.members {
            guard name.hasPrefix("C"), let id = DeviceParameterID(name) else {
                throw .refused("deviceInfo names an unknown parameter")
            }
            guard let text = value.stringValue, text.count <= maxDeviceValue else {
                throw .refused("deviceInfo values are strings of at most \(maxDeviceValue) characters")
            }
            collected[id] = .text(text)
        }
        return DeviceInformation(collected: collected)
    }
}
