public import Crypto
import Foundation
import SwiftASN1
public import ThreeDS2JOSE
public import ThreeDS2Messages
public import X509
import _CryptoExtras

/// The SDK Server Signed Content (`sdkServerSignedContent`, 2.3.1): the JWS a Split-SDK Server makes for each AReq
/// it builds, which the directory server verifies with the certificate of the Split-SDK Server it registered (error
/// 308 when it cannot).
///
/// Server-side: a Split-SDK Server signs it and a directory server (the TestLab's) verifies it; an app's SDK only
/// carries the compact string it is given, so the type lives here, out of the app's vocabulary.
///
/// What is public and what is this SDK's choice:
/// - the body holds the SDK Reference Number, the SDK Signature Timestamp, the SDK Transaction ID and the Split-SDK
///   Server ID, and the whole content is at most 4,000 characters [confidence H];
/// - the body's JSON member names are not public: this SDK uses the AReq's element names, `sdkReferenceNumber`,
///   `sdkSignatureTimestamp`, `sdkTransID` and `splitSdkServerID` [confidence L, our choice];
/// - the signature is not described publicly either: this SDK signs a compact JWS with ES256 and the server's
///   certificate in `x5c`, as an ACS signs its signed content, and accepts ES256 or PS256 when it verifies
///   [confidence L, our choice].
public struct SDKServerSignedContent: Sendable, Hashable {
    /// The longest compact JWS made or accepted: 4,000 characters, the AReq element's bound
    /// (`SplitSDKSignedContentBound.maxLength` of the messages layer).
    public static let maxCompactLength = SplitSDKSignedContentBound.maxLength
    /// The longest SDK Reference Number: 32 characters, as the AReq's element.
    public static let maxReferenceNumberLength = 32

    /// `sdkReferenceNumber`: the SDK Reference Number EMVCo assigned to the Split-SDK.
    public let sdkReferenceNumber: String
    /// `sdkSignatureTimestamp`: when the server signed.
    public let signatureTimestamp: SDKSignatureTimestamp
    /// `sdkTransID`: the transaction's SDK Transaction ID (a UUID).
    public let sdkTransactionID: String
    /// `splitSdkServerID`: the ID the directory server assigned to the signing server.
    public let serverID: SplitSDKServerID

    /// Creates the body.
    ///
    /// - Parameters:
    ///   - sdkReferenceNumber: The SDK Reference Number: 1–32 printable ASCII characters.
    ///   - signatureTimestamp: When the server signs.
    ///   - sdkTransactionID: The SDK Transaction ID: a UUID.
    ///   - serverID: The server's Split-SDK Server ID.
    /// - Throws: ``SDKServerSignedContentError`` with code `invalidPayload` naming the value that is not one.
    public init(
        sdkReferenceNumber: String, signatureTimestamp: SDKSignatureTimestamp, sdkTransactionID: String,
        serverID: SplitSDKServerID
    ) throws(SDKServerSignedContentError) {
        guard (1...Self.maxReferenceNumberLength).contains(sdkReferenceNumber.utf8.count),
            sdkReferenceNumber.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else {
            throw SDKServerSignedContentError(
                .invalidPayload, "sdkReferenceNumber must be 1–32 printable ASCII characters")
        }
        guard TransactionIdentifiers.hasUUIDShape(sdkTransactionID) else {
            throw SDKServerSignedContentError(.invalidPayload, "sdkTransID is not a UUID")
        }
        self.sdkReferenceNumber = sdkReferenceNumber
        self.signatureTimestamp = signatureTimestamp
        self.sdkTransactionID = sdkTransactionID
        self.serverID = serverID
    }

    /// The body as JSON, members in this order: `sdkReferenceNumber`, `sdkSignatureTimestamp`, `sdkTransID`,
    /// `splitSdkServerID`.
    public var json: JSONObject {
        JSONObject([
            ("sdkReferenceNumber", .string(sdkReferenceNumber)),
            ("sdkSignatureTimestamp", .string(signatureTimestamp.text)),
            ("sdkTransID", .string(sdkTransactionID)), ("splitSdkServerID", .string(serverID.rawValue)),
        ])
    }

