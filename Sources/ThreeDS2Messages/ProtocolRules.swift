import Foundation

/// The limits on what a cardholder's answer may carry in a CReq, as the protocol sets them: the form state that
/// collects the answer, the web-view policy and the CReq builder all hold answers to these, and none writes the
/// numbers again.
public enum ChallengeLimits {
    /// The longest `challengeDataEntry` (a typed code, or the comma-separated names of the options picked), in
    /// UTF-8 bytes: 45.
    public static let maxEntryBytes = 45
    /// The longest `challengeHTMLDataEntry` (an HTML form's encoded data), in UTF-8 bytes: 256.
    public static let maxHTMLDataBytes = 256
}

extension URL {
    /// The protocol's https rule for a URL a peer gives (the ACS URL, a CRes's links and images, the 2.3.1
    /// `threeDSRequestorAppURL`, the HTML page's reserved submit link): the `https` scheme, in any case, and a
    /// non-empty host.
    package var isHTTPSWithHost: Bool {
        scheme?.lowercased() == "https" && !(host ?? "").isEmpty
    }
}

extension TransactionIdentifiers {
    /// Whether a text has the shape of a transaction ID: a UUID in its 36-character form, in either case.
    ///
    /// - Parameter text: The text as received.
    /// - Returns: `true` for `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with hexadecimal digits.
    public static func hasUUIDShape(_ text: String) -> Bool {
        text.utf8.count == 36 && UUID(uuidString: text) != nil
    }
}
