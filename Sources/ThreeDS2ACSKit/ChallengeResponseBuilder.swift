public import ThreeDS2JOSE
public import ThreeDS2Messages

/// Builds a CRes, the ACS's end of what `ChallengeResponseValidator` reads (protocol reference §3–§4; 2.3.1 Tables
/// A.17–A.26): the fields every CRes carries, then a screen (`ChallengeScreen`, the type the validator reads a CRes
/// into) or the final status.
///
/// Typed fields are written only as the message version defines them: entry boxes, the additional-code button,
/// `oobAppURL`/`oobAppLabel`, device binding and the consents' position from 2.3.1; the trust question under the
/// version's own field (`TrustQuestion`); the bank's-app link through the Bridging extension in 2.2.0. What the types
/// cannot say goes through one explicit step, `patched(_:)`, applied to the JSON object just before encoding.
public struct ChallengeResponseBuilder: RawPatchable {
    /// What the CRes says: a screen (`challengeCompletionInd` `N`) or the end of the challenge (`Y`).
    public enum Content: Sendable, Hashable {
        /// A screen to show; the challenge goes on.
        case screen(ChallengeScreen)
        /// The final CRes with its `transStatus` (`Y` or `N`; `D` too from 2.3.1).
        case final(TransactionStatus)
    }

    /// The transaction identifiers.
    public var identifiers: TransactionIdentifiers
    /// The message version of the transaction.
    public var messageVersion: MessageVersion
    /// `acsCounterAtoS`, 0…255.
    public var acsCounter: Int
    /// The screen or the final status.
    public var content: Content
    /// The raw patches, in order (`patched(_:)` adds one).
    public var rawPatches: [RawPatch] = []

    /// Creates a CRes.
    ///
    /// - Parameters:
    ///   - identifiers: The transaction identifiers.
    ///   - messageVersion: The message version of the transaction.
    ///   - acsCounter: `acsCounterAtoS`, 0…255.
    ///   - content: The screen or the final status.
    public init(
        identifiers: TransactionIdentifiers, messageVersion: MessageVersion, acsCounter: Int, content: Content
    ) {
        self.identifiers = identifiers
        self.messageVersion = messageVersion
        self.acsCounter = acsCounter
        self.content = content
    }

    /// Whether this is the final CRes.
    public var isFinal: Bool {
        if case .final = content { return true }
        return false
    }

    /// The CRes JSON object: the typed fields, then the raw patches.
    public var json: JSONObject {
        var object: JSONObject = [
            "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
            "acsTransID": .string(identifiers.acsTransID),
            "sdkTransID": .string(identifiers.sdkTransID),
            "acsCounterAtoS": .string(ChallengeRequestBuilder.counterText(acsCounter)),
            "messageType": .string(MessageType.challengeResponse.rawValue),
            "messageVersion": .string(messageVersion.rawValue),
            "challengeCompletionInd": .string(isFinal ? Self.yes : Self.no),
        ]
        switch content {
        case .final(let status): object["transStatus"] = .string(status.rawValue)
        case .screen(let screen): Self.write(screen, version: messageVersion, into: &object)
        }
        return rawPatches.applied(to: object)
    }

    /// The CRes as the bytes to encrypt.
    public var serializedBytes: [UInt8] { json.serializedBytes }

    /// `Y` of the CRes's Y/N indicators.
    static let yes = "Y"
    /// `N` of the CRes's Y/N indicators.
    static let no = "N"

    /// A Y/N indicator.
    static func indicator(_ value: Bool) -> JSONValue { .string(value ? yes : no) }
}
