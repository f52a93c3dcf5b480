public import ThreeDS2JOSE

/// What the cardholder did on a challenge screen.
public enum CardholderAction: Sendable, Hashable {
    /// Submitted a text entry (UI 01).
    case submitText(String)
    /// Submitted the chosen option keys (UI 02/03); sent in option order, comma-separated.
    case submitSelection([String])
    /// Submitted an HTML form: the form data as the page would send it (UI 05/06).
    case submitHTML(String)
    /// Submitted with nothing entered (2.2.0 and later).
    case submitEmpty
    /// Asked for a new code.
    case resend
    /// Continued after authenticating out of band (UI 04).
    case oobContinue
    /// Continued from an information screen (UI 07, 2.3.1).
    case informationContinue
    /// Cancelled the challenge.
    case cancel
}

/// A cardholder's answer to a screen: the action, and the answer to the whitelisting / trust-list question when the
/// screen asked one.
public struct ChallengeAnswer: Sendable, Hashable {
    /// The action.
    public var action: CardholderAction
    /// `true` to trust the merchant, `false` not to, `nil` when not asked or not answered.
    public var whitelisting: Bool?

    /// Creates an answer.
    public init(_ action: CardholderAction, whitelisting: Bool? = nil) {
        self.action = action
        self.whitelisting = whitelisting
    }
}

/// Builds CReq messages (protocol reference §2).
public struct ChallengeRequestBuilder: Sendable {
    /// The transaction identifiers.
    public let identifiers: TransactionIdentifiers
    /// The message version.
    public let messageVersion: MessageVersion
    /// The 3DS Requestor app URL, sent in every CReq from 2.2.0 when set.
    public let requestorAppURL: String?

    /// Creates a builder.
    public init(identifiers: TransactionIdentifiers, messageVersion: MessageVersion, requestorAppURL: String?) {
        self.identifiers = identifiers
        self.messageVersion = messageVersion
        self.requestorAppURL = requestorAppURL
    }

    /// A CReq: the first (no answer) carries only the identifiers, type, version, counter and app URL; later ones
    /// carry exactly one cardholder action, plus the whitelisting / trust-list answer whenever the previous screen
    /// asked (`N` / `02` when the cardholder did not tick it).
    ///
    /// - Parameters:
    ///   - counter: `sdkCounterStoA`, 0…255.
    ///   - answer: The cardholder's answer, or `nil` for the first CReq.
    ///   - askedWhitelisting: Whether the previous CRes asked the whitelisting / trust-list question.
    /// - Returns: The CReq JSON object.
    /// - Throws: ``ProtocolViolation`` of code 203 when an entry breaks a length or version rule (the SDK must not
    ///   send it).
    public func request(counter: Int, answer: ChallengeAnswer?, askedWhitelisting: Bool = false)
        throws(ProtocolViolation) -> JSONObject
    {
        var object: JSONObject = [
            "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
            "acsTransID": .string(identifiers.acsTransID),
            "messageType": .string("CReq"), "messageVersion": .string(messageVersion.rawValue),
            "sdkTransID": .string(identifiers.sdkTransID),
            "sdkCounterStoA": .string(Self.counterText(counter)),
        ]
        if messageVersion.carriesRequestorAppURL, let requestorAppURL {
            object["threeDSRequestorAppURL"] = .string(requestorAppURL)
        }
        guard let answer else { return object }
        switch answer.action {
        case .submitText(let text):
            guard !text.isEmpty else {
                return try request(
                    counter: counter, answer: ChallengeAnswer(.submitEmpty, whitelisting: answer.whitelisting),
                    askedWhitelisting: askedWhitelisting)
            }
            guard text.utf8.count <= 45 else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "challengeDataEntry", explanation: "the entry is longer than 45 characters")
            }
            object["challengeDataEntry"] = .string(text)
        case .submitSelection(let keys):
            guard !keys.isEmpty else {
                return try request(
                    counter: counter, answer: ChallengeAnswer(.submitEmpty, whitelisting: answer.whitelisting),
                    askedWhitelisting: askedWhitelisting)
            }
            let joined = keys.joined(separator: ",")
            guard joined.utf8.count <= 45 else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "challengeDataEntry",
                    explanation: "the selection is longer than 45 characters")
            }
            object["challengeDataEntry"] = .string(joined)
        case .submitHTML(let formData):
            guard formData.utf8.count <= 256 else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "challengeHTMLDataEntry",
                    explanation: "the form data is longer than 256 characters")
            }
            object["challengeHTMLDataEntry"] = .string(formData)
        case .submitEmpty:
            guard messageVersion.allowsNoEntry else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "challengeNoEntry",
                    explanation: "an empty submission needs message version 2.2.0 or later")
            }
            object["challengeNoEntry"] = .string("Y")
        case .resend:
            object["resendChallenge"] = .string("Y")
        case .oobContinue:
            object["oobContinue"] = messageVersion.oobContinueValue
        case .informationContinue:
            guard messageVersion.hasInformationContinue else {
                throw ProtocolViolation(
                    .invalidFormat, detail: "infoContinueIndicator",
                    explanation: "information screens need message version 2.3.1")
            }
            object["infoContinueIndicator"] = .bool(true)
        case .cancel:
            object["challengeCancel"] = .string("01")
        }
        // Once asked, the question is always answered with the cardholder's action, "no" when the box was left
        // untouched, as certified SDKs do; never with a cancel.
        if askedWhitelisting, let question = messageVersion.trustQuestion, answer.action != .cancel {
            object[question.entryField] = .string(question.entryValue(answer.whitelisting ?? false))
        }
        return object
    }

    /// `%03d`.
    public static func counterText(_ counter: Int) -> String {
        let digits = String(counter)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}
