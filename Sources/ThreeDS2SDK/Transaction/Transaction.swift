import Crypto
import Foundation
import Logging
import ThreeDS2JOSE
public import ThreeDS2Messages

/// One authentication: its ID, its ephemeral key, and (in later steps) its challenge.
///
/// ``close()`` releases the ephemeral key; it is idempotent, and every later use is a runtime error.
public final class Transaction: Sendable {
    /// The SDK transaction ID.
    public let sdkTransactionID: String
    /// The message version, fixed for the whole transaction.
    public let messageVersion: MessageVersion
    /// The directory server ID.
    public let directoryServerID: DirectoryServerID

    struct State {
        var ephemeralKey: P256.KeyAgreement.PrivateKey?
        var parameters: AuthenticationRequestParameters?
        /// Set when a challenge starts: a transaction runs one challenge (two would reuse counters and IVs).
        var challengeStarted = false
        /// The running challenge, cancelled by ``Transaction/close()``.
        var challengeTask: Task<ChallengeOutcome, Never>?
        /// Where the channel key goes, when the CLI asked (tools-only SPI, test systems).
        var keyLog: (any ChannelKeyLog)?
    }

    let state: Locked<State>
    let context: ServiceContext
    let directoryServer: ResolvedDirectoryServer
    /// How the challenge UI looks and speaks, built once from what `initialize` got (the customization per
    /// appearance, the strings for the locale, the image loader); the processing indicator and every screen are
    /// drawn from it, with the presenter's overrides applied (``PresentationSettings/applying(_:)``).
    public let presentationSettings: PresentationSettings

    init(context: ServiceContext, directoryServer: ResolvedDirectoryServer, messageVersion: MessageVersion) {
        self.sdkTransactionID = UUID().uuidString.lowercased()
        self.messageVersion = messageVersion
        self.directoryServerID = directoryServer.id
        self.context = context
        self.directoryServer = directoryServer
        self.presentationSettings = PresentationSettings(
            uiCustomizations: context.uiCustomizations,
            strings: SDKStrings(locale: context.locale, overrides: context.configuration.texts),
            imageLoader: ChallengeImageLoader())
        self.state = Locked(State(ephemeralKey: .ephemeral()))
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { state.withLock { $0.ephemeralKey == nil } }

    /// The parameters for the AReq: device data encrypted to the directory server, the ephemeral public key and
    /// the identifiers. Built once per transaction; later calls return the same values.
    ///
    /// Device data is collected and encrypted holding no lock (on Apple platforms it waits for one main-thread hop
    /// for the UIKit facts), so ``isClosed`` and ``close()`` never wait for it; the parameters are published under
    /// the lock afterwards. Two callers at once may both build; the first to publish wins and both return its values.
    ///
    /// - Returns: The parameters.
    /// - Throws: ``ThreeDS2Error`` with code `runtime` when the transaction is closed (also when it was closed while
    ///   the parameters were being built) or encryption fails.
    public func getAuthenticationRequestParameters() throws(ThreeDS2Error) -> AuthenticationRequestParameters {
        let start: Result<AuthenticationRequestParameters, ThreeDS2Error>? = state.withLock { state in
            if let existing = state.parameters { return .success(existing) }
            guard state.ephemeralKey != nil else { return .failure(closedError) }
            return nil
        }
        if let start { return try start.get() }
        // The key is read again: only its public half leaves the lock.
        guard let publicKey = state.withLock({ $0.ephemeralKey?.publicKey }) else { throw closedError }
        let built = try build(publicKey: publicKey)
        let result: Result<AuthenticationRequestParameters, ThreeDS2Error> = state.withLock { state in
            guard state.ephemeralKey != nil else { return .failure(closedError) }
            if let existing = state.parameters { return .success(existing) }
            state.parameters = built
            return .success(built)
        }
        let parameters = try result.get()
        context.emit(
            .authenticationRequestParametersBuilt(
                sdkTransactionID: sdkTransactionID, deviceDataCharacters: parameters.deviceData.count))
        return parameters
    }

    private var closedError: ThreeDS2Error { .runtime("transaction \(sdkTransactionID) is closed") }

    private func build(publicKey: P256.KeyAgreement.PublicKey) throws(ThreeDS2Error) -> AuthenticationRequestParameters
    {
        let info = context.collector.collect(
            DeviceInformationContext(
                locale: context.locale, appIdentifier: context.configuration.appIdentifier, sdkAppID: context.sdkAppID,
                sdkVersion: ThreeDS2Service.version, sdkReferenceNumber: context.configuration.sdkReferenceNumber,
                sdkTransactionID: sdkTransactionID, now: Date()),
            warnings: context.warnings)
        let json = info.json
        guard json.count < DeviceInformation.maxJSONCharacters else {
            throw .runtime(
                "device information of \(json.count) characters exceeds \(DeviceInformation.maxJSONCharacters)")
        }
        let recipient: JWERecipient
        switch directoryServer.encryptionKey {
        case .rsa(let der): recipient = .rsaOAEP256(publicKeyDER: der)
        case .p256(let key): recipient = .ecdhES(key, derivation: .emvco(partyVInfo: directoryServer.id.rawValue))
        }
        let deviceData: String
        do {
            deviceData = try JWE.encrypt(
                Array(json.utf8), to: recipient, encryption: directoryServer.deviceDataEncryption,
                keyID: directoryServer.keyID)
        } catch {
            throw .runtime(
                "device data could not be encrypted to directory server \(directoryServer.id)", underlying: error)
        }
        context.logger.debug(
            "device data encrypted",
            metadata: [
                "sdkTransID": "\(sdkTransactionID)", "collected": "\(info.collected.count)",
                "unavailable": "\(info.unavailable.count)",
            ])
        return AuthenticationRequestParameters(
            sdkTransactionID: sdkTransactionID, deviceData: deviceData, ephemeralPublicKey: P256PublicJWK(publicKey),
            sdkAppID: context.sdkAppID, sdkReferenceNumber: context.configuration.sdkReferenceNumber,
            messageVersion: messageVersion)
    }

    /// Releases the ephemeral key and everything derived from it. Calling it again does nothing.
    public func close() {
        let (wasOpen, running) = state.withLock { state in
            defer {
                state.ephemeralKey = nil
                state.parameters = nil
                state.challengeTask = nil
            }
            return (state.ephemeralKey != nil, state.challengeTask)
        }
        // A challenge still running ends as cancelled.
        running?.cancel()
        if wasOpen { context.emit(.transactionClosed(sdkTransactionID: sdkTransactionID)) }
    }
}
