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
    let requestorAppURL: String?
    /// Where the client runs: a browser, or an app's web view that can open the bank's app (the Shell variant).
    let host: ClientHost
    let link: ClientLink
    private(set) var state = State.created
    private(set) var clientKey: P256PublicJWK?
    private(set) var authenticationRequest: JSONObject?
    private(set) var sdkTransID = ""
    private(set) var outcome: ChallengeOutcome?
    private var task: Task<Void, Never>?

    init(
        id: String, served: ServedDirectoryServer, messageVersion: MessageVersion, presentation: PresentationSettings,
        requestorAppURL: String?, host: ClientHost = .browser
    ) {
        self.host = host
        link = ClientLink(opensApps: host.opensApps)
        self.id = id
        self.served = served
        self.messageVersion = messageVersion
        self.presentation = presentation
        self.requestorAppURL = requestorAppURL
    }

    /// The client started: the AReq parameters are made with its key and the device data it reported, the split
    /// fields added and the SDK Server Signed Content signed by the core's one AReq type.
    func start(clientKey: P256PublicJWK, deviceData: DeviceInformation, context: ServerContext)
        throws(SplitHTTPError)
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
        let challenge = RemoteChallenge(
            directoryServer: served.directoryServer, sdkReferenceNumber: context.configuration.sdkReferenceNumber,
            sdkTransactionID: sdkTransID, messageVersion: messageVersion,
            allowsPlainHTTPLoopback: context.configuration.allowsPlainHTTPLoopback, opensApps: host.opensApps)
        let verified: RemoteChallenge.Verified
        do {
            verified = try await challenge.verify(parameters, clientEphemeralPublicKey: clientKey)
        } catch {
            await finish(.runtimeError(error))
            throw .refused("the challenge parameters were refused: \(error.message)")
        }
        await link.publish([
            "step": .string("keys"), "acsEphemPubKey": .object(verified.acsEphemeralPublicKey.jsonObject),
            "sdkReferenceNumber": .string(context.configuration.sdkReferenceNumber),
            "acsTransID": .string(parameters.acsTransactionID),
        ])
        task = Task { await self.run(challenge, verified: verified, parameters: parameters, context: context) }
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
            verified, parameters: parameters, client: RemoteClient(link: link),
            presenter: RemotePresenter(link: link, opensApps: host.opensApps), presentation: presentation,
            renderOptions: RemotePresenter(link: link, opensApps: host.opensApps).renderOptions(for: messageVersion),
            transport: context.transport, timeout: context.configuration.challengeTimeout, clock: context.clock.base,
            logger: context.logger)
        await finish(outcome)
    }

    /// Ends the session with an outcome: the client's next step is `finished`, then every token is refused.
    func finish(_ outcome: ChallengeOutcome) async {
        guard state != .finished else { return }
        state = .finished
        self.outcome = outcome
        await link.publish(["step": .string("finished"), "outcome": .object(Self.json(outcome))])
    }

    /// Ends the session's task (expiry, shutdown).
    func cancel() async {
        task?.cancel()
        await link.close()
    }

    /// What the merchant may read: the state and, once finished, the informational outcome.
    func status() -> JSONObject {
        var object: JSONObject = ["state": .string(state.rawValue)]
        if let outcome { object["outcome"] = .object(Self.json(outcome)) }
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
