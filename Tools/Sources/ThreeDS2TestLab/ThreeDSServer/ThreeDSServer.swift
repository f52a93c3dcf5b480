import Foundation
import Hummingbird
import NIOCore
import ThreeDS2ACSKit
public import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) public import ThreeDS2SDK
import _CryptoExtras

// The TestLab's 3DS Server: `POST /3ds/authenticate` takes the AReq parameters an app sends, checks them as a
// 3DS Server does, has the directory server decrypt the device data, and answers frictionless or with the ACS's
// signed content for a challenge.

/// What the TestLab 3DS Server and DS saw of one authentication request.
public struct AuthenticationRecord: Sendable {
    /// The request JSON.
    public var request: JSONObject
    /// The directory server whose key decrypted the device data.
    public var directoryServerID: DirectoryServerID
    /// The decrypted device data JSON.
    public var deviceData: JSONObject
    /// The response sent.
    public var response: JSONObject
}

/// The authentication records, shared with the routes; bounded and expiring like the ACS's state.
final class RecordStore: Sendable {
    private let value: Locked<(store: ExpiringStore<Int, AuthenticationRecord>, next: Int)>

    init(capacity: Int, lifetime: Duration) {
        value = Locked((ExpiringStore(capacity: capacity, lifetime: lifetime), 0))
    }

    var all: [AuthenticationRecord] {
        value.withLock {
            $0.store.prune()
            return $0.store.values
        }
    }

    func append(_ record: AuthenticationRecord) {
        value.withLock {
            $0.store.insert(record, for: $0.next)
            $0.next += 1
        }
    }
}

extension TestLab {
    func authenticate(_ body: [UInt8]) async -> Response {
        do {
            let (record, response) = try await handleAuthentication(body)
            records.append(record)
            return Self.json(response)
        } catch let error as TestLabError {
            return Self.json(["error": .string(error.message)], status: .badRequest)
        } catch let refusal as DirectoryServerRefusal {
            let erro = refusal.erro(version: .v2_3_1).json
            return Self.json(
                [
                    "error": .string("the directory server answered Erro 308: \(refusal.explanation)"),
                    "erro": .object(erro),
                ], status: .badRequest)
        } catch let error as any CodedError {
            // A person reads this answer: the code and message, not where the lab raised them.
            return Self.json(["error": .string("\(error.code): \(error.message)")], status: .badRequest)
        } catch {
            return Self.json(["error": .string("\(error)")], status: .badRequest)
        }
    }

    /// `deviceRenderOptions` as the AReq defines it: an object with `sdkInterface` `01`–`03` and a non-empty
    /// `sdkUiType` array of UI types the version defines.
    static func checkRenderOptions(_ value: JSONValue?, version: MessageVersion) throws(TestLabError) {
        guard case .object(let options)? = value else {
            throw TestLabError(.invalidRequest, "deviceRenderOptions must be a JSON object")
        }
        guard options["sdkInterface"]?.stringValue.flatMap(DeviceRenderOptions.Interface.init(rawValue:)) != nil else {
            throw TestLabError(.invalidRequest, "deviceRenderOptions.sdkInterface must be 01, 02 or 03")
        }
        guard case .array(let types)? = options["sdkUiType"], !types.isEmpty,
            types.allSatisfy({ $0.stringValue.flatMap(UIType.init(rawValue:)).map(version.defines) ?? false })
        else {
            throw TestLabError(
                .invalidRequest,
                "deviceRenderOptions.sdkUiType must be a non-empty array of UI types message version \(version) defines"
            )
        }
    }

    /// `sdkType` and its objects as the version defines them: in 2.3.1, `sdkType` `01` (Default-SDK) with a
    /// `defaultSdkType` object whose `sdkVariant` is two digits (any range) and whose `wrappedInd` is `Y` or `N`, or
    /// `02` (Split-SDK) with `splitSdkType` and `sdkServerSignedContent` (``checkSplitShape(_:)``; the DS verifies the
    /// content, ``verifySplitSDK(_:_:fault:)``); in 2.1.0 and 2.2.0, none of the 2.3.1 SDK type fields.
    static func checkSDKType(_ request: JSONObject, version: MessageVersion) throws(TestLabError) {
        guard version.carriesSDKType else {
            for name in [
                "sdkType", "defaultSdkType", "splitSdkType", "sdkServerSignedContent", "sdkSignatureTimestamp",
            ]
            where request[name] != nil {
                throw TestLabError(.invalidRequest, "\(name) is a 2.3.1 field; a \(version) AReq cannot carry it")
            }
            return
        }
        let type = request["sdkType"]?.stringValue.map(SDKType.init(rawValue:))
        if type == .splitSDK { return try checkSplitShape(request) }
        for name in ["splitSdkType", "sdkServerSignedContent", "sdkSignatureTimestamp"] where request[name] != nil {
            throw TestLabError(.invalidRequest, "\(name) goes with a Split-SDK's sdkType 02 only")
        }
        guard type == .defaultSDK else {
            throw TestLabError(
                .invalidRequest, "sdkType must be 01 (Default-SDK) or 02 (Split-SDK) in a \(version) AReq")
        }
        guard DefaultSDKType(request["defaultSdkType"]) != nil else {
            throw TestLabError(
                .invalidRequest,
                "defaultSdkType must be an object with a two-digit sdkVariant and wrappedInd Y or N when sdkType is 01")
        }
    }