    /// Reads a body: a JSON object with the four members as strings, each valid (other members are ignored).
    ///
    /// - Parameter payload: The JWS payload's bytes.
    /// - Throws: ``SDKServerSignedContentError`` with code `invalidPayload` naming what is wrong.
    public init(payload: [UInt8]) throws(SDKServerSignedContentError) {
        let value: JSONValue
        do {
            value = try JSONParser(limits: .init(maxBytes: Self.maxCompactLength, maxDepth: 4)).parse(payload)
        } catch {
            throw SDKServerSignedContentError(
                .invalidPayload, "the signed content's body is not JSON: \(error.message)", underlying: error)
        }
        guard case .object(let object) = value else {
            throw SDKServerSignedContentError(.invalidPayload, "the signed content's body is not a JSON object")
        }
        func text(_ name: String) throws(SDKServerSignedContentError) -> String {
            guard let text = object[name]?.stringValue else {
                throw SDKServerSignedContentError(.invalidPayload, "the signed content's body has no string \(name)")
            }
            return text
        }
        guard let timestamp = SDKSignatureTimestamp(text: try text("sdkSignatureTimestamp")) else {
            throw SDKServerSignedContentError(.invalidPayload, "sdkSignatureTimestamp is not YYYYMMDDHHMMSS")
        }
        guard let serverID = SplitSDKServerID(try text("splitSdkServerID")) else {
            throw SDKServerSignedContentError(
                .invalidPayload, "splitSdkServerID must be 1–32 printable ASCII characters")
        }
        try self.init(
            sdkReferenceNumber: try text("sdkReferenceNumber"), signatureTimestamp: timestamp,
            sdkTransactionID: try text("sdkTransID"), serverID: serverID)
    }

    /// Signs the body: a compact JWS, ES256, with the certificate chain in `x5c` (the server's certificate first).
    ///
    /// - Parameters:
    ///   - key: The Split-SDK Server's P-256 signing key.
    ///   - certificateChain: The server's certificate first, then any intermediates; the first must hold `key`'s
    ///     public key.
    /// - Returns: The compact JWS, at most ``maxCompactLength`` characters.
    /// - Throws: ``SDKServerSignedContentError`` with code `invalidCertificate` for an empty chain or a first
    ///   certificate for another key, `tooLong` when the JWS would exceed ``maxCompactLength`` (a shorter chain
    ///   helps), `signingFailed` when signing fails.
    public func sign(key: P256.Signing.PrivateKey, certificateChain: [Certificate]) throws(SDKServerSignedContentError)
        -> String
    {
        guard let leaf = certificateChain.first else {
            throw SDKServerSignedContentError(.invalidCertificate, "the x5c chain is empty")
        }
        guard P256.Signing.PublicKey(leaf.publicKey)?.rawRepresentation == key.publicKey.rawRepresentation else {
            throw SDKServerSignedContentError(
                .invalidCertificate, "the chain's first certificate does not hold the signing key's public key")
        }
        let compact: String
        do {
            compact = try JWS.sign(Array(json.serialized.utf8), with: .es256(key), certificateChain: certificateChain)
        } catch {
            throw SDKServerSignedContentError(.signingFailed, "signing failed: \(error.message)", underlying: error)
        }
        guard compact.utf8.count <= Self.maxCompactLength else {
            throw SDKServerSignedContentError(
                .tooLong,
                "the signed content would be \(compact.utf8.count) characters; at most \(Self.maxCompactLength)")
        }
        return compact
    }

