public import Foundation
public import Logging
public import ThreeDS2JOSE
public import ThreeDS2Messages

/// A member of a CReq the Split-SDK's client fills in: what the cardholder entered, chose or consented to never leaves
/// the client, so the remote channel's CReqs go out without it and name each member here (docs/split-sdk.md, the
/// `encrypt` step's `fill`).
@_spi(ThreeDS2SplitServer) public struct RemoteFill: Sendable, Hashable {
    /// Where the client takes a member's value from.
    public enum Source: Sendable, Hashable {
        /// The text of an entry box of the screen answered (0, or 1 for the second box of 2.3.1).
        case entryBox(Int)
        /// The keys of the options the cardholder chose, comma-separated in the screen's order (UI 02, 03).
        case chosenOptions
        /// The form data of the HTML page (UI 05, 06), as a form submission encodes it.
        case htmlForm
        /// The answer to a consent question, `Y` or `N`.
        case consent(ConsentKind)
    }

    /// The CReq member (`challengeDataEntry`, `challengeDataEntryTwo`, `challengeHTMLDataEntry`, and the consent
    /// answers `trustListDataEntry` / `whitelistingDataEntry` and `deviceBindingDataEntry`).
    public let member: String
    /// Where its value comes from.
    public let source: Source

    /// Names a member and its source.
    ///
    /// - Parameters:
    ///   - member: The CReq member.
    ///   - source: Where its value comes from.
    public init(member: String, source: Source) {
        self.member = member
        self.source = source
    }

    /// Removes every entry and consent member from a CReq the builder made (``ChallengeRequestBuilder/entryFields``
    /// and the consent answers) and names what was removed and where the client takes its value: the client puts the
    /// cardholder's own values there. The members are named in the order a CReq carries them.
    ///
    /// - Parameters:
    ///   - request: The CReq, complete; returned without the members.
    ///   - uiType: The UI type of the screen answered (`challengeDataEntry` is an entry box's text on a text screen
    ///     and the chosen options on a select screen).
    /// - Returns: The members removed.
    static func strip(_ request: inout JSONObject, answering uiType: UIType?) -> [RemoteFill] {
        let selects = uiType == .singleSelect || uiType == .multiSelect
        let members: [(String, Source)] = [
            ("challengeDataEntry", selects ? .chosenOptions : .entryBox(0)), ("challengeDataEntryTwo", .entryBox(1)),
            ("challengeHTMLDataEntry", .htmlForm), (TrustQuestion.trustList.entryField, .consent(.trust)),
            (TrustQuestion.whitelisting.entryField, .consent(.trust)),
            ("deviceBindingDataEntry", .consent(.deviceBinding)),
        ]
        var fill: [RemoteFill] = []
        for (member, source) in members where request[member] != nil {
            request[member] = nil
            fill.append(RemoteFill(member: member, source: source))
        }
        return fill
    }
}

/// One CReq for the remote client to complete and encrypt.
@_spi(ThreeDS2SplitServer) public struct RemoteChallengeRequest: Sendable, Hashable {
    /// `sdkCounterStoA`: the IV's counter.
    public let counter: Int
    /// The CReq without entry values.
    public let request: JSONObject
    /// What the client fills in.
    public let fill: [RemoteFill]
    /// Whether it cancels the challenge.
    public let isCancel: Bool
}

/// What the remote client read from an answer of the ACS.
@_spi(ThreeDS2SplitServer) public enum RemoteOpening: Sendable, Hashable {
    /// The decrypted JSON object (a CRes, or an Erro), validated by the core as any CRes.
    case message(JSONObject)
    /// The JWE did not decrypt under the channel keys (a 302, as in process).
    case undecryptable(String)
    /// The plaintext was not one JSON object (a 101, as in process).
    case notJSON(String)
}

/// The Split-SDK's client end of the challenge channel, as the server reaches it: the core's session hands it each
/// CReq to fill and encrypt and each encrypted answer to decrypt, and races both against the exchange's timers.
@_spi(ThreeDS2SplitServer) public protocol RemoteChallengeChannel: Sendable {
    /// The compact JWE of the CReq, completed by the client; returns when the client posted it (the session's
    /// timers bound the wait).
    ///
    /// - Parameter request: The CReq without entries.
    /// - Returns: The JWE's bytes.
    func encrypt(_ request: RemoteChallengeRequest) async -> [UInt8]

