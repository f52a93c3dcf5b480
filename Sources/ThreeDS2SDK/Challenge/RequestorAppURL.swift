import Foundation
public import ThreeDS2Messages

/// The 3DS Requestor App URL: the link the bank's app opens to send the cardholder back to the app after an
/// out-of-band challenge (`threeDSRequestorAppURL`). The specification puts it in the CReq, never in the AReq: the
/// app gives it once (``ThreeDS2Service/authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:)``,
/// or ``Transaction/authenticationRequest(presenter:challengeTimeout:requestorAppURL:)`` step by step), and the SDK
/// sends it in every CReq of the challenge (2.2.0 and later; with 2.2.0's Bridging announcement when the presenter
/// can open the bank's app).
///
/// By default the URL travels unchanged, as certified SDKs send it. An app that wants the link to name the
/// transaction it belongs to marks where the SDK writes its transaction ID (``TransactionIDMark``): then the app,
/// opened through the link after its process was restarted, still learns which payment to ask its backend about
/// (``ThreeDS2Service/returnedTransaction(from:requestorAppURL:)``).
///
/// Which URLs are accepted (a marked URL is checked as it will be sent, its transaction ID written in):
/// - by ``init(_:)``, for every version: at most 2,048 characters, a fully qualified URL — `https` with a host, or
///   a custom scheme such as `shop://3ds`; never plain `http` — without spaces, control or bidirectional characters,
///   and without a user or password;
/// - by ``check(for:)``, for the transaction's version: in 2.2.0, at most 256 characters, any scheme; in 2.3.1, an
///   `https` universal or app link with a host (Table A.1; EMVCo FAQ Q43); in 2.1.0 any accepted URL, which is never
///   sent (the version has no such field).
///
/// The CLI (`threeds pay --requestor-app-url`) checks its option through this same type.
public struct RequestorAppURL: Sendable, Hashable, CustomStringConvertible {
    /// Where in the URL the SDK writes its transaction ID (`sdkTransID`, a lowercase UUID of 36 characters), so that
    /// the link the bank's app opens names the transaction.
    ///
    /// The ID in a returning link is a hint, not a proof: anyone can open the app with any link. The app's backend
    /// answers only for the payments of the cardholder's own session, and only with a status.
    public enum TransactionIDMark: Sendable, Hashable {
        /// A placeholder in the URL's text that the SDK replaces with its transaction ID, for example
        /// `https://shop.example/3ds/{sdkTransID}/return` with the placeholder `{sdkTransID}`. It must appear exactly
        /// once, after the scheme and host.
        case placeholder(String)
        /// A query item the SDK adds, named so, with its transaction ID as the value, for example `transID`:
        /// `https://shop.example/3ds/return?order=42` travels as `…/return?order=42&transID=<sdkTransID>` (the
        /// specification's own example, `merchantScheme://appName?transID=…`). The name is 1 to 64 letters, digits,
        /// `-`, `.`, `_` or `~`, and the URL must not already carry it.
        case queryItem(String)

        /// The placeholder ``RequestorAppURL`` documents: `{sdkTransID}`.
        public static let sdkTransIDPlaceholder = TransactionIDMark.placeholder("{sdkTransID}")
    }

    /// The URL as the app wrote it (with the placeholder, when it marks one); sent unchanged when there is no
    /// ``transactionIDMark`` (EMVCo FAQ Q24: the ACS must not expect anything appended).
    public let text: String
    /// Where the SDK writes its transaction ID; `nil` sends ``text`` unchanged.
    public let transactionIDMark: TransactionIDMark?

    /// The longest URL any version accepts (2.3.1's bound).
    public static let maximumLength = 2048

    /// A transaction ID of the SDK's shape, written in to check a marked URL as it will be sent.
    static let sampleTransactionID = "00000000-0000-4000-8000-000000000000"
    /// A second one, to prove the mark sits after the scheme and host.
    static let otherSampleTransactionID = "ffffffff-ffff-4fff-bfff-ffffffffffff"

    /// Checks the rules of every version (see the type's documentation); the URL travels unchanged.
    ///
    /// - Parameter text: The URL.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` naming the rule the URL breaks (the URL itself is not
    ///   quoted).
    public init(_ text: String) throws(ThreeDS2Error) {
        try self.init(text, transactionID: nil)
    }

    /// Checks the rules of every version on the URL as it will be sent, its transaction ID written in where `mark`
    /// says.
    ///
    /// - Parameters:
    ///   - text: The URL, with the placeholder when `mark` is one.
    ///   - mark: Where the SDK writes its transaction ID; `nil` sends the URL unchanged.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` naming the rule the URL or the mark breaks.
    public init(_ text: String, transactionID mark: TransactionIDMark?) throws(ThreeDS2Error) {
        try mark?.check(in: text)
        let sent = Self.filled(text, mark, with: Self.sampleTransactionID)
        try Self.checkURL(sent)
        if mark != nil {
            let other = URL(string: Self.filled(text, mark, with: Self.otherSampleTransactionID))
            let sample = URL(string: sent)
            guard let other, let sample, other.scheme == sample.scheme, other.host == sample.host else {
                throw .invalidInput(
                    "the 3DS Requestor App URL's transaction ID placeholder must come after the scheme and host")
            }
            try Self.checkURL(Self.filled(text, mark, with: Self.otherSampleTransactionID))
        }
        self.text = text
        self.transactionIDMark = mark
    }

