public import Foundation
public import ThreeDS2ACSKit
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// The ACS end of one challenge, without a server: it answers the AReq's part (the signed content with its
/// ephemeral key), decrypts the CReqs the SDK sends and encrypts the CRes messages a test scripts, through the same
/// `ACSChannel` and `ChallengeResponseBuilder` the TestLab's ACS uses. Pair it with a
/// ``ScriptedTransport`` to drive a challenge with no network and no real time.
public final class ScriptedACS: Sendable {
    /// The directory server's PKI the signed content is signed under.
    public let pki: DirectoryServerPKI
    /// Where the signed content tells the SDK to send its CReqs.
    public let acsURL: URL
    private let channel = Locked<ACSChannel?>(nil)

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

    /// A transport playing this ACS: each CReq (its `sdkCounterStoA` checked) is answered with the next of `screens`
    /// (CRes built with ``challengeResponse(showing:patched:)``), the one after the last with a final CRes of `finalStatus`;
    /// an Erro the SDK posts is taken with HTTP 200.
    ///
    /// - Parameters:
    ///   - screens: The screens, in order (``textScreen(for:)`` for a code screen).
    ///   - finalStatus: The final CRes's `transStatus`.
    /// - Returns: The transport.
    public func transport(screens: [ChallengeScreen], finalStatus: TransactionStatus) -> ScriptedTransport {
        ScriptedTransport { [self] request in
            if errorMessage(in: request) != nil {
                return .respond(TransportResponse(status: 200, contentType: nil, body: []))
            }
            let index: Int
            do {
                index = try acceptRequest(in: request)
            } catch {
                return .fail(TransportError(.other, "\(request.target): not a CReq of this challenge (\(error))"))
            }
            do {
                return .respond(
                    index < screens.count
                        ? try challengeResponse(showing: screens[index])
                        : try finalResponse(transactionStatus: finalStatus))
            } catch {
                return .fail(
                    TransportError(.other, "the scripted ACS could not build its CRes: \(error)", underlying: error))
            }
        }
    }

    /// `transport(screens:finalStatus:)` with the final status as its letter (`Y`, `N`).
    ///
    /// - Parameters:
    ///   - screens: The screens, in order.
    ///   - finalStatus: The final CRes's `transStatus` letter.
    /// - Returns: The transport.
    public func transport(screens: [ChallengeScreen], finalStatus: String) -> ScriptedTransport {
        transport(screens: screens, finalStatus: TransactionStatus(rawValue: finalStatus))
    }

    private func challengeParameters(
        sdkKey: P256PublicJWK, sdkTransactionID: String, version: MessageVersion, sdkReferenceNumber: String,
        threeDSServerTransactionID: String, acsTransactionID: String
    ) throws -> ChallengeParameters {
        let opened = try ACSChannel(
            identifiers: TransactionIdentifiers(
                threeDSServerTransID: threeDSServerTransactionID, acsTransID: acsTransactionID,
                sdkTransID: sdkTransactionID),
            messageVersion: version, sdkEphemeralPublicKey: sdkKey, sdkReferenceNumber: sdkReferenceNumber)
        channel.withLock { $0 = opened }
        let signed = try pki.sign(opened.signedContent(acsURL: acsURL.absoluteString))
        return ChallengeParameters(
            threeDSServerTransactionID: threeDSServerTransactionID, acsTransactionID: acsTransactionID,
            acsRefNumber: "TEST-ACS", acsSignedContent: signed)
    }

    /// The CReq in a request the SDK sent, decrypted (the counters do not move: a test may read a CReq again).
    ///
    /// - Parameter request: The request.
    /// - Returns: The CReq's members.
    /// - Throws: `JOSEError` when it is not a CReq of this challenge.
    public func challengeRequest(in request: TransportRequest) throws -> JSONObject {
        try current().decrypt(String(decoding: request.body, as: UTF8.self)).message
    }

    /// Decrypts a CReq and takes its counter; returns the counter it carried.
    private func acceptRequest(in request: TransportRequest) throws -> Int {
        let message = try challengeRequest(in: request)
        return try channel.withLock { channel in
            guard var open = channel else { throw JOSEError(.invalidKey, Self.noChallenge) }
            let counter = open.sdkCounter
            try open.acceptCounter(of: message)
            channel = open
            return counter
        }
    }

    /// The Erro message in a request the SDK sent (plain JSON).
    ///
    /// - Parameter request: The request.
    /// - Returns: The Erro's members, or `nil` when the body is not an Erro.
    public func errorMessage(in request: TransportRequest) -> JSONObject? {
        ACSChannel.errorMessage(in: request.body)
    }

