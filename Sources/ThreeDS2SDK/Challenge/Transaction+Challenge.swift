import Foundation
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages

extension Transaction {
    /// The shortest overall challenge timeout the specification allows.
    public static let minimumChallengeTimeout: Duration = .seconds(5 * 60)
    /// How long the SDK waits for each CRes.
    public static let responseTimeout: Duration = ChallengeStateMachine.responseTimeout

    /// Runs the challenge and reports the outcome to `receiver`, exactly once, on the main actor.
    ///
    /// The parameters are checked before anything starts; the challenge itself runs in a task, and every failure
    /// after that point is an outcome, never an exception.
    ///
    /// - Parameters:
    ///   - challengeParameters: From the ARes.
    ///   - challengeStatusReceiver: Told the outcome.
    ///   - timeout: The overall timeout; at least five minutes.
    ///   - presenter: Shows the screens.
    ///   - transport: How the ACS is reached; a ``URLSessionTransport`` unless another is given.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for bad parameters, `runtime` for a closed transaction.
    public func doChallenge(
        challengeParameters: ChallengeParameters, challengeStatusReceiver: any ChallengeStatusReceiver,
        timeout: Duration,
        presenter: any ChallengePresenter, transport: any ChallengeTransport = URLSessionTransport()
    ) throws(ThreeDS2Error) {
        try validate(challengeParameters, timeout: timeout)
        let sdkTransactionID = self.sdkTransactionID
        let task = start(
            challengeParameters, presenter: presenter, timeout: timeout, transport: transport, clock: ContinuousClock())
        Task {
            let outcome = await task.value
            await challengeStatusReceiver.deliver(outcome, sdkTransactionID: sdkTransactionID)
        }
    }

