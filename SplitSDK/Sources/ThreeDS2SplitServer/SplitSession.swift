import Foundation
import Logging
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

/// One Split-SDK session: created by the merchant, started by its client, then one challenge. It holds no channel
/// key and no entry; its steps carry CReqs without entries and the JWEs the client made or the ACS sent.
actor SplitSession {
    /// Where the session is.
    enum State: String, Sendable {
        case created, started, challenging, finished
    }

    let id: String
    let served: ServedDirectoryServer
    let messageVersion: MessageVersion
    let presentation: PresentationSettings
    /// The merchant's presentation members (`locale`, `uiCustomization`), which ``presentation`` was made from: what
    /// another instance makes it from again.
    let presentationRequest: JSONObject
    let requestorAppURL: String?
    /// Where the client runs: a browser, or an app's web view that can open the bank's app (the Shell variant).
    let host: ClientHost
    let link: ClientLink
    private(set) var state = State.created
    private(set) var clientKey: P256PublicJWK?
    private(set) var authenticationRequest: JSONObject?
    private(set) var sdkTransID = ""
    /// The informational outcome, once finished, as the `finished` step and the merchant's status carry it.
    private(set) var outcome: JSONObject?
    /// The ARes's challenge parameters, once the merchant handed them over.
    private(set) var challengeParameters: ChallengeParameters?
    /// When the overall timer ends, in milliseconds since 1970 (every instance's wall clock).
    private(set) var deadline: Int64 = 0
    /// Where the challenge stood at the last screen, with that screen's and exchange's numbers.
    private(set) var checkpoint: (core: RemoteChallenge.Checkpoint, screen: Int, exchange: Int)?
    /// The highest `sdkCounterStoA` claimed for a CReq that may have reached the ACS (-1: none).
    private(set) var claimed = -1
    /// The store's version of this session (every write names it; another instance's write makes ours fail).
    var version = 0
    /// Writes the session's state to the store: `true` when this instance still runs it.
    private let write: @Sendable (JSONObject, Int) async -> Bool
    /// Whether another instance took the session over: this one then sends and writes nothing more.
    private(set) var isLost = false
    private var task: Task<Void, Never>?

    init(
        id: String, served: ServedDirectoryServer, messageVersion: MessageVersion, presentation: PresentationSettings,
        presentationRequest: JSONObject = [:], requestorAppURL: String?, host: ClientHost = .browser,
        link: ClientLink? = nil, write: @escaping @Sendable (JSONObject, Int) async -> Bool = { _, _ in true }
    ) {
        self.host = host
        self.link = link ?? ClientLink(opensApps: host.opensApps, session: id)
        self.id = id
        self.served = served
        self.messageVersion = messageVersion
        self.presentation = presentation
        self.presentationRequest = presentationRequest
        self.requestorAppURL = requestorAppURL
        self.write = write
    }

    /// The write under way: writes go one after another, each naming the version the one before it made.
    private var saving: Task<Bool, Never>?

    /// Writes the state; on a refusal (another instance took the session over) ends this instance's part quietly.
    @discardableResult
    func save() async -> Bool {
        let previous = saving
        let data = snapshot()
        let next = Task {
            _ = await previous?.value
            return await self.commit(data)
        }
        saving = next
        return await next.value
    }

    private func commit(_ data: JSONObject) async -> Bool {
        guard !isLost else { return false }
        if await write(data, version + 1) {
            version += 1
            return true
        }
        isLost = true
        task?.cancel()
        await link.close()
        return false
    }

    /// Stops as a killed process does: the task ends, nothing more is written, published or sent.
    func abandon() async {
        isLost = true
        task?.cancel()
        await link.close()
    }

    /// The client started: the AReq parameters are made with its key and the device data it reported, the split
    /// fields added and the SDK Server Signed Content signed by the core's one AReq type.
    func start(clientKey: P256PublicJWK, deviceData: DeviceInformation, context: ServerContext)
        async throws(SplitHTTPError)
    {
        guard state == .created else { throw .conflict("the session has started already") }
        let transID = UUID().uuidString.lowercased()
        let configuration = context.configuration
        let entry = served.entry
        guard let serverID = SplitSDKServerID(entry.splitSDKServerID) else {
            throw .internalError("the Split-SDK Server ID is not valid")
        }
        do throws(ThreeDS2Error) {
            let encrypted = try served.directoryServer.encryptDeviceData(deviceData.json)
            let parameters = AuthenticationRequestParameters(
                splitTransactionID: transID, deviceData: encrypted, clientEphemeralPublicKey: clientKey,
                sdkAppID: UUID().uuidString.lowercased(), sdkReferenceNumber: configuration.sdkReferenceNumber,
                messageVersion: messageVersion)
            let request = parameters.authenticationRequest(
                challengeTimeout: configuration.challengeTimeout,
                renderOptions: RemotePresenter(link: link, opensApps: host.opensApps).renderOptions(for: messageVersion)
            )
            let timestamp = SDKSignatureTimestamp(Date())
            let signedContent: String
            do {
                signedContent = try SDKServerSignedContent(
                    sdkReferenceNumber: request.sdkReferenceNumber, signatureTimestamp: timestamp,
                    sdkTransactionID: request.sdkTransactionID, serverID: serverID
                ).sign(key: entry.signingKey, certificateChain: entry.certificateChain)
            } catch {
                throw ThreeDS2Error(.invalidInput, "the SDK Server Signed Content: \(error.message)", underlying: error)
            }
            authenticationRequest = try request.splitSDK(
                type: SplitSDKType(variant: configuration.variant, isLimited: false), signedContent: signedContent,
                signatureTimestamp: timestamp
            ).json
        } catch {
            throw .refused("the AReq parameters could not be made: \(error.message)")
        }
        sdkTransID = transID
        self.clientKey = clientKey
        state = .started
        guard await save() else { throw .conflict("another instance runs this session now") }
    }

    /// The AReq parameters, once the client has started.
    func parameters() throws(SplitHTTPError) -> JSONObject {
        guard let authenticationRequest else { throw .conflict("the client has not started yet") }
        return authenticationRequest
    }

    /// The ARes's challenge parameters: the core's checks, then the client is told the ACS's key and the challenge
    /// runs in a task of its own.
    func challenge(_ parameters: ChallengeParameters, context: ServerContext) async throws(SplitHTTPError) {
        guard state == .started, let clientKey else {
            throw state == .finished ? .gone("the session has ended") : .conflict("the session cannot challenge now")
        }
        state = .challenging
        challengeParameters = parameters
        deadline = Self.wallMilliseconds() + Int64(context.configuration.challengeTimeout.components.seconds) * 1000
        let challenge = remoteChallenge(context)
        let verified: RemoteChallenge.Verified
        switch await verify(challenge, parameters, clientKey: clientKey) {
        case .success(let checked): verified = checked
        case .failure(let error): throw .refused("the challenge parameters were refused: \(error.message)")
        }
        guard await save() else { throw .conflict("another instance runs this session now") }
        await link.onPresent { [weak self] number in await self?.presented(number) }
        await link.publish(Self.keysStep(verified, parameters: parameters, context: context))
        task = Task { await self.run(challenge, verified: verified, parameters: parameters, context: context) }
    }

    /// The core's checks of the challenge parameters (on every instance that runs the challenge); a refusal ends the
    /// session with it.
    private func verify(_ challenge: RemoteChallenge, _ parameters: ChallengeParameters, clientKey: P256PublicJWK)
        async -> Result<RemoteChallenge.Verified, ChallengeFailure>
    {
        do {
            return .success(try await challenge.verify(parameters, clientEphemeralPublicKey: clientKey))
        } catch {
            await finish(.runtimeError(error))
            return .failure(error)
        }
    }

    /// The core's challenge of this session.
    private func remoteChallenge(_ context: ServerContext) -> RemoteChallenge {
        RemoteChallenge(
            directoryServer: served.directoryServer, sdkReferenceNumber: context.configuration.sdkReferenceNumber,
            sdkTransactionID: sdkTransID, messageVersion: messageVersion,
            allowsPlainHTTPLoopback: context.configuration.allowsPlainHTTPLoopback, opensApps: host.opensApps)
    }

    /// The `keys` step: the ACS's ephemeral key, for the client to derive the channel keys.
    private static func keysStep(
        _ verified: RemoteChallenge.Verified, parameters: ChallengeParameters, context: ServerContext
    ) -> JSONObject {
        [
            "step": .string("keys"), "acsEphemPubKey": .object(verified.acsEphemeralPublicKey.jsonObject),
            "sdkReferenceNumber": .string(context.configuration.sdkReferenceNumber),
            "acsTransID": .string(parameters.acsTransactionID),
        ]
    }

    private func run(
        _ challenge: RemoteChallenge, verified: RemoteChallenge.Verified, parameters: ChallengeParameters,
        context: ServerContext
    ) async {
        let link = self.link
        // The client derives the keys before the first CReq, within the response timer.
        let derived = await context.clock.first(within: Transaction.responseTimeout) {
            await link.input(.keysDerived)
        }
        guard derived != nil else {
            await finish(.timedOut)
            return
        }
        var parameters = parameters
        if parameters.threeDSRequestorAppURL == nil { parameters.threeDSRequestorAppURL = requestorAppURL }
        let outcome = await challenge.run(
            verified, parameters: parameters, client: RemoteClient(link: link, session: self),
            presenter: RemotePresenter(link: link, opensApps: host.opensApps), presentation: presentation,
            renderOptions: RemotePresenter(link: link, opensApps: host.opensApps).renderOptions(for: messageVersion),
            transport: context.transport, timeout: context.configuration.challengeTimeout, clock: context.clock.base,
            logger: context.logger)
        await finish(outcome)
    }

    /// Ends the session with an outcome: the client's next step is `finished`, then every token is refused.
    func finish(_ outcome: ChallengeOutcome) async {
        guard state != .finished, !isLost else { return }
        state = .finished
        let json = Self.json(outcome)
        self.outcome = json
        checkpoint = nil
        // The outcome is told only by the instance that still runs the session.
        guard await save() else { return }
        await link.publish(["step": .string("finished"), "outcome": .object(json)])
    }

    /// Keeps the checkpoint of a screen going up (the next present step's number, the exchange's).
    func keep(_ core: RemoteChallenge.Checkpoint) async {
        checkpoint = (core, await link.screen + 1, await link.exchange)
        await save()
    }

    /// Keeps a screen's number in the checkpoint when it changed (a screen shown again with a note).
    func presented(_ number: Int) async {
        guard let kept = checkpoint, kept.screen != number else { return }
        checkpoint = (kept.core, number, kept.exchange)
        await save()
    }

    /// Claims a CReq's counter before it is posted: `false` when another instance runs the session now (nothing is
    /// posted then).
    func claim(_ counter: Int) async -> Bool {
        guard !isLost else { return false }
        claimed = max(claimed, counter)
        return await save()
    }

    static func wallMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Ends the session's task (expiry, shutdown).
    func cancel() async {
        task?.cancel()
        await link.close()
    }

    /// What the merchant may read: the state and, once finished, the informational outcome.
    func status() -> JSONObject {
        var object: JSONObject = ["state": .string(state.rawValue)]
        if let outcome { object["outcome"] = .object(outcome) }
        return object
    }

    /// An outcome as the `finished` step and the merchant's status carry it.
    static func json(_ outcome: ChallengeOutcome) -> JSONObject {
        switch outcome {
        case .completed(let status):
            ["kind": .string("completed"), "transStatus": .string(status.rawValue)]
        case .cancelled: ["kind": .string("cancelled")]
        case .timedOut: ["kind": .string("timedOut")]
        case .protocolError(let message):
            ["kind": .string("protocolError"), "errorCode": .string(message.errorCode.rawValue)]
        case .runtimeError: ["kind": .string("runtimeError")]
        }
    }
}

