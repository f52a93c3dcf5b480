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

    /// What an open transaction holds: its ephemeral key and, once built, the AReq parameters.
    struct Keys {
        let ephemeralKey: P256.KeyAgreement.PrivateKey
        var parameters: AuthenticationRequestParameters?
    }

    /// Where a transaction is in its life. It moves forward only: open, challenging (at most once: two challenges
    /// would reuse counters and IVs), closed.
    enum Phase {
        /// Created; the AReq parameters may be built.
        case open(Keys)
        /// A challenge was accepted; its task, once started, is cancelled by ``Transaction/close()``.
        case challenging(Keys, task: Task<ChallengeOutcome, Never>?)
        /// Closed: the ephemeral key and everything derived from it released.
        case closed

        /// The keys, while the transaction is not closed.
        var keys: Keys? {
            switch self {
            case .open(let keys), .challenging(let keys, _): keys
            case .closed: nil
            }
        }
    }

    struct State {
        var phase: Phase
        /// Where the channel key goes, when the CLI asked (tools-only SPI, test systems).
        var keyLog: (any ChannelKeyLog)?
        /// Where the challenge's trace goes, when the CLI asked (tools-only SPI).
        var traceLog: (any ChallengeTraceLog)?
        /// The 3DS Requestor App URL the app gave with the AReq, for every CReq of the challenge.
        var requestorAppURL: RequestorAppURL?
        /// The render options the AReq announced (``Transaction/authenticationRequest(presenter:challengeTimeout:requestorAppURL:)``):
        /// the challenge refuses a screen of a UI type they leave out.
        var renderOptions: DeviceRenderOptions?

        /// Publishes the AReq parameters, unless the transaction is closed.
        mutating func publish(_ parameters: AuthenticationRequestParameters) {
            switch phase {
            case .open(var keys):
                keys.parameters = parameters
                phase = .open(keys)
            case .challenging(var keys, let task):
                keys.parameters = parameters
                phase = .challenging(keys, task: task)
            case .closed: break
            }
        }
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
            strings: SDKStrings(
                locale: context.locale, overrides: context.configuration.texts, logger: context.logger),
            imageLoader: ChallengeImageLoader())
        self.state = Locked(State(phase: .open(Keys(ephemeralKey: .ephemeral()))))
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool {
        state.withLock { state in
            if case .closed = state.phase { return true }
            return false
        }
    }

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
            guard let keys = state.phase.keys else { return .failure(closedError) }
            if let existing = keys.parameters { return .success(existing) }
            return nil
        }
        if let start { return try start.get() }
        // The key is read again: only its public half leaves the lock.
        guard let publicKey = state.withLock({ $0.phase.keys?.ephemeralKey.publicKey }) else { throw closedError }
        let built = try build(publicKey: publicKey)
        let result: Result<AuthenticationRequestParameters, ThreeDS2Error> = state.withLock { state in
            guard let keys = state.phase.keys else { return .failure(closedError) }
            if let existing = keys.parameters { return .success(existing) }
            state.publish(built)
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
        let deviceData = try directoryServer.encryptDeviceData(json)
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
        let previous = state.withLock { state in
            defer { state.phase = .closed }
            return state.phase
        }
        let (wasOpen, running): (Bool, Task<ChallengeOutcome, Never>?) =
            switch previous {
            case .open: (true, nil)
            case .challenging(_, let task): (true, task)
            case .closed: (false, nil)
            }
        // A challenge still running ends as cancelled.
        running?.cancel()
        context.liveChallenges.remove(sdkTransactionID)
        if wasOpen { context.emit(.transactionClosed(sdkTransactionID: sdkTransactionID)) }
    }
}