    /// Runs the challenge and returns its outcome.
    ///
    /// - Parameters:
    ///   - parameters: From the ARes.
    ///   - presenter: Shows the screens.
    ///   - timeout: The overall timeout; at least five minutes.
    ///   - transport: How the ACS is reached; a ``URLSessionTransport`` unless another is given.
    ///   - clock: The clock the timers run on (a test clock in tests).
    /// - Returns: The one outcome.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` for bad parameters, `runtime` for a closed transaction.
    public func challenge<C: Clock>(
        _ parameters: ChallengeParameters, presenter: any ChallengePresenter, timeout: Duration,
        transport: any ChallengeTransport = URLSessionTransport(), clock: C
    ) async throws(ThreeDS2Error) -> ChallengeOutcome where C.Duration == Duration {
        try validate(parameters, timeout: timeout)
        let task = start(parameters, presenter: presenter, timeout: timeout, transport: transport, clock: clock)
        // Cancelling the caller's task cancels the challenge, which then ends as cancelled.
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Starts the challenge in its own task, which ``close()`` can cancel.
    private func start<C: Clock>(
        _ parameters: ChallengeParameters, presenter: any ChallengePresenter, timeout: Duration,
        transport: any ChallengeTransport, clock: C
    ) -> Task<ChallengeOutcome, Never> where C.Duration == Duration {
        state.withLock { state in
            let task = Task {
                await self.runChallenge(
                    parameters, presenter: presenter, timeout: timeout, transport: transport, clock: clock)
            }
            // Closed since the parameters were accepted: the task finds the key gone and ends as a runtime error.
            if case .challenging(let keys, _) = state.phase { state.phase = .challenging(keys, task: task) }
            return task
        }
    }

    /// ``challenge(_:presenter:timeout:transport:clock:)`` on the continuous clock.
    public func challenge(
        _ parameters: ChallengeParameters, presenter: any ChallengePresenter, timeout: Duration = .seconds(5 * 60),
        transport: any ChallengeTransport = URLSessionTransport()
    ) async throws(ThreeDS2Error) -> ChallengeOutcome {
        try await challenge(
            parameters, presenter: presenter, timeout: timeout, transport: transport, clock: ContinuousClock())
    }

    private func validate(_ parameters: ChallengeParameters, timeout: Duration) throws(ThreeDS2Error) {
        guard timeout >= Self.minimumChallengeTimeout else {
            throw .invalidInput("the challenge timeout must be at least 5 minutes, was \(timeout)")
        }
        // The ARes rules, as an audit reports them (ChallengeParameterFields).
        let fields = ChallengeParameterFields(
            threeDSServerTransID: parameters.threeDSServerTransactionID, acsTransID: parameters.acsTransactionID,
            acsReferenceNumber: parameters.acsRefNumber, acsSignedContent: parameters.acsSignedContent)
        if let finding = fields.firstViolationAsChallengeParameters() { throw .invalidInput(finding.rawExplanation) }
        if let text = parameters.threeDSRequestorAppURL {
            if let given = state.withLock({ $0.requestorAppURL }) {
                // The backend may echo the URL as the app wrote it or as a CReq carries it.
                guard text == given.text || text == given.text(forTransaction: sdkTransactionID) else {
                    throw .invalidInput(
                        "the challenge parameters name another 3DS Requestor App URL than the one given with the AReq")
                }
            } else {
                try RequestorAppURL(text).check(for: messageVersion)
            }
        }
        let refusal: String? = state.withLock { state in
            switch state.phase {
            case .closed: return "transaction \(sdkTransactionID) is closed"
            case .challenging:
                return "transaction \(sdkTransactionID) already has a challenge; a transaction runs one challenge"
            case .open(let keys):
                state.phase = .challenging(keys, task: nil)
                return nil
            }
        }
        if let refusal { throw .runtime(refusal) }
        // Known as running before any CReq carries the app URL, so a link that comes back finds it live.
        context.liveChallenges.add(self)
    }

    private func runChallenge<C: Clock>(
        _ parameters: ChallengeParameters, presenter: any ChallengePresenter, timeout: Duration,
        transport: any ChallengeTransport, clock: C
    ) async -> ChallengeOutcome where C.Duration == Duration {
        let logger = context.logger
        let outcome: ChallengeOutcome
        do {
            var session = try await prepareSession(
                parameters, presenter: presenter, transport: transport, clock: clock, logger: logger)
            logger.debug(
                "challenge started",
                metadata: ["sdkTransID": "\(sdkTransactionID)", "acsTransID": "\(parameters.acsTransactionID)"])
            outcome = await session.run(timeout: timeout)
        } catch {
            outcome = .runtimeError(error)
        }
        await presenter.dismiss(outcome: outcome)
        logger.debug(
            "challenge finished", metadata: ["sdkTransID": "\(sdkTransactionID)", "outcome": "\(outcome.name)"])
        // The channel keys lived in the session, which is gone; the ephemeral key goes now.
        close()
        return outcome
    }

    private func prepareSession<C: Clock>(
        _ parameters: ChallengeParameters, presenter: any ChallengePresenter, transport: any ChallengeTransport,
        clock: C, logger: Logger
    )
        async throws(ChallengeFailure) -> ChallengeSession<C> where C.Duration == Duration
    {
        context.recheck(stage: .challengeStart)
        guard let privateKey = state.withLock({ $0.phase.keys?.ephemeralKey }) else {
            throw ChallengeFailure(.closed, "transaction \(sdkTransactionID) is closed")
        }
        var setup = ChallengeSetup(
            directoryServerRoots: directoryServer.roots,
            sdkReferenceNumber: context.configuration.sdkReferenceNumber,
            sdkTransactionID: sdkTransactionID, messageVersion: messageVersion,
            allowsPlainHTTPLoopback: context.configuration.allowsPlainHTTPLoopback)
        setup.keyLog = state.withLock { $0.keyLog }
        let canOpenApps = await presenter.oobAppOpener != nil
        setup.oobAppURLIndicator =
            !context.configuration.opensOOBApps
            ? .notSupportedByRequestor : canOpenApps ? .supported : .notSupportedByDevice
        // The app URL given once (with the AReq, or in the parameters), for every CReq: with the AReq, as sent, its
        // transaction ID written in where the app marked it.
        var parameters = parameters
        if let given = state.withLock({ $0.requestorAppURL }) {
            parameters.threeDSRequestorAppURL = given.text(forTransaction: sdkTransactionID)
        }
        let prepared = try await setup.prepare(parameters, ephemeralKey: privateKey)
        var session = ChallengeSession(
            acsURL: prepared.acsURL, machine: prepared.machine, presenter: presenter, transport: transport,
            clock: clock, logger: logger, emit: context.emit)
        // What the AReq announced, or what the presenter says it draws when the app built the AReq without it.
        session.machine.renderOptions =
            state.withLock { $0.renderOptions } ?? presenter.renderOptions(for: messageVersion)
        if let traceLog = state.withLock({ $0.traceLog }) {
            session.machine.trace = ChallengeTrace(
                identifiers: prepared.machine.builder.identifiers, messageVersion: messageVersion)
            session.traceLog = traceLog
        }
        // The screens' images come through the challenge's transport, each fetched once per transaction.
        presentationSettings.imageLoader?.use(transport)
        session.presentation = presentationSettings.applying(presenter.presentationOverrides)
        return session
    }
}
