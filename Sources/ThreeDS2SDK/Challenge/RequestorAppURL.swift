import Foundation
public import ThreeDS2Messages

/// The 3DS Requestor App URL: the link the bank's app opens to send the cardholder back to the app after an
/// out-of-band challenge (`threeDSRequestorAppURL`). The specification puts it in the CReq, never in the AReq: the
/// app gives it once (``ThreeDS2Service/authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:)``,
/// or ``Transaction/authenticationRequest(presenter:challengeTimeout:requestorAppURL:)`` step by step), and the SDK
/// sends it, unchanged, in every CReq of the challenge (2.2.0 and later; with 2.2.0's Bridging announcement when the
/// presenter can open the bank's app).
///
/// Which URLs are accepted:
/// - by ``init(_:)``, for every version: at most 2,048 characters, a fully qualified URL — `https` with a host, or
///   a custom scheme such as `shop://3ds`; never plain `http` — without spaces, control or bidirectional characters,
///   and without a user or password;
/// - by ``check(for:)``, for the transaction's version: in 2.2.0, at most 256 characters, any scheme; in 2.3.1, an
///   `https` universal or app link with a host (Table A.1; EMVCo FAQ Q43); in 2.1.0 any accepted URL, which is never
///   sent (the version has no such field).
///
/// The CLI (`threeds pay --requestor-app-url`) checks its option through this same type.
public struct RequestorAppURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as the app wrote it, sent unchanged (EMVCo FAQ Q24: the ACS must not expect anything appended).
    public let text: String

    /// The longest URL any version accepts (2.3.1's bound).
    public static let maximumLength = 2048

    /// Checks the rules of every version (see the type's documentation).
    ///
    /// - Parameter text: The URL.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` naming the rule the URL breaks (the URL itself is not
    ///   quoted).
    public init(_ text: String) throws(ThreeDS2Error) {
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
        self.text = text
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

    /// Checks the rule of one message version (see the type's documentation).
    ///
    /// - Parameter version: The transaction's message version.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` naming the version's rule.
    public func check(for version: MessageVersion) throws(ThreeDS2Error) {
        guard version.carriesRequestorAppURL else { return }
        let limit = version.maxRequestorAppURLLength
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

    /// The URL's text.
    public var description: String { text }
}
