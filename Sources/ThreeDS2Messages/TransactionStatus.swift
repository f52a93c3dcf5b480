/// The transaction status (`transStatus`) of an ARes or a final CRes (protocol reference §4; 2.3.1 Table A.17).
///
/// A struct over the letter as sent, not an enum: a 3DS Server or ACS may send a value this SDK does not know (a
/// later version's), and it must stay representable; which values a message may carry is the validator's business
/// (a final CRes only `Y` or `N`, and `D` from 2.3.1). `description` is the letter.
public struct TransactionStatus: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The letter as sent.
    public let rawValue: String

    /// A status from its letter, known or not.
    ///
    /// - Parameter rawValue: The letter as sent.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The letter.
    public var description: String { rawValue }

    /// `Y`: authenticated, the account verified.
    public static let authenticated = TransactionStatus(rawValue: "Y")
    /// `N`: not authenticated, or the transaction denied.
    public static let notAuthenticated = TransactionStatus(rawValue: "N")
    /// `U`: authentication could not be performed (a technical or other problem).
    public static let unableToAuthenticate = TransactionStatus(rawValue: "U")
    /// `A`: attempts processing performed; not authenticated, but a proof of attempt is provided.
    public static let attempted = TransactionStatus(rawValue: "A")
    /// `C`: a challenge is required (an ARes).
    public static let challengeRequired = TransactionStatus(rawValue: "C")
    /// `D`: a decoupled authentication is required (in a final CRes from 2.3.1).
    public static let decoupled = TransactionStatus(rawValue: "D")
    /// `R`: authentication rejected by the issuer.
    public static let rejected = TransactionStatus(rawValue: "R")
    /// `I`: informational only; the 3DS Requestor's challenge preference acknowledged.
    public static let informational = TransactionStatus(rawValue: "I")
}