// MARK: The session in a store

extension SplitSession {
    /// Everything another instance needs to run the session, as the store keeps it (sealed in PostgreSQL): never a
    /// key, an entry or a token, which the server never has or keeps only as digests.
    func snapshot() -> JSONObject {
        var object: JSONObject = [
            "ds": .string(served.directoryServer.id.rawValue), "messageVersion": .string(messageVersion.rawValue),
            "presentation": .object(presentationRequest), "host": .string(host.rawValue),
            "state": .string(state.rawValue), "sdkTransID": .string(sdkTransID), "claimed": .number("\(claimed)"),
            "deadline": .number("\(deadline)"),
        ]
        if let requestorAppURL { object["requestorAppURL"] = .string(requestorAppURL) }
        if let clientKey { object["clientKey"] = .object(clientKey.jsonObject) }
        if let authenticationRequest { object["areq"] = .object(authenticationRequest) }
        if let challengeParameters { object["challenge"] = .object(MerchantRoutes.json(challengeParameters)) }
        if let outcome { object["outcome"] = .object(outcome) }
        if let checkpoint {
            object["checkpoint"] = .object([
                "sdkCounter": .number("\(checkpoint.core.sdkCounter)"),
                "acsCounter": .number("\(checkpoint.core.acsCounter)"), "response": .object(checkpoint.core.response),
                "bridging": checkpoint.core.bridging.map { .string($0.rawValue) } ?? .null,
                "screen": .number("\(checkpoint.screen)"), "exchange": .number("\(checkpoint.exchange)"),
            ])
        }
        return object
    }

