/// The component that found an error (an Erro's `errorComponent`): `C` the 3DS SDK, `S` the 3DS Server, `D` the
/// DS, `A` the ACS.
///
/// A struct over the letter as sent, not an enum: an Erro from a peer is reported as it came, whatever letter it
/// carries. `description` is the letter.
public struct ErrorComponent: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The letter as sent.
    public let rawValue: String

    /// A component from its letter, known or not.
    ///
    /// - Parameter rawValue: The letter as sent.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The letter.
    public var description: String { rawValue }

    /// `C`: the 3DS SDK.
    public static let sdk = ErrorComponent(rawValue: "C")
    /// `S`: the 3DS Server.
    public static let threeDSServer = ErrorComponent(rawValue: "S")
    /// `D`: the directory server.
    public static let directoryServer = ErrorComponent(rawValue: "D")
    /// `A`: the ACS.
    public static let acs = ErrorComponent(rawValue: "A")
}