    /// What the 3DS Server takes from a checked authentication request.
    struct CheckedRequest {
        let version: MessageVersion
        let sdkTransID: String
        let sdkReferenceNumber: String
        let cardNumber: String
        let sdkKey: P256PublicJWK
        let encryptedDeviceData: String
    }

    func handleAuthentication(_ body: [UInt8]) async throws -> (AuthenticationRecord, JSONObject) {
        guard case .object(let request) = try JSONParser(limits: .init(maxBytes: 256 * 1024, maxDepth: 8)).parse(body)
        else {
            throw TestLabError(.invalidRequest, "the request is not a JSON object")
        }
        let checked = try Self.check(request)
        let (dsID, deviceData) = try decryptDeviceData(checked.encryptedDeviceData)
        let faultProfile = ACSFaultProfile(cardNumber: checked.cardNumber)
        do {
            try verifySplitSDK(request, checked, fault: faultProfile?.splitFault)
        } catch {
            var refusal = error
            refusal.sdkTransID = checked.sdkTransID
            throw refusal
        }
        let scenario = faultProfile?.scenario ?? Scenario(cardNumber: checked.cardNumber) ?? .frictionlessN
        let identifiers = TransactionIdentifiers(
            threeDSServerTransID: newTransactionID(), acsTransID: newTransactionID(), sdkTransID: checked.sdkTransID)
        let dsTransID = newTransactionID()
        let ares: AuthenticationResponseBuilder
        if let status = scenario.frictionlessStatus {
            ares = AuthenticationResponseBuilder(
                messageVersion: checked.version, identifiers: identifiers, transStatus: status)
        } else if scenario.isDecoupled(in: checked.version) {
            ares = Self.decoupledResponse(checked, identifiers: identifiers)
        } else {
            ares = try await challengeResponse(
                checked, identifiers: identifiers, scenario: scenario, faultProfile: faultProfile, dsTransID: dsTransID)
        }
        results.begin(
            ResultsRequestValidator.Transaction(
                messageVersion: checked.version, identifiers: identifiers, dsTransID: dsTransID,
                authenticationStatus: ares.transStatus))
        if ares.transStatus == .decoupled {
            // After the 3DS Server knows the transaction as decoupled: the RReq may come at once (a decision).
            try await acs.registerDecoupled(
                identifiers: identifiers, messageVersion: checked.version, sdkEphemeralKey: checked.sdkKey,
                sdkReferenceNumber: checked.sdkReferenceNumber, faultProfile: faultProfile, dsTransID: dsTransID)
        }
        let response = ares.json
        return (
            AuthenticationRecord(request: request, directoryServerID: dsID, deviceData: deviceData, response: response),
            response
        )
    }

