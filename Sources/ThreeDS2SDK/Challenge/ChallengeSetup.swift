import Crypto
import Foundation
import ThreeDS2JOSE
@_spi(ThreeDS2Tools) import ThreeDS2Messages
import X509

/// The step before the first CReq: verify the ACS signed content against the directory server's roots, check the
/// ACS URL and that the content names this transaction's ephemeral key, agree the channel keys, and build the state
/// machine. Every failure is a ``ChallengeFailure``; nothing is sent to the ACS before this step succeeds.
struct ChallengeSetup: Sendable {
    let directoryServerRoots: [Certificate]
    let sdkReferenceNumber: String
    let sdkTransactionID: String
    let messageVersion: MessageVersion
    let allowsPlainHTTPLoopback: Bool
    /// What every 2.3.1 CReq says about opening the bank's app.
    var oobAppURLIndicator: OOBAppURLIndicator = .notSupportedByDevice
    /// Where the channel key goes (the CLI's `--save-transaction-keys`); `nil` for every app.
    var keyLog: (any ChannelKeyLog)?

    /// What the dialogue starts from.
    struct Prepared: Sendable {
        let acsURL: URL
        let machine: ChallengeStateMachine
    }

    /// What the checks before the first CReq found: the ACS URL and the signed content naming the expected key.
    struct Verified: Sendable {
        let acsURL: URL
        let content: ACSSignedContent
    }

    /// The checks both channel ends share: the ACS signed content against the directory server's roots, the ACS URL,
    /// and that the content names the SDK's ephemeral key (the client's, in a Split-SDK).
    func verify(_ parameters: ChallengeParameters, sdkEphemeralPublicKey: P256PublicJWK)
        async throws(ChallengeFailure) -> Verified
    {
        let verified: X5CVerifier.Verified
        do {
            verified = try await X5CVerifier(roots: directoryServerRoots).verify(parameters.acsSignedContent)
        } catch {
            throw ChallengeFailure(
                .signedContent, "the ACS signed content failed verification: \(humanReadable(error))", underlying: error
            )
        }
        let content: ACSSignedContent
        do {
            content = try ACSSignedContent(payload: verified.payload)
        } catch {
            throw ChallengeFailure(
                .signedContent, "the ACS signed content is malformed: \(humanReadable(error))", underlying: error)
        }
        let acsURL = try checkedACSURL(content.acsURL)
        // The channel key leaves the SDK only for an ACS on this machine: the rule is applied here, where the ACS
        // URL is known, whatever fronts the 3DS Server (`--server`, `--requestor-exec`).
        if keyLog != nil, !acsURL.hasLoopbackHost {
            throw ChallengeFailure(
                .acsURL, "the channel key is saved only for an ACS on loopback; the ACS URL's host is not")
        }
        if let finding = content.sdkKeyFinding(expected: sdkEphemeralPublicKey) {
            throw ChallengeFailure(.signedContent, finding.rawExplanation)
        }
        return Verified(acsURL: acsURL, content: content)
    }

    func prepare(_ parameters: ChallengeParameters, ephemeralKey: P256.KeyAgreement.PrivateKey)
        async throws(ChallengeFailure) -> Prepared
    {
        let checked = try await verify(parameters, sdkEphemeralPublicKey: P256PublicJWK(ephemeralKey.publicKey))
        let (acsURL, content) = (checked.acsURL, checked.content)
        var secret: [UInt8]
        do {
            secret = try ephemeralKey.sharedSecretFromKeyAgreement(with: content.acsEphemeralPublicKey.keyAgreementKey)
                .withUnsafeBytes { Array($0) }
        } catch {
            throw ChallengeFailure(
                .keyAgreement, "ECDH with the ACS ephemeral key failed: \(humanReadable(error))", underlying: error)
        }
        // The channel keys are SymmetricKeys from here on; the raw secret goes now.
        defer { Wipe.zero(&secret) }
        let identifiers = identifiers(parameters)
        let keys = ChannelKeys(sharedSecret: secret, sdkReferenceNumber: sdkReferenceNumber)
        let channel: SecureChannel
        do {
            channel = try SecureChannel(
                keys: keys, acsTransID: identifiers.acsTransID, requestEncryption: .a128cbcHS256)
        } catch {
            throw ChallengeFailure(
                .keyAgreement, "the channel keys could not be prepared: \(humanReadable(error))", underlying: error)
        }
        keyLog?.record(
            ChannelKeyEntry(identifiers: identifiers, messageVersion: messageVersion, derivedKey: keys.derivedKey))
        return Prepared(acsURL: acsURL, machine: ChallengeStateMachine(builder: builder(parameters), channel: channel))
    }

    /// The transaction's identifiers. Transaction IDs are opaque: sent back exactly as the 3DS Server and ACS wrote
    /// them (an ACS that writes upper-case UUIDs looks them up, and the JWE kid, byte for byte).
    func identifiers(_ parameters: ChallengeParameters) -> TransactionIdentifiers {
        TransactionIdentifiers(
            threeDSServerTransID: parameters.threeDSServerTransactionID,
            acsTransID: parameters.acsTransactionID, sdkTransID: sdkTransactionID)
    }

    /// The CReq builder of the transaction.
    func builder(_ parameters: ChallengeParameters) -> ChallengeRequestBuilder {
        ChallengeRequestBuilder(
            identifiers: identifiers(parameters), messageVersion: messageVersion,
            requestorAppURL: parameters.threeDSRequestorAppURL, oobAppURLIndicator: oobAppURLIndicator)
    }

    /// The ACS URL when it may be used: absolute https, or plain http on loopback when the configuration allows it
    /// (the rule an audit reports, ``ACSSignedContent``).
    func checkedACSURL(_ text: String) throws(ChallengeFailure) -> URL {
        let allowsPlainHTTPLoopback = allowsPlainHTTPLoopback
        switch ACSSignedContent.checkedACSURL(text, allowsPlainHTTP: { $0.hasLoopbackHost && allowsPlainHTTPLoopback })
        {
        case .success(let url): return url
        case .failure(let error): throw ChallengeFailure(.acsURL, error.finding.rawExplanation)
        }
    }
}

/// An error as a sentence for a developer: an error of the package's shape as its message, without its code name
/// (`untrustedCertificateChain: …`) or source location; any other error (the app's own, a backend's) by its type
/// only, since its description may hold a URL, a response body or a whole error dump: the error itself stays in
/// `underlying`, and `description` shows it for logs.
func humanReadable(_ error: any Error) -> String {
    (error as? any CodedError)?.message ?? "a \(type(of: error)) (see underlying)"
}
