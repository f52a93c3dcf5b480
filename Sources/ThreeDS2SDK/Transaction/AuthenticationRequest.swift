public import ThreeDS2JOSE
public import ThreeDS2Messages

/// The AReq's `deviceRenderOptions`: the interfaces and UI types the challenge presenter can draw.
public struct DeviceRenderOptions: Sendable, Hashable, Encodable {
    /// `sdkInterface`: the interfaces the presenter draws.
    public enum Interface: String, Sendable, Hashable, CaseIterable {
        /// 01: native screens only.
        case native = "01"
        /// 02: HTML screens only.
        case html = "02"
        /// 03: both.
        case both = "03"
    }

    /// The interfaces (`sdkInterface`).
    public var interface: Interface
    /// The UI types (`sdkUiType`), in the order sent.
    public var uiTypes: [UIType]

    /// Creates the options.
    ///
    /// - Parameters:
    ///   - interface: The interfaces the presenter draws.
    ///   - uiTypes: The UI types it draws.
    public init(interface: Interface, uiTypes: [UIType]) {
        self.interface = interface
        self.uiTypes = uiTypes
    }

    /// Both interfaces and every UI type the version defines (what the SDK's presenters draw).
    ///
    /// - Parameter version: The message version.
    /// - Returns: The options.
    public static func all(for version: MessageVersion) -> DeviceRenderOptions {
        DeviceRenderOptions(interface: .both, uiTypes: version.uiTypes)
    }

    /// Whether these options announce a UI type: it is one of ``uiTypes``, and the ``interface`` draws it (HTML
    /// types, `05` and `06`, need ``Interface/html`` or ``Interface/both``; `07`, information, is defined for both
    /// interfaces; the other native ones need ``Interface/native`` or ``Interface/both``). A CRes showing a UI type the AReq did not announce ends the challenge with Erro 203
    /// naming `acsUiType`, as a UI type the version does not define does.
    ///
    /// - Parameter uiType: The CRes's `acsUiType`.
    /// - Returns: Whether the presenter said it draws it.
    public func announces(_ uiType: UIType) -> Bool {
        guard uiTypes.contains(uiType) else { return false }
        switch interface {
        case .both: return true
        case .html: return uiType.isValidOnHTMLInterface
        case .native: return uiType.isValidOnNativeInterface
        }
    }

    private enum CodingKeys: String, CodingKey {
        case interface = "sdkInterface"
        case uiTypes = "sdkUiType"
    }

    /// Encodes `{"sdkInterface": "03", "sdkUiType": ["01", …]}`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(interface.rawValue, forKey: .interface)
        try container.encode(uiTypes.map(\.rawValue), forKey: .uiTypes)
    }
}

