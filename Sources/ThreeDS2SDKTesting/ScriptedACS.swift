import Crypto
public import Foundation
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// The ACS end of one challenge, without a server: it answers the AReq's part (the signed content with its
/// ephemeral key), decrypts the CReqs the SDK sends and encrypts the CRes messages a test scripts. Pair it with a
/// ``ScriptedTransport`` to drive a challenge with no network and no real time.
public final class ScriptedACS: Sendable {
    private struct Channel {
        let identifiers: TransactionIdentifiers
        let version: MessageVersion
        let keys: ChannelKeys
        var acsCounter = 0
    }

    /// The directory server's PKI the signed content is signed under.
    public let pki: DirectoryServerPKI
    /// Where the signed content tells the SDK to send its CReqs.
    public let acsURL: URL
    private let channel = Locked<Channel?>(nil)

    /// Creates the ACS.
    ///
    /// - Parameters:
    ///   - pki: The directory server's PKI.
    ///   - acsURL: The ACS URL of the signed content.
    public init(pki: DirectoryServerPKI, acsURL: URL = URL(string: "https://acs.example/challenge")!) {
        self.pki = pki
        self.acsURL = acsURL
    }

    /// What the 3DS Server hands the app after a challenge ARes: the ACS makes its ephemeral key, agrees the channel
    /// keys with the SDK's, and signs the content.
    ///
    /// - Parameters:
    ///   - request: The SDK's AReq parameters.
    ///   - threeDSServerTransactionID: The 3DS Server's transaction ID.
    ///   - acsTransactionID: The ACS's transaction ID (the CReq JWE's `kid`).
    /// - Returns: The challenge parameters.
    /// - Throws: An error from key agreement or signing.
    public func challengeParameters(
        for request: AuthenticationRequestParameters,
        threeDSServerTransactionID: String = UUID().uuidString.lowercased(),
        acsTransactionID: String = UUID().uuidString.lowercased()
    ) throws -> ChallengeParameters {
        try challengeParameters(
            sdkKey: try P256PublicJWK(jsonString: request.sdkEphemeralPublicKey),
            sdkTransactionID: request.sdkTransactionID, version: request.messageVersion,
            sdkReferenceNumber: request.sdkReferenceNumber, threeDSServerTransactionID: threeDSServerTransactionID,
            acsTransactionID: acsTransactionID)
    }