    /// What the client read from an encrypted answer of the ACS.
    ///
    /// - Parameter body: The compact JWE as the ACS sent it.
    /// - Returns: The message, or why it could not be read.
    func decrypt(_ body: [UInt8]) async -> RemoteOpening

    /// Where the challenge stands as a screen goes up: what another instance needs to take the challenge over while
    /// the cardholder looks at it (a shared store keeps it). Called before the screen is presented.
    ///
    /// - Parameter checkpoint: The counters, the CRes on show and the time left.
    func checkpoint(_ checkpoint: RemoteChallenge.Checkpoint) async
}

extension RemoteChallengeChannel {
    /// Keeps no checkpoint (a server with one instance).
    public func checkpoint(_ checkpoint: RemoteChallenge.Checkpoint) async {}
}

/// The challenge of a Split-SDK Server: the core's checks before the first CReq, then the core's session and state
/// machine with the remote channel end. Nothing here holds a channel key.
@_spi(ThreeDS2SplitServer) public struct RemoteChallenge: Sendable {
    /// What the checks before the first CReq found.
    public struct Verified: Sendable {
        /// The ACS URL, checked.
        public let acsURL: URL
        /// The ACS's ephemeral key from the signed content the directory server's roots verified.
        public let acsEphemeralPublicKey: P256PublicJWK
    }

    var setup: ChallengeSetup

    /// A challenge of one transaction.
    ///
    /// - Parameters:
    ///   - directoryServer: The directory server of the transaction (its roots verify the ACS signed content).
    ///   - sdkReferenceNumber: The SDK reference number (the Split-SDK Server's).
    ///   - sdkTransactionID: The transaction's `sdkTransID`.
    ///   - messageVersion: The transaction's version.
    ///   - allowsPlainHTTPLoopback: Whether an ACS on loopback may be plain http (tests and the TestLab).
    ///   - opensApps: Whether the client's host can open the bank's app (the Shell variant, in an app's web view): the
    ///     CReqs then say `oobAppURLInd` `01`; a browser cannot (`02`, the default).
    public init(
        directoryServer: SplitDirectoryServer, sdkReferenceNumber: String, sdkTransactionID: String,
        messageVersion: MessageVersion, allowsPlainHTTPLoopback: Bool, opensApps: Bool = false
    ) {
        setup = ChallengeSetup(
            directoryServerRoots: directoryServer.resolved.roots, sdkReferenceNumber: sdkReferenceNumber,
            sdkTransactionID: sdkTransactionID, messageVersion: messageVersion,
            allowsPlainHTTPLoopback: allowsPlainHTTPLoopback)
        setup.oobAppURLIndicator = opensApps ? .supported : .notSupportedByDevice
    }

    /// The core's checks: the ACS signed content against the directory server's roots, the ACS URL, and that the
    /// content names the client's ephemeral key.
    ///
    /// - Parameters:
    ///   - parameters: From the ARes.
    ///   - clientEphemeralPublicKey: The client's key, as the AReq carried it.
    /// - Returns: The ACS URL and ephemeral key.
    /// - Throws: ``ChallengeFailure`` as the Default-SDK throws it.
    public func verify(_ parameters: ChallengeParameters, clientEphemeralPublicKey: P256PublicJWK)
        async throws(ChallengeFailure) -> Verified
    {
        let verified = try await setup.verify(parameters, sdkEphemeralPublicKey: clientEphemeralPublicKey)
        return Verified(acsURL: verified.acsURL, acsEphemeralPublicKey: verified.content.acsEphemeralPublicKey)
    }

