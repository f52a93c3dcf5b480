public import ThreeDS2JOSE

/// An EMV 3-D Secure message type (`messageType`, and an Erro's `errorMessageType`).
///
/// A struct over the name as sent, not an enum: a peer may name a message type this SDK does not know, and an Erro
/// about it must keep the name. `description` is the name.
public struct MessageType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name as sent (`CRes`, `Erro`, …).
    public let rawValue: String

    /// A message type from its name, known or not.
    ///
    /// - Parameter rawValue: The name as sent.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The `messageType` a JSON message names, when it names one as a string.
    ///
    /// - Parameter object: The message.
    public init?(in object: JSONObject) {
        guard case .string(let name)? = object["messageType"] else { return nil }
        self.init(rawValue: name)
    }

    /// The name.
    public var description: String { rawValue }

    /// `AReq`: the authentication request (3DS Server to DS to ACS).
    public static let authenticationRequest = MessageType(rawValue: "AReq")
    /// `ARes`: the authentication response.
    public static let authenticationResponse = MessageType(rawValue: "ARes")
    /// `CReq`: the challenge request the SDK sends the ACS.
    public static let challengeRequest = MessageType(rawValue: "CReq")
    /// `CRes`: the challenge response the ACS sends the SDK.
    public static let challengeResponse = MessageType(rawValue: "CRes")
    /// `RReq`: the results request (ACS to DS to 3DS Server).
    public static let resultsRequest = MessageType(rawValue: "RReq")
    /// `RRes`: the results response.
    public static let resultsResponse = MessageType(rawValue: "RRes")
    /// `Erro`: an error message.
    public static let error = MessageType(rawValue: "Erro")
}