    /// Verifies a compact JWS as a directory server does: at most ``maxCompactLength`` characters; its body read;
    /// the Split-SDK Server it names registered; its signature verified with that server's registered certificate
    /// (ES256 for a P-256 certificate, PS256 for an RSA one; `x5c`, when present, must start with that same
    /// certificate: the header's keys are never trusted on their own).
    ///
    /// It checks neither the timestamp's age nor that the body matches the AReq: the caller, which holds the AReq and
    /// the clock, does.
    ///
    /// - Parameters:
    ///   - compact: The AReq's `sdkServerSignedContent`.
    ///   - registeredCertificate: The certificate registered for a Split-SDK Server ID, `nil` for an unknown one.
    /// - Returns: The verified body.
    /// - Throws: ``SDKServerSignedContentError``: `tooLong`, `malformed` (not a compact JWS),
    ///   `invalidPayload`, `unknownServer`, `invalidCertificate` (the registered certificate holds no usable key, or
    ///   `x5c` names another), `invalidSignature` (including an algorithm other than the key's).
    public static func verify(
        _ compact: String, registeredCertificate: (SplitSDKServerID) -> Certificate?
    ) throws(SDKServerSignedContentError) -> SDKServerSignedContent {
        guard compact.utf8.count <= maxCompactLength else {
            throw SDKServerSignedContentError(
                .tooLong, "the signed content is \(compact.utf8.count) characters; at most \(maxCompactLength)")
        }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw SDKServerSignedContentError(.malformed, "the signed content is not a compact JWS (three parts)")
        }
        let payload: [UInt8]
        do {
            payload = try Base64.urlDecode(parts[1], what: "the signed content's payload")
        } catch {
            throw SDKServerSignedContentError(.malformed, error.message, underlying: error)
        }
        let content = try SDKServerSignedContent(payload: payload)
        guard let certificate = registeredCertificate(content.serverID) else {
            throw SDKServerSignedContentError(
                .unknownServer, "no Split-SDK Server is registered as \"\(content.serverID)\"")
        }
        let verified = try verifySignature(compact, certificate: certificate)
        try checkX5C(verified.header, registered: certificate)
        return content
    }

    private static func verifySignature(_ compact: String, certificate: Certificate)
        throws(SDKServerSignedContentError) -> JWS.Verified
    {
        let key: JWSVerificationKey
        if let ecdsa = P256.Signing.PublicKey(certificate.publicKey) {
            key = .es256(ecdsa)
        } else if let rsa = _RSA.Signing.PublicKey(certificate.publicKey) {
            key = .ps256(publicKeyDER: Array(rsa.derRepresentation))
        } else {
            throw SDKServerSignedContentError(
                .invalidCertificate, "the registered certificate holds neither a P-256 nor an RSA key")
        }
        do {
            return try JWS.verify(compact, using: key, maxCompactBytes: maxCompactLength)
        } catch {
            let signatureCodes: [JOSEError.Code] = [.invalidSignature, .unexpectedAlgorithm, .invalidKey]
            throw SDKServerSignedContentError(
                signatureCodes.contains(error.code) ? .invalidSignature : .malformed,
                "the signed content does not verify: \(error.message)", underlying: error)
        }
    }

    private static func checkX5C(_ header: JSONObject, registered: Certificate) throws(SDKServerSignedContentError) {
        guard let x5c = header["x5c"] else { return }
        guard case .array(let items) = x5c, let first = items.first?.stringValue,
            let der = try? Base64.standardDecode(first, what: "x5c[0]"), let leaf = try? Certificate(derEncoded: der)
        else {
            throw SDKServerSignedContentError(.malformed, "the signed content's x5c is not a certificate chain")
        }
        guard leaf == registered else {
            throw SDKServerSignedContentError(
                .invalidCertificate, "the signed content's x5c names a certificate other than the registered one")
        }
    }
}

/// Why an SDK Server Signed Content could not be made or verified. A directory server answers error 308 for any of
/// the verifier's codes.
public struct SDKServerSignedContentError: DetailedCodedError, Sendable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Name: Hashable, Sendable {
            case tooLong, malformed, invalidPayload, unknownServer, invalidCertificate, invalidSignature, signingFailed
        }

        private let name: Name

        private init(_ name: Name) { self.name = name }

        /// The name of the code, for messages.
        public var description: String { "\(name)" }

        /// Longer than ``SDKServerSignedContent/maxCompactLength``.
        public static let tooLong = Code(.tooLong)
        /// Not a compact JWS, or a header or part that cannot be read.
        public static let malformed = Code(.malformed)
        /// The body is not JSON, lacks a member or holds an invalid value.
        public static let invalidPayload = Code(.invalidPayload)
        /// The body names a Split-SDK Server that is not registered.
        public static let unknownServer = Code(.unknownServer)
        /// A certificate cannot be used: no usable key, a chain for another key, `x5c` naming another certificate.
        public static let invalidCertificate = Code(.invalidCertificate)
        /// The signature does not verify with the registered certificate's key (or uses another algorithm).
        public static let invalidSignature = Code(.invalidSignature)
        /// Signing failed for a reason outside the input.
        public static let signingFailed = Code(.signingFailed)
    }

    /// The code, message, cause and place.
    public let details: ErrorDetails<Code>

    /// Creates the error from its details.
    ///
    /// - Parameter details: The code, message, cause and place.
    public init(details: ErrorDetails<Code>) { self.details = details }
}