/// The SDK's part of the AReq, as the app's 3DS Server expects it, and the purchase and account fields the app adds
/// to it (``addField(_:_:)``): encode it with `JSONEncoder`, or take ``json``, and send it as it is.
///
/// The ephemeral key is a JSON object (a JWK), never JSON text in a string; the device channel is app (`01`);
/// `sdkMaxTimeout` is the challenge timeout in whole minutes (two digits, at least `05`); the render options come
/// from the presenter that will show the challenge; a 2.3.1 AReq says `sdkType` `01` (Default-SDK) with its
/// `defaultSdkType` (native, not wrapped), which 2.1.0 and 2.2.0 AReqs never carry. A Split-SDK Server builds its
/// 2.3.1 AReq parameters from the same value with ``splitSDK(type:signedContent:signatureTimestamp:)``: `sdkType` `02`,
/// `splitSdkType`, `sdkServerSignedContent` and optionally `sdkSignatureTimestamp`, and no `defaultSdkType`.
public struct AuthenticationRequest: Sendable, Hashable, Encodable {
    /// `messageVersion`.
    public var messageVersion: MessageVersion
    /// `deviceChannel`: always `DeviceChannel.app` (`01`).
    public var deviceChannel: DeviceChannel { .app }
    /// `sdkTransID`.
    public var sdkTransactionID: String
    /// `sdkAppID`.
    public var sdkAppID: String
    /// `sdkReferenceNumber`.
    public var sdkReferenceNumber: String
    /// `sdkEncData`: the device data encrypted to the directory server.
    public var deviceData: String
    /// `sdkEphemPubKey`: the ephemeral public key as a JWK object (`kty`, `crv`, `x`, `y`).
    public var sdkEphemeralPublicKey: [String: String]
    /// `sdkMaxTimeout`: two digits, whole minutes.
    public var sdkMaxTimeout: String
    /// `deviceRenderOptions`.
    public var deviceRenderOptions: DeviceRenderOptions
    /// `sdkType`: `SDKType.defaultSDK` in a 2.3.1 AReq; `nil` (not sent) in 2.1.0 and 2.2.0.
    public var sdkType: SDKType?
    /// `defaultSdkType`: sent with `sdkType` `01` (2.3.1 only). An app built with a cross-platform framework sets
    /// its `wrapped` (`wrappedInd` `Y`).
    public var defaultSDKType: DefaultSDKType?
    /// `splitSdkType` (2.3.1, Split-SDK only): set by ``splitSDK(type:signedContent:signatureTimestamp:)``.
    public internal(set) var splitSDKType: SplitSDKType? = nil
    /// `sdkServerSignedContent` (2.3.1, Split-SDK only): the compact JWS the Split-SDK Server made
    /// (`SDKServerSignedContent` of ThreeDS2ACSKit; the SDK only carries it).
    public internal(set) var sdkServerSignedContent: String? = nil
    /// `sdkSignatureTimestamp` (2.3.1, Split-SDK only, optional): when the server signed.
    public internal(set) var sdkSignatureTimestamp: SDKSignatureTimestamp? = nil
    /// The fields the app added (``addField(_:_:)``): its purchase, account and 3DS Requestor fields, sent after the
    /// SDK's, in the order added.
    public internal(set) var additionalFields: JSONObject = [:]

    /// `sdkMaxTimeout` for a challenge timeout: whole minutes, two digits, at least `05` and at most `99`.
    ///
    /// - Parameter timeout: The challenge timeout the app will give the SDK.
    /// - Returns: The field's text.
    public static func maxTimeoutText(_ timeout: Duration) -> String {
        let minutes = min(99, max(5, Int(timeout.components.seconds / 60)))
        return minutes < 10 ? "0\(minutes)" : "\(minutes)"
    }

    private enum CodingKeys: String, CodingKey {
        case messageVersion, deviceChannel
        case sdkTransactionID = "sdkTransID"
        case sdkAppID, sdkReferenceNumber
        case deviceData = "sdkEncData"
        case sdkEphemeralPublicKey = "sdkEphemPubKey"
        case sdkMaxTimeout, deviceRenderOptions, sdkType
        case defaultSDKType = "defaultSdkType"
        case splitSDKType = "splitSdkType"
        case sdkServerSignedContent, sdkSignatureTimestamp
    }

    /// Encodes the AReq fields under their protocol names.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: The encoder's errors.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageVersion.rawValue, forKey: .messageVersion)
        try container.encode(deviceChannel.rawValue, forKey: .deviceChannel)
        try container.encode(sdkTransactionID, forKey: .sdkTransactionID)
        try container.encode(sdkAppID, forKey: .sdkAppID)
        try container.encode(sdkReferenceNumber, forKey: .sdkReferenceNumber)
        try container.encode(deviceData, forKey: .deviceData)
        try container.encode(sdkEphemeralPublicKey, forKey: .sdkEphemeralPublicKey)
        try container.encode(sdkMaxTimeout, forKey: .sdkMaxTimeout)
        try container.encode(deviceRenderOptions, forKey: .deviceRenderOptions)
        try container.encodeIfPresent(sdkType?.rawValue, forKey: .sdkType)
        if let defaultSDKType {
            try container.encode(EncodableJSON(.object(defaultSDKType.json)), forKey: .defaultSDKType)
        }
        if let splitSDKType {
            try container.encode(EncodableJSON(.object(splitSDKType.json)), forKey: .splitSDKType)
        }
        try container.encodeIfPresent(sdkServerSignedContent, forKey: .sdkServerSignedContent)
        try container.encodeIfPresent(sdkSignatureTimestamp?.text, forKey: .sdkSignatureTimestamp)
        var added = encoder.container(keyedBy: FieldName.self)
        for (name, value) in additionalFields.members {
            try added.encode(EncodableJSON(value), forKey: FieldName(name))
        }
    }
}