    /// The fields a 3DS Server needs, checked as it checks them.
    static func check(_ request: JSONObject) throws -> CheckedRequest {
        func field(_ name: String) throws -> String {
            guard let value = request[name]?.stringValue, !value.isEmpty else {
                throw TestLabError(.invalidRequest, "\(name) is missing")
            }
            return value
        }
        let versionText = try field("messageVersion")
        guard let version = MessageVersion(versionText), version.isSupported else {
            throw TestLabError(.invalidRequest, "messageVersion \(versionText) is not supported")
        }
        guard try DeviceChannel(rawValue: field("deviceChannel")) == .app else {
            throw TestLabError(.invalidRequest, "deviceChannel must be 01 (app)")
        }
        let sdkTransID = try field("sdkTransID")
        guard TransactionIdentifiers.hasUUIDShape(sdkTransID) else {
            throw TestLabError(.invalidRequest, "sdkTransID is not a UUID")
        }
        _ = try field("sdkAppID")
        let reference = try field("sdkReferenceNumber")
        let maxTimeout = try field("sdkMaxTimeout")
        guard maxTimeout.utf8.count == 2, maxTimeout.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let timeout = Int(maxTimeout), timeout >= 5
        else {
            throw TestLabError(.invalidRequest, "sdkMaxTimeout must be two digits, at least 05")
        }
        try checkRenderOptions(request["deviceRenderOptions"], version: version)
        try checkSDKType(request, version: version)
        let card = try field("acctNumber")
        _ = try field("purchaseAmount")
        _ = try field("purchaseCurrency")
        // A real 3DS Server takes the key as the JWK object the AReq defines, never JSON text inside a string.
        guard let keyValue = request["sdkEphemPubKey"] else {
            throw TestLabError(.invalidRequest, "sdkEphemPubKey is missing")
        }
        guard case .object(let keyObject) = keyValue else {
            throw TestLabError(
                .invalidRequest, "sdkEphemPubKey must be a JSON object (a JWK), found \(keyValue.typeName)")
        }
        return CheckedRequest(
            version: version, sdkTransID: sdkTransID, sdkReferenceNumber: reference, cardNumber: card,
            sdkKey: try P256PublicJWK(jsonObject: keyObject), encryptedDeviceData: try field("sdkEncData"))
    }

    /// A decoupled ARes (2.2.0 and later): `transStatus` `D`, `acsDecConInd` `Y` and where to approve; the ACS keeps
    /// the authentication (registered once the 3DS Server knows the transaction) until the bank's app decides, then
    /// sends its RReq.
    ///
    /// The lab answers `D` for its decoupled card whether or not the AReq asked for decoupled authentication
    /// (`threeDSRequestorDecReqInd`): an SDK's AReq does not carry the requestor's preference, which a 3DS Server
    /// adds, and the card stands for an ACS that authenticates this cardholder only so.
    static func decoupledResponse(_ request: CheckedRequest, identifiers: TransactionIdentifiers)
        -> AuthenticationResponseBuilder
    {
        var ares = AuthenticationResponseBuilder(
            messageVersion: request.version, identifiers: identifiers, transStatus: .decoupled)
        ares.confirmsDecoupled = true
        ares.cardholderInfo = "Approve this purchase in your bank's app."
        return ares
    }

    /// A challenge ARes: the ACS opens the channel, and its signer signs the content with the channel's key.
    func challengeResponse(
        _ request: CheckedRequest, identifiers: TransactionIdentifiers, scenario: Scenario,
        faultProfile: ACSFaultProfile? = nil, dsTransID: String = ""
    ) async throws -> AuthenticationResponseBuilder {
        let channel = try await acs.register(
            identifiers: identifiers, scenario: scenario, messageVersion: request.version,
            sdkEphemeralKey: request.sdkKey, sdkReferenceNumber: request.sdkReferenceNumber, faultProfile: faultProfile,
            dsTransID: dsTransID)
        let content = channel.signedContent(acsURL: baseURL.appendingPathComponent("acs/challenge").absoluteString)
        let signer = options.signer == .rsa ? pki.acsSignerRSA : pki.acsSignerEC
        let key: JWSSigningKey
        switch signer.privateKey {
        case .rsa(let rsa): key = .ps256(privateKeyDER: Array(rsa.derRepresentation))
        case .p256(let ec): key = .es256(ec)
        }
        // A fault profile's patches of the payload, or other bytes signed in its place (`threeds conform`'s tests).
        var payload = content.json
        for patch in faultProfile?.patches(for: .signedContent, version: request.version) ?? [] {
            patch.apply(to: &payload)
        }
        var bytes = payload.serializedBytes
        if case .signedPayload(let raw)? = faultProfile?.rawFaults[request.version] { bytes = raw }
        let signed = try JWS.sign(
            bytes, with: key,
            certificateChain: [signer.certificate, pki.dsIntermediate.certificate, pki.dsRoot.certificate])
        let ares = AuthenticationResponseBuilder.challenge(
            messageVersion: request.version, identifiers: identifiers, acsReferenceNumber: Self.acsReferenceNumber,
            acsSignedContent: signed,
            renderingType: .init(interface: scenario == .html ? .html : .native, template: scenario.template))
        let patches = faultProfile?.patches(for: .authenticationResponse, version: request.version) ?? []
        return patches.reduce(ares) { $0.patched($1) }
    }
}