    /// A session another instance wrote, as this instance runs it from now on (``resumeChallenge(context:)`` goes on
    /// with its challenge).
    static func restore(
        _ record: SessionRecord, context: ServerContext, write: @escaping @Sendable (JSONObject, Int) async -> Bool
    ) async throws(SplitHTTPError) -> SplitSession {
        let data = record.data
        guard let served = context.directoryServers[data["ds"]?.stringValue ?? ""],
            let version = MessageVersion(data["messageVersion"]?.stringValue ?? ""),
            case .object(let presentationRequest)? = data["presentation"],
            let host = ClientHost(rawValue: data["host"]?.stringValue ?? ""),
            let state = State(rawValue: data["state"]?.stringValue ?? "")
        else { throw .internalError("a stored session could not be read") }
        let checkpoint = Self.checkpoint(data["checkpoint"])
        let link = ClientLink(
            opensApps: host.opensApps, session: record.id,
            resumingAt: checkpoint.map { ($0.screen, $0.exchange) })
        let session = SplitSession(
            id: record.id, served: served, messageVersion: version,
            presentation: try MerchantRoutes.presentation(presentationRequest),
            presentationRequest: presentationRequest, requestorAppURL: data["requestorAppURL"]?.stringValue,
            host: host, link: link, write: write)
        await session.load(data, state: state, checkpoint: checkpoint, version: record.version)
        return session
    }