    /// The URL the CReqs of a transaction carry: ``text``, with the transaction ID written in where
    /// ``transactionIDMark`` says (unchanged without a mark).
    ///
    /// - Parameter sdkTransactionID: The transaction's SDK transaction ID.
    /// - Returns: The URL's text as sent.
    public func text(forTransaction sdkTransactionID: String) -> String {
        Self.filled(text, transactionIDMark, with: sdkTransactionID)
    }

    /// `text` with `id` written in where `mark` says: the placeholder replaced, or the query item added before any
    /// fragment.
    static func filled(_ text: String, _ mark: TransactionIDMark?, with id: String) -> String {
        switch mark {
        case nil: return text
        case .placeholder(let placeholder): return text.replacingOccurrences(of: placeholder, with: id)
        case .queryItem(let name):
            let fragmentStart = text.firstIndex(of: "#") ?? text.endIndex
            let base = text[..<fragmentStart]
            let separator =
                !base.contains("?") ? "?" : (base.hasSuffix("?") || base.hasSuffix("&")) ? "" : "&"
            return base + separator + name + "=" + id + text[fragmentStart...]
        }
    }

    /// The rules of every version, on the text as sent.
    private static func checkURL(_ text: String) throws(ThreeDS2Error) {
        guard !text.isEmpty else { throw .invalidInput("the 3DS Requestor App URL is empty") }
        guard PeerText.fits(text, max: Self.maximumLength) else {
            throw .invalidInput("the 3DS Requestor App URL is longer than \(Self.maximumLength) characters")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || PeerText.isControlOrBidi($0) })
        else {
            throw .invalidInput("the 3DS Requestor App URL contains a space, control or bidirectional character")
        }
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
            throw .invalidInput("the 3DS Requestor App URL is not an absolute URL with a scheme")
        }
        guard url.user == nil, url.password == nil else {
            throw .invalidInput("the 3DS Requestor App URL must not carry a user or password")
        }
        try Self.checkQualified(text, scheme: scheme.lowercased(), host: url.host)
    }

    /// A link the bank's app can return through: `https` with a host (a universal or app link), or the app's own
    /// scheme followed by `//` and something (`merchantScheme://appName`, protocol reference §2). Plain `http` is
    /// refused in every version: neither iOS universal links nor verified Android app links use it, so the bank's
    /// app would send the cardholder to a web page instead of back to the app.
    private static func checkQualified(_ text: String, scheme: String, host: String?) throws(ThreeDS2Error) {
        switch scheme {
        case "http":
            throw .invalidInput("the 3DS Requestor App URL uses plain http; give an https link or the app's own scheme")
        case "https":
            guard let host, !host.isEmpty else {
                throw .invalidInput("the 3DS Requestor App URL is an https link without a host")
            }
        default:
            let rest = text.dropFirst(scheme.count + 1)
            guard rest.hasPrefix("//"), rest.count > 2 else {
                throw .invalidInput("the 3DS Requestor App URL is not fully qualified (scheme://…)")
            }
        }
    }

    /// Checks the rule of one message version (see the type's documentation) on the URL as sent, its transaction ID
    /// written in when it is marked.
    ///
    /// - Parameter version: The transaction's message version.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` naming the version's rule.
    public func check(for version: MessageVersion) throws(ThreeDS2Error) {
        guard version.carriesRequestorAppURL else { return }
        let limit = version.maxRequestorAppURLLength
        // As sent: every SDK transaction ID has the sample's 36 characters.
        let text = self.text(forTransaction: Self.sampleTransactionID)
        if version.requiresHTTPSRequestorAppURL {
            guard PeerText.fits(text, max: limit), ChallengeResponseValidator.isHTTPSURL(text) else {
                throw .invalidInput(
                    "the 3DS Requestor App URL must be an https universal or app link with a host, of at most "
                        + "\(limit) characters, in message version \(version)")
            }
        } else if !PeerText.fits(text, max: limit) {
            throw .invalidInput(
                "the 3DS Requestor App URL must be at most \(limit) characters in message version \(version)")
        }
    }

    /// The URL's text, as the app wrote it.
    public var description: String { text }
}

extension RequestorAppURL.TransactionIDMark {
    /// The longest placeholder or query item name.
    static let maximumLength = 64

    /// Checks the mark's own shape and that `text` has a place for it.
    func check(in text: String) throws(ThreeDS2Error) {
        switch self {
        case .placeholder(let placeholder):
            guard !placeholder.isEmpty, PeerText.fits(placeholder, max: Self.maximumLength) else {
                throw .invalidInput(
                    "the 3DS Requestor App URL's transaction ID placeholder must be 1 to \(Self.maximumLength) characters"
                )
            }
            guard text.components(separatedBy: placeholder).count == 2 else {
                throw .invalidInput(
                    "the 3DS Requestor App URL must contain its transaction ID placeholder exactly once")
            }
        case .queryItem(let name):
            let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".unicodeScalars)
            guard !name.isEmpty, PeerText.fits(name, max: Self.maximumLength),
                name.unicodeScalars.allSatisfy(unreserved.contains)
            else {
                throw .invalidInput(
                    "the 3DS Requestor App URL's transaction ID query item name must be 1 to \(Self.maximumLength) "
                        + "letters, digits, '-', '.', '_' or '~'")
            }
            let query = URLComponents(string: text)?.queryItems ?? []
            guard !query.contains(where: { $0.name == name }) else {
                throw .invalidInput("the 3DS Requestor App URL already has a query item named \(name)")
            }
        }
    }
}
