public import ThreeDS2JOSE
public import ThreeDS2Messages

/// The SDK's own record of one challenge's exchanges, for the tools' audit (`threeds conform`): each CReq as sent,
/// with what the cardholder entered redacted, and what the ACS answered as the SDK read it — the CRes it decrypted,
/// what it expected of that CRes and the audit of it against every rule. It carries no key and no entry value, so
/// it may be handed over whatever host the ACS is on; the channel key log (``ChannelKeyLog``) stays the loopback-only
/// way to read the wire again.
///
/// Tools-only (`@_spi(ThreeDS2Tools)`).
@_spi(ThreeDS2Tools) public struct ChallengeTrace: Sendable, Hashable {
    /// One CReq and the ACS's answer to it.
    public struct Exchange: Sendable, Hashable {
        /// The CReq as sent, every field of ``ChallengeRequestBuilder/entryFields`` left out.
        public let request: JSONObject
        /// Each entry field the CReq carried, with the length of its value in characters (Unicode scalars), in the
        /// order of ``request``'s fields.
        public let redactedEntries: [RedactedEntry]
        /// What the ACS answered, as the SDK read it; ``Answer/none`` until (or unless) it answered.
        public internal(set) var answer: Answer
    }

    /// An entry field left out of a traced CReq: its name and its value's length, never the value.
    public struct RedactedEntry: Sendable, Hashable {
        /// The field (`challengeDataEntry`).
        public let field: String
        /// The value's length in characters (Unicode scalars).
        public let length: Int
    }

    /// What the ACS answered to one CReq, as the SDK read it (``ChallengeChannelBody``).
    public enum Answer: Sendable, Hashable {
        /// A CRes the SDK decrypted, what the SDK expected of it, and its audit against every rule.
        case response(JSONObject, ChallengeResponseExpectation, ConformanceAudit<ChallengeResponse>)
        /// An Erro, plain or decrypted.
        case error(JSONObject)
        /// A JSON object other than an Erro sent unencrypted: refused as a CRes.
        case plaintext(JSONObject)
        /// An answer that starts as JSON but is not a JSON object: why, in words.
        case unreadable(String)
        /// An answer that did not decrypt under the channel keys, or whose plaintext is not a JSON object: the rule
        /// it broke (a wrong `kid` or `enc`, a bad tag, a member named twice…), as the SDK answered it.
        case undecryptable(ConformanceFinding)
        /// No answer the SDK read: a transport failure, a timeout, an HTTP error, or a cancel.
        case none
    }

    /// The transaction's identifiers.
    public let identifiers: TransactionIdentifiers
    /// The transaction's message version.
    public let messageVersion: MessageVersion
    /// The exchanges, in order.
    public internal(set) var exchanges: [Exchange] = []

    init(identifiers: TransactionIdentifiers, messageVersion: MessageVersion) {
        self.identifiers = identifiers
        self.messageVersion = messageVersion
    }

    /// Records a CReq as sent, its entry fields redacted.
    mutating func sent(_ request: JSONObject) {
        var kept = JSONObject()
        var redacted: [RedactedEntry] = []
        for (field, value) in request.members {
            if ChallengeRequestBuilder.entryFields.contains(field) {
                let length = value.stringValue.map(PeerText.length) ?? value.serialized.unicodeScalars.count
                redacted.append(RedactedEntry(field: field, length: length))
            } else {
                kept[field] = value
            }
        }
        exchanges.append(Exchange(request: kept, redactedEntries: redacted, answer: .none))
    }

    /// Records what the ACS answered to the last CReq.
    mutating func answered(_ answer: Answer) {
        guard !exchanges.isEmpty else { return }
        exchanges[exchanges.count - 1].answer = answer
    }
}

/// Receives the trace of each challenge a transaction runs, when the challenge ends.
@_spi(ThreeDS2Tools) public protocol ChallengeTraceLog: Sendable {
    /// Records a challenge's trace, once, when it ends (however it ends, after its first CReq was built).
    func record(_ trace: ChallengeTrace)
}

extension Transaction {
    /// Sends the trace of this transaction's challenge to `log` when the challenge ends. Tools-only (`threeds
    /// conform`): it carries no key and no entry value, so unlike ``logChannelKeys(to:)`` it works with an ACS on any
    /// host.
    @_spi(ThreeDS2Tools) public func traceChallenge(to log: any ChallengeTraceLog) {
        state.withLock { $0.traceLog = log }
    }
}