    private func load(
        _ data: JSONObject, state: State, checkpoint: (core: RemoteChallenge.Checkpoint, screen: Int, exchange: Int)?,
        version: Int
    ) async {
        self.state = state
        self.version = version
        self.checkpoint = checkpoint
        sdkTransID = data["sdkTransID"]?.stringValue ?? ""
        claimed = Int(data["claimed"]?.numberText ?? "") ?? -1
        deadline = Int64(data["deadline"]?.numberText ?? "") ?? 0
        if case .object(let key)? = data["clientKey"] { clientKey = try? P256PublicJWK(jsonObject: key) }
        if case .object(let areq)? = data["areq"] { authenticationRequest = areq }
        if case .object(let challenge)? = data["challenge"] {
            challengeParameters = try? MerchantRoutes.challengeParameters(challenge)
        }
        if case .object(let outcome)? = data["outcome"] {
            self.outcome = outcome
            await link.publish(["step": .string("finished"), "outcome": .object(outcome)])
        }
    }

    private static func checkpoint(_ value: JSONValue?) -> (
        core: RemoteChallenge.Checkpoint, screen: Int, exchange: Int
    )? {
        guard case .object(let object)? = value, let sdk = Int(object["sdkCounter"]?.numberText ?? ""),
            let acs = Int(object["acsCounter"]?.numberText ?? ""), case .object(let response)? = object["response"],
            let screen = Int(object["screen"]?.numberText ?? ""),
            let exchange = Int(object["exchange"]?.numberText ?? "")
        else { return nil }
        let bridging = object["bridging"]?.stringValue.flatMap(Bridging.Version.init(rawValue:))
        return (
            RemoteChallenge.Checkpoint(
                sdkCounter: sdk, acsCounter: acs, response: response, bridging: bridging, deadline: .zero),
            screen, exchange
        )
    }

    /// Goes on with the challenge of a session taken over: from its last screen; or, when a CReq claimed after that
    /// screen may have reached the ACS, as the SDK ends a lost answer (never posting that counter again); or from the
    /// start when no CReq was claimed yet.
    func resumeChallenge(context: ServerContext) async {
        await link.onPresent { [weak self] number in await self?.presented(number) }
        guard state == .challenging else { return }
        guard let parameters = challengeParameters, let clientKey else {
            await finish(.runtimeError(ChallengeFailure(.internalError, "the stored session lacks its challenge")))
            return
        }
        let challenge = remoteChallenge(context)
        guard case .success(let verified) = await verify(challenge, parameters, clientKey: clientKey) else { return }
        let point: RemoteChallenge.ResumePoint
        if claimed >= (checkpoint?.core.sdkCounter ?? 0) {
            point = .lostAnswer(sdkCounter: claimed + 1, acsCounter: checkpoint?.core.acsCounter ?? 0)
        } else if let checkpoint {
            point = .screen(checkpoint.core)
        } else {
            await link.publish(Self.keysStep(verified, parameters: parameters, context: context))
            task = Task { await self.run(challenge, verified: verified, parameters: parameters, context: context) }
            return
        }
        let remaining = Duration.milliseconds(deadline - Self.wallMilliseconds())
        var resumed = parameters
        if resumed.threeDSRequestorAppURL == nil { resumed.threeDSRequestorAppURL = requestorAppURL }
        let presenter = RemotePresenter(link: link, opensApps: host.opensApps)
        let client = RemoteClient(link: link, session: self)
        let presentation = self.presentation
        let renderOptions = presenter.renderOptions(for: messageVersion)
        task = Task {
            let outcome = await challenge.resume(
                verified, from: point, parameters: resumed, client: client, presenter: presenter,
                presentation: presentation, renderOptions: renderOptions, transport: context.transport,
                remaining: remaining, clock: context.clock.base, logger: context.logger)
            await self.finish(outcome)
        }
    }
}