    /// The challenge parameters for the AReq value an app's backend call receives (the `requestor` of
    /// `ThreeDS2Service.authenticate`), so the one-call API can be tested with no server: the requestor answers
    /// `.challenge(try acs.challengeParameters(for: areq))`.
    ///
    /// - Parameters:
    ///   - request: The AReq value the SDK built.
    ///   - threeDSServerTransactionID: The 3DS Server's transaction ID.
    ///   - acsTransactionID: The ACS's transaction ID (the CReq JWE's `kid`).
    /// - Returns: The challenge parameters.
    /// - Throws: An error from key agreement or signing, or when the AReq's key is not a P-256 JWK.
    public func challengeParameters(
        for request: AuthenticationRequest,
        threeDSServerTransactionID: String = UUID().uuidString.lowercased(),
        acsTransactionID: String = UUID().uuidString.lowercased()
    ) throws -> ChallengeParameters {
        let key = JSONValue.object(
            JSONObject(
                request.sdkEphemeralPublicKey.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
        return try challengeParameters(
            sdkKey: try P256PublicJWK(jsonString: key.serialized), sdkTransactionID: request.sdkTransactionID,
            version: request.messageVersion, sdkReferenceNumber: request.sdkReferenceNumber,
            threeDSServerTransactionID: threeDSServerTransactionID, acsTransactionID: acsTransactionID)
    }

    /// A transport playing this ACS: each CReq is answered with the next of `screens` (CRes built with
    /// ``challengeResponse(showing:)``), the one after the last with a final CRes of `finalStatus`; an Erro the SDK
    /// posts is taken with HTTP 200.
    ///
    /// - Parameters:
    ///   - screens: The screens, in order (``textScreen(for:)`` for a code screen).
    ///   - finalStatus: The final CRes's `transStatus`.
    /// - Returns: The transport.
    public func transport(screens: [JSONObject], finalStatus: String) -> ScriptedTransport {
        let answered = Locked(0)
        return ScriptedTransport { [self] request in
            if errorMessage(in: request) != nil {
                return .respond(TransportResponse(status: 200, contentType: nil, body: []))
            }
            guard (try? challengeRequest(in: request)) != nil else {
                return .fail(TransportError(.other, "\(request.target): not a CReq of this challenge"))
            }
            let index = answered.withLock { count in
                defer { count += 1 }
                return count
            }
            do {
                return .respond(
                    index < screens.count
                        ? try challengeResponse(showing: screens[index])
                        : try finalResponse(transactionStatus: finalStatus))
            } catch {
                return .fail(TransportError(.other, "the scripted ACS could not build its CRes: \(error)"))
            }
        }
    }

    private func challengeParameters(
        sdkKey: P256PublicJWK, sdkTransactionID: String, version: MessageVersion, sdkReferenceNumber: String,
        threeDSServerTransactionID: String, acsTransactionID: String
    ) throws -> ChallengeParameters {
        let ephemeral = P256.KeyAgreement.PrivateKey()
        let secret = try ephemeral.sharedSecretFromKeyAgreement(with: sdkKey.keyAgreementKey).withUnsafeBytes {
            Array($0)
        }
        channel.withLock {
            $0 = Channel(
                identifiers: TransactionIdentifiers(
                    threeDSServerTransID: threeDSServerTransactionID, acsTransID: acsTransactionID,
                    sdkTransID: sdkTransactionID),
                version: version,
                keys: ChannelKeys(sharedSecret: secret, sdkReferenceNumber: sdkReferenceNumber))
        }
        let signed = try pki.sign(
            ACSSignedContent(
                acsURL: acsURL.absoluteString, acsEphemeralPublicKey: P256PublicJWK(ephemeral.publicKey),
                sdkEphemeralPublicKey: sdkKey))
        return ChallengeParameters(
            threeDSServerTransactionID: threeDSServerTransactionID, acsTransactionID: acsTransactionID,
            acsRefNumber: "TEST-ACS", acsSignedContent: signed)
    }

    /// The CReq in a request the SDK sent, decrypted.
    ///
    /// - Parameter request: The request.
    /// - Returns: The CReq's members.
    /// - Throws: `JOSEError` when it is not a CReq of this challenge.
    public func challengeRequest(in request: TransportRequest) throws -> JSONObject {
        let channel = try current()
        let plaintext = try JWE.decrypt(
            String(decoding: request.body, as: UTF8.self), using: .direct(channel.keys.sdkToACSKeys),
            expecting: .init(keyID: .exactly(channel.identifiers.acsTransID))
        ).plaintext
        guard case .object(let object) = try JSONParser().parse(plaintext) else {
            throw JOSEError(.malformedJSON, "the CReq is not an object")
        }
        return object
    }

    /// The Erro message in a request the SDK sent (plain JSON).
    ///
    /// - Parameter request: The request.
    /// - Returns: The Erro's members, or `nil` when the body is not an Erro.
    public func errorMessage(in request: TransportRequest) -> JSONObject? {
        guard case .object(let object)? = try? JSONParser().parse(request.body),
            object["messageType"] == .string("Erro")
        else { return nil }
        return object
    }

    /// An encrypted CRes showing `screen`: the screen's members over the header every CRes carries (the
    /// transaction IDs, `acsCounterAtoS`, `messageType`, `messageVersion`, `challengeCompletionInd` `N`).
    ///
    /// - Parameter screen: The screen's members (``textScreen(for:)`` for a one-time code).
    /// - Returns: The HTTP response.
    /// - Throws: An error from encryption.
    public func challengeResponse(showing screen: JSONObject) throws -> TransportResponse {
        try response(screen, completion: "N")
    }

    /// An encrypted final CRes (`challengeCompletionInd` `Y`) with this `transStatus`.
    ///
    /// - Parameter transactionStatus: `Y` or `N`.
    /// - Returns: The HTTP response.
    /// - Throws: An error from encryption.
    public func finalResponse(transactionStatus: String) throws -> TransportResponse {
        try response(["transStatus": .string(transactionStatus)], completion: "Y")
    }

    /// A one-time-code screen (UI type 01) as the version defines it.
    ///
    /// - Parameter version: The message version.
    /// - Returns: The screen's members.
    public static func textScreen(for version: MessageVersion) -> JSONObject {
        var screen: JSONObject = [
            "acsUiType": .string("01"), "challengeInfoHeader": .string("Confirm your payment"),
            "challengeInfoText": .string("Enter the code we sent to your phone."),
            "submitAuthenticationLabel": .string("Verify"),
        ]
        if version.hasEntryBoxes {
            screen["challengeEntryBox"] = .object([
                "challengeDataEntryLabel": .string("One-time code"), "challengeDataEntryKeyboardType": .string("01"),
                "challengeDataEntryLengthMax": .string("06"),
            ])
        } else {
            screen["challengeInfoLabel"] = .string("One-time code")
        }
        return screen
    }

    private func current() throws(JOSEError) -> Channel {
        guard let channel = channel.withLock({ $0 }) else {
            throw JOSEError(.invalidKey, "no challenge: call challengeParameters(for:) first")
        }
        return channel
    }

    private func response(_ members: JSONObject, completion: String) throws -> TransportResponse {
        let channel = try current()
        var content: JSONObject = [
            "threeDSServerTransID": .string(channel.identifiers.threeDSServerTransID),
            "acsTransID": .string(channel.identifiers.acsTransID),
            "sdkTransID": .string(channel.identifiers.sdkTransID),
            "acsCounterAtoS": .string(ChallengeRequestBuilder.counterText(channel.acsCounter)),
            "messageType": .string("CRes"), "messageVersion": .string(channel.version.rawValue),
            "challengeCompletionInd": .string(completion),
        ]
        for member in members.members { content[member.name] = member.value }
        let iv = ChannelKeys.counterIV(channel.acsCounter, encryption: .a128cbcHS256, fromSDK: false)
        let compact = try JWE.encrypt(
            content.serializedBytes, to: .direct(channel.keys.acsToSDK(.a128cbcHS256)), encryption: .a128cbcHS256,
            keyID: channel.identifiers.acsTransID, iv: iv)
        self.channel.withLock { $0?.acsCounter += 1 }
        return TransportResponse(status: 200, contentType: "application/jose; charset=UTF-8", body: Array(compact.utf8))
    }
}