    /// An encrypted CRes showing `screen`, with the header every CRes carries (the transaction IDs,
    /// `acsCounterAtoS`, `messageType`, `messageVersion`, `challengeCompletionInd` `N`).
    ///
    /// - Parameters:
    ///   - screen: The screen (``textScreen(for:)`` for a one-time code).
    ///   - patch: A raw patch for a CRes the types would not write (a test of the SDK's checks), or `nil`.
    /// - Returns: The HTTP response.
    /// - Throws: An error from encryption.
    public func challengeResponse(showing screen: ChallengeScreen, patched patch: RawPatch? = nil) throws
        -> TransportResponse
    {
        let version = try current().messageVersion
        guard screen.messageVersion == version else {
            throw VersionMismatch(screenVersion: screen.messageVersion, transactionVersion: version)
        }
        return try response(.screen(screen), patch: patch)
    }

    /// A scripted screen of another message version than its transaction's: the ACS would send a CRes the SDK
    /// must refuse (Erro 201), so the script is refused first, naming both versions. Build the screen for the
    /// transaction's version (``textScreen(for:)`` takes it).
    public struct VersionMismatch: Error, Hashable, CustomStringConvertible {
        /// The version the scripted screen was built for.
        public let screenVersion: MessageVersion
        /// The transaction's version (the AReq's).
        public let transactionVersion: MessageVersion

        /// Creates the error.
        ///
        /// - Parameters:
        ///   - screenVersion: The scripted screen's version.
        ///   - transactionVersion: The transaction's version.
        public init(screenVersion: MessageVersion, transactionVersion: MessageVersion) {
            self.screenVersion = screenVersion
            self.transactionVersion = transactionVersion
        }

        /// Names both versions.
        public var description: String {
            "the scripted screen is of message version \(screenVersion) but the transaction is of "
                + "\(transactionVersion): build the screen for \(transactionVersion)"
        }
    }

    /// An encrypted final CRes (`challengeCompletionInd` `Y`) with this `transStatus`.
    ///
    /// - Parameter transactionStatus: The status (`Y` or `N`; `D` from 2.3.1).
    /// - Returns: The HTTP response.
    /// - Throws: An error from encryption.
    public func finalResponse(transactionStatus: TransactionStatus) throws -> TransportResponse {
        try response(.final(transactionStatus))
    }

    /// `finalResponse(transactionStatus:)` with the status as its letter.
    ///
    /// - Parameter transactionStatus: `Y` or `N`.
    /// - Returns: The HTTP response.
    /// - Throws: An error from encryption.
    public func finalResponse(transactionStatus: String) throws -> TransportResponse {
        try finalResponse(transactionStatus: TransactionStatus(rawValue: transactionStatus))
    }

    /// A one-time-code screen (UI type 01) as the version defines it: one entry box from 2.3.1, the entry label as
    /// `challengeInfoLabel` before.
    ///
    /// - Parameter version: The message version.
    /// - Returns: The screen.
    public static func textScreen(for version: MessageVersion) -> ChallengeScreen {
        var screen = ChallengeScreen(uiType: .text, messageVersion: version)
        screen.header = "Confirm your payment"
        screen.infoText = "Enter the code we sent to your phone."
        screen.submitLabel = "Verify"
        if version.hasEntryBoxes {
            screen.entryBoxes = [EntryBox(label: "One-time code", keyboard: .numeric, maxLength: 6, isMasked: false)]
        } else {
            screen.infoLabel = "One-time code"
        }
        return screen
    }

    private static let noChallenge = "no challenge: call challengeParameters(for:) first"

    private func current() throws(JOSEError) -> ACSChannel {
        guard let channel = channel.withLock({ $0 }) else { throw JOSEError(.invalidKey, Self.noChallenge) }
        return channel
    }

    private func response(_ content: ChallengeResponseBuilder.Content, patch: RawPatch? = nil) throws
        -> TransportResponse
    {
        let compact = try channel.withLock { channel in
            guard var open = channel else { throw JOSEError(.invalidKey, Self.noChallenge) }
            let built = open.response(content)
            let compact = try open.encrypt(patch.map { built.patched($0) } ?? built)
            channel = open
            return compact
        }
        return TransportResponse(status: 200, contentType: "application/jose; charset=UTF-8", body: Array(compact.utf8))
    }
}
