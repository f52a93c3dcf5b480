import Foundation
public import ThreeDS2JOSE

/// The payload of the ACS signed content (a JWS from the ARes): where the ACS is and its ephemeral key.
public struct ACSSignedContent: Sendable, Hashable {
    /// The ACS URL.
    public let acsURL: String
    /// The ACS ephemeral public key.
    public let acsEphemeralPublicKey: P256PublicJWK
    /// The SDK ephemeral public key the ACS received.
    public let sdkEphemeralPublicKey: P256PublicJWK

    /// Reads the payload. Keys may be JWK objects or strings holding one (both are seen in the field).
    ///
    /// - Parameter payload: The JSON bytes of the JWS payload.
    /// - Throws: A description of what is wrong.
    public init(payload: [UInt8]) throws(JOSEError) {
        let value = try JSONParser(limits: .init(maxBytes: 16 * 1024, maxDepth: 8)).parse(payload)
        guard case .object(let object) = value else {
            throw JOSEError(.invalidHeader, "ACS signed content is not a JSON object")
        }
        guard case .string(let url)? = object["acsURL"], !url.isEmpty, PeerText.fits(url, max: 2048) else {
            throw JOSEError(.invalidHeader, "ACS signed content has no acsURL of at most 2048 characters")
        }
        guard let acsKey = object["acsEphemPubKey"] else {
            throw JOSEError(.invalidKey, "ACS signed content has no acsEphemPubKey")
        }
        guard let sdkKey = object["sdkEphemPubKey"] else {
            throw JOSEError(.invalidKey, "ACS signed content has no sdkEphemPubKey")
        }
        acsURL = url
        acsEphemeralPublicKey = try P256PublicJWK(jsonValue: acsKey)
        sdkEphemeralPublicKey = try P256PublicJWK(jsonValue: sdkKey)
    }

    /// Creates the content (the ACS side).
    public init(acsURL: String, acsEphemeralPublicKey: P256PublicJWK, sdkEphemeralPublicKey: P256PublicJWK) {
        self.acsURL = acsURL
        self.acsEphemeralPublicKey = acsEphemeralPublicKey
        self.sdkEphemeralPublicKey = sdkEphemeralPublicKey
    }

    /// The payload JSON.
    public var json: JSONObject {
        [
            "acsURL": .string(acsURL), "acsEphemPubKey": .object(acsEphemeralPublicKey.jsonObject),
            "sdkEphemPubKey": .object(sdkEphemeralPublicKey.jsonObject),
        ]
    }
}