extension AuthenticationRequestParameters {
    /// The AReq value for these parameters.
    ///
    /// - Parameters:
    ///   - challengeTimeout: The challenge timeout the app will give the SDK (sent as `sdkMaxTimeout`).
    ///   - renderOptions: What the presenter draws; every interface and UI type of the version when `nil`.
    /// - Returns: The value to encode. It carries no 3DS Requestor App URL: that goes in the CReqs
    ///   (``ChallengeParameters/threeDSRequestorAppURL``).
    public func authenticationRequest(
        challengeTimeout: Duration = .seconds(5 * 60), renderOptions: DeviceRenderOptions? = nil
    ) -> AuthenticationRequest {
        AuthenticationRequest(
            messageVersion: messageVersion, sdkTransactionID: sdkTransactionID, sdkAppID: sdkAppID,
            sdkReferenceNumber: sdkReferenceNumber, deviceData: deviceData,
            sdkEphemeralPublicKey: sdkEphemeralPublicKeyJWK,
            sdkMaxTimeout: AuthenticationRequest.maxTimeoutText(challengeTimeout),
            deviceRenderOptions: renderOptions ?? .all(for: messageVersion), sdkType: sdkType,
            defaultSDKType: defaultSDKType)
    }
}

extension Transaction {
    /// The AReq value for this transaction, with the render options of the presenter that will show the challenge.
    ///
    /// - Parameters:
    ///   - presenter: The presenter the challenge will run with.
    ///   - challengeTimeout: The challenge timeout the app will give the SDK.
    ///   - requestorAppURL: The 3DS Requestor App URL: checked for the transaction's version now, before anything is
    ///     sent, and kept for the challenge, whose every CReq carries it (2.2.0 and later). The AReq never carries
    ///     it (the specification has no such AReq field).
    /// - Returns: The value to encode.
    /// - Throws: ``ThreeDS2Error`` as ``getAuthenticationRequestParameters()`` does, and `invalidInput` for a challenge
    ///   timeout under ``Transaction/minimumChallengeTimeout`` (five minutes) or an app URL the version does not take
    ///   (``RequestorAppURL/check(for:)``), before anything is sent: the AReq would otherwise promise the ACS a
    ///   longer timeout than the challenge would accept.
    public func authenticationRequest(
        presenter: any ChallengePresenter, challengeTimeout: Duration = .seconds(5 * 60),
        requestorAppURL: RequestorAppURL? = nil
    ) throws(ThreeDS2Error) -> AuthenticationRequest {
        guard challengeTimeout >= Self.minimumChallengeTimeout else {
            throw .invalidInput("the challenge timeout must be at least 5 minutes, was \(challengeTimeout)")
        }
        try requestorAppURL?.check(for: messageVersion)
        let request = try getAuthenticationRequestParameters().authenticationRequest(
            challengeTimeout: challengeTimeout, renderOptions: presenter.renderOptions(for: messageVersion))
        state.withLock { state in
            if let requestorAppURL { state.requestorAppURL = requestorAppURL }
            state.renderOptions = request.deviceRenderOptions
        }
        return request
    }
}

extension ChallengeParameters: Decodable {
    private enum AResKeys: String, CodingKey {
        case threeDSServerTransID, acsTransID, acsReferenceNumber, acsSignedContent, threeDSRequestorAppURL
    }

    /// Reads the challenge parameters from an ARes (or a backend answer in ARes field names): `threeDSServerTransID`,
    /// `acsTransID`, `acsReferenceNumber`, `acsSignedContent`, and `threeDSRequestorAppURL` when the backend adds it
    /// (an app usually gives its URL to the transaction instead,
    /// ``Transaction/authenticationRequest(presenter:challengeTimeout:requestorAppURL:)``).
    /// Other fields are ignored; the values are checked when the challenge starts.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming a missing field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AResKeys.self)
        self.init(
            threeDSServerTransactionID: try container.decode(String.self, forKey: .threeDSServerTransID),
            acsTransactionID: try container.decode(String.self, forKey: .acsTransID),
            acsRefNumber: try container.decode(String.self, forKey: .acsReferenceNumber),
            acsSignedContent: try container.decode(String.self, forKey: .acsSignedContent),
            threeDSRequestorAppURL: try container.decodeIfPresent(String.self, forKey: .threeDSRequestorAppURL))
    }
}