    /// Runs the challenge: the core's session and state machine, the client holding the channel.
    ///
    /// - Parameters:
    ///   - verified: What ``verify(_:clientEphemeralPublicKey:)`` returned.
    ///   - parameters: From the ARes.
    ///   - client: The remote channel end.
    ///   - presenter: Shows the screens (the server hands each form state to the client).
    ///   - presentation: What the forms are built from (the session's texts and customization).
    ///   - renderOptions: What the AReq announced.
    ///   - transport: How the ACS is reached.
    ///   - timeout: The overall timer, at least five minutes.
    ///   - clock: The timers' clock.
    ///   - logger: The server's logger (the core logs no challenge data).
    /// - Returns: The outcome (informational, as the Default-SDK's).
    public func run<C: Clock>(
        _ verified: Verified, parameters: ChallengeParameters, client: any RemoteChallengeChannel,
        presenter: any ChallengePresenter, presentation: PresentationSettings, renderOptions: DeviceRenderOptions,
        transport: any ChallengeTransport, timeout: Duration, clock: C, logger: Logger
    ) async -> ChallengeOutcome where C.Duration == Duration {
        var machine = ChallengeStateMachine(builder: setup.builder(parameters), end: .remote)
        machine.renderOptions = renderOptions
        var session = ChallengeSession(
            acsURL: verified.acsURL, machine: machine, presenter: presenter, transport: transport, clock: clock,
            logger: logger, emit: { _ in })
        session.presentation = presentation
        session.remote = client
        let outcome = await session.run(timeout: max(timeout, Transaction.minimumChallengeTimeout))
        await presenter.dismiss(outcome: outcome)
        return outcome
    }
}

extension RemoteChallenge {
    /// Where a remote challenge stands while a screen is up: enough for another Split-SDK Server instance to take it
    /// over (``resume(_:from:parameters:client:presenter:presentation:renderOptions:transport:remaining:clock:logger:)``). It
    /// holds the CRes on show (challenge data: a store keeps it only while the session lives) and never a key or an
    /// entry, which only the client has.
    public struct Checkpoint: Sendable, Hashable {
        /// `sdkCounterStoA` of the next CReq.
        public let sdkCounter: Int
        /// The CRes read so far.
        public let acsCounter: Int
        /// The CRes the screen on show was built from, as the client decrypted it.
        public let response: JSONObject
        /// The Bridging version the CReqs carry, when they carry one.
        public let bridging: Bridging.Version?
        /// The time the overall timer had left when the screen went up.
        public let deadline: Duration

        /// A checkpoint, as kept or read back from a store.
        ///
        /// - Parameters:
        ///   - sdkCounter: `sdkCounterStoA` of the next CReq.
        ///   - acsCounter: The CRes read so far.
        ///   - response: The CRes on show.
        ///   - bridging: The Bridging version.
        ///   - deadline: The time the overall timer had left.
        public init(
            sdkCounter: Int, acsCounter: Int, response: JSONObject, bridging: Bridging.Version?, deadline: Duration
        ) {
            self.sdkCounter = sdkCounter
            self.acsCounter = acsCounter
            self.response = response
            self.bridging = bridging
            self.deadline = deadline
        }
    }

    /// Where a taken-over challenge goes on from.
    public enum ResumePoint: Sendable, Hashable {
        /// The screen of the checkpoint, shown again (its CRes validated again, as when it arrived).
        case screen(Checkpoint)
        /// A CReq with `sdkCounter - 1` may have reached the ACS and its answer is lost with the instance that sent
        /// it: the exchange ends as the SDK ends any lost answer (Erro 402 to the ACS, the outcome `timedOut`), and
        /// that CReq is never sent again.
        case lostAnswer(sdkCounter: Int, acsCounter: Int)
    }

    /// Goes on with a challenge another instance started, from `point`: the same session and state machine as
    /// ``run(_:parameters:client:presenter:presentation:renderOptions:transport:timeout:clock:logger:)``, restored.
    ///
    /// - Parameters:
    ///   - verified: What ``verify(_:clientEphemeralPublicKey:)`` returned on this instance.
    ///   - point: Where to go on from.
    ///   - parameters: From the ARes.
    ///   - client: The remote channel end.
    ///   - presenter: Shows the screens.
    ///   - presentation: What the forms are built from.
    ///   - renderOptions: What the AReq announced.
    ///   - transport: How the ACS is reached.
    ///   - remaining: What is left of the overall timer (at least one second is given).
    ///   - clock: The timers' clock.
    ///   - logger: The server's logger.
    /// - Returns: The outcome; a runtime error when the checkpoint's CRes does not make a screen again.
    public func resume<C: Clock>(
        _ verified: Verified, from point: ResumePoint, parameters: ChallengeParameters,
        client: any RemoteChallengeChannel, presenter: any ChallengePresenter, presentation: PresentationSettings,
        renderOptions: DeviceRenderOptions, transport: any ChallengeTransport, remaining: Duration, clock: C,
        logger: Logger
    ) async -> ChallengeOutcome where C.Duration == Duration {
        var machine = ChallengeStateMachine(builder: setup.builder(parameters), end: .remote)
        machine.renderOptions = renderOptions
        let first: ChallengeStateMachine.Event
        switch point {
        case .screen(let checkpoint):
            guard checkpoint.acsCounter > 0, checkpoint.sdkCounter > 0 else {
                return .runtimeError(ChallengeFailure(.internalError, "the checkpoint holds no screen"))
            }
            machine.restore(
                sdkCounter: checkpoint.sdkCounter, acsCounter: checkpoint.acsCounter - 1, bridging: checkpoint.bridging
            )
            first = .messageReceived(checkpoint.response)
        case .lostAnswer(let sdkCounter, let acsCounter):
            machine.restore(sdkCounter: sdkCounter, acsCounter: acsCounter, bridging: nil)
            first = .responseTimedOut
        }
        var session = ChallengeSession(
            acsURL: verified.acsURL, machine: machine, presenter: presenter, transport: transport, clock: clock,
            logger: logger, emit: { _ in })
        session.presentation = presentation
        session.remote = client
        let outcome = await session.run(timeout: max(remaining, .seconds(1)), resuming: first)
        await presenter.dismiss(outcome: outcome)
        return outcome
    }
}

/// A directory server as the Split-SDK Server uses it: its roots verify ACS signed content and its key encrypts the
/// device data the client reported, with the Default-SDK's checks and encryption.
@_spi(ThreeDS2SplitServer) public struct SplitDirectoryServer: Sendable {
    let resolved: ResolvedDirectoryServer

    /// Checks a directory server as `initialize` does.
    ///
    /// - Parameter server: The directory server's configuration.
    /// - Throws: ``ThreeDS2Error`` as `initialize` throws it.
    public init(_ server: DirectoryServer) throws(ThreeDS2Error) {
        resolved = try ResolvedDirectoryServer(server)
    }

    /// The directory server's ID.
    public var id: DirectoryServerID { resolved.id }

    /// Device data (`sdkEncData`) encrypted to the directory server, as the Default-SDK encrypts its own.
    ///
    /// - Parameter json: The device data's JSON text.
    /// - Returns: The compact JWE.
    /// - Throws: ``ThreeDS2Error`` when the text is too long or encryption fails.
    public func encryptDeviceData(_ json: String) throws(ThreeDS2Error) -> String {
        guard json.count < DeviceInformation.maxJSONCharacters else {
            throw .runtime(
                "device information of \(json.count) characters exceeds \(DeviceInformation.maxJSONCharacters)")
        }
        return try resolved.encryptDeviceData(json)
    }
}

extension AuthenticationRequestParameters {
    /// The AReq parameters of a Split-SDK transaction: the client's ephemeral key and the device data the server
    /// encrypted for the DS from what the client reported (``SplitDirectoryServer/encryptDeviceData(_:)``). The
    /// server signs its SDK Server Signed Content (`SDKServerSignedContent` of ThreeDS2ACSKit) and adds the split
    /// fields with ``AuthenticationRequest/splitSDK(type:signedContent:signatureTimestamp:)``.
    ///
    /// - Parameters:
    ///   - sdkTransactionID: The transaction's `sdkTransID`.
    ///   - deviceData: The encrypted device data.
    ///   - clientEphemeralPublicKey: The client's ephemeral public key.
    ///   - sdkAppID: The SDK App ID.
    ///   - sdkReferenceNumber: The SDK reference number.
    ///   - messageVersion: The transaction's version.
    @_spi(ThreeDS2SplitServer) public init(
        splitTransactionID sdkTransactionID: String, deviceData: String, clientEphemeralPublicKey: P256PublicJWK,
        sdkAppID: String, sdkReferenceNumber: String, messageVersion: MessageVersion
    ) {
        self.init(
            sdkTransactionID: sdkTransactionID, deviceData: deviceData, ephemeralPublicKey: clientEphemeralPublicKey,
            sdkAppID: sdkAppID, sdkReferenceNumber: sdkReferenceNumber, messageVersion: messageVersion)
    }
}
