import Crypto
import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

// The results leg of the TestLab ACS: after every challenge ending it sends exactly one RReq through the DS to the
// 3DS Server (docs/results-reference.md sections 3 and 5; Tools/README.md, "The results leg").

extension AccessControlServer {
    /// How a challenge ended, as the RReq reports it.
    enum Ending {
        /// A final CRes with this status (after a cancel when `cancelled`).
        case final(TransactionStatus, cancelled: Bool)
        /// The bank's app decided (behaviour A sends the RReq at once).
        case bankDecision(TransactionStatus)
        /// The ACS answered a CReq with this Erro.
        case acsError(ErrorMessage)
        /// The SDK sent this Erro.
        case sdkError(JSONObject)
        /// No CReq came within the ACS's timeout (the first, when `firstRequest`).
        case timedOut(firstRequest: Bool)
        /// The bank's app decided a decoupled authentication.
        case decoupled(TransactionStatus)
    }

    /// What the bank's app decision did.
    enum DecisionOutcome: Sendable {
        /// Recorded; whether the RReq went at once.
        case recorded(resultsSent: Bool)
        /// No such challenge.
        case unknown
        /// The challenge had ended.
        case finished
    }

    /// Sends the challenge's RReq, once: built for the ending, patched by the fault profile, through the DS; the
    /// answer is recorded. A fault profile may send it twice (the duplicate fault).
    func sendResults(_ challenge: inout Challenge, ending: Ending) {
        challenge.timer?.cancel()
        guard !challenge.resultsSent else { return }
        challenge.resultsSent = true
        var builder = Self.resultsRequest(for: ending, challenge: challenge)
        let version = challenge.record.messageVersion
        for patch in challenge.faultProfile?.patches(for: .resultsRequest, version: version) ?? [] {
            builder = builder.patched(patch)
        }
        let copies = challenge.faultProfile?.duplicatesResults == true ? 2 : 1
        for _ in 0..<copies {
            let request = builder.json
            let answer = directoryServer(request.serializedBytes)
            challenge.record.resultsRequests.append(request)
            let parsed = try? JSONParser().parse(answer)
            challenge.record.resultsAnswers.append(parsed?.objectValue ?? [:])
        }
    }

    /// The RReq for an ending (results reference section 3).
    static func resultsRequest(for ending: Ending, challenge: Challenge) -> ResultsRequestBuilder {
        let version = challenge.record.messageVersion
        let scenario = challenge.record.scenario
        let technical: TransStatusReason = version.resultsAreFrom2_2 ? .acsTechnicalProblem : .invalidTransaction
        var status = TransactionStatus.unableToAuthenticate
        var reason: TransStatusReason? = technical
        var cancel: ChallengeCancelIndicator?
        var error: ErrorMessage?
        var method = Self.method(for: scenario)
        switch ending {
        case .final(let final, let cancelled):
            status = final
            reason = cancelled && version.resultsAreFrom2_2 ? .notPerformed : .authenticationFailed
            if cancelled { cancel = .cardholderCancelled }
        case .bankDecision(let decision):
            status = decision
            reason = .authenticationFailed
            method = .outOfBandOther
        case .acsError(let message):
            cancel = version.resultsUseAuthenticationMethod ? .errorToRequest : .transactionError
            error = message
        case .sdkError(let object):
            let message = try? ErrorMessage(json: object)
            if message?.errorCode == .transactionTimedOut {
                // 08 is not in every 2.1-era list (results reference section 8): 06 there.
                reason = .timedOutAtACS
                cancel = version.resultsAreFrom2_2 ? ChallengeCancelIndicator.timedOutAtSDK : .transactionError
            } else {
                cancel = version.resultsUseAuthenticationMethod ? .errorAfterResponse : .transactionError
                error = message
            }
        case .timedOut(let firstRequest):
            reason = .timedOutAtACS
            cancel = firstRequest ? ChallengeCancelIndicator.firstRequestNotReceived : .timedOutAtACS
        case .decoupled(let decision):
            status = decision
            reason = .authenticationFailed
            method = .decoupled
        }
        var builder = ResultsRequestBuilder(
            messageVersion: version, identifiers: challenge.identifiers, dsTransID: challenge.dsTransID,
            transStatus: status)
        builder.transStatusReason = reason
        builder.method = method
        builder.challengeCancel = cancel
        builder.challengeError = error
        if status == .authenticated || status == .attempted {
            builder.authenticationValue = Data(SymmetricKey(size: .init(bitCount: 160)).withUnsafeBytes { Array($0) })
                .base64EncodedString()
            builder.eci = "05"
        }
        // A decoupled authentication showed no screen: the builder leaves out the rendering type and the counter.
        builder.isDecoupled = challenge.isDecoupled
        builder.renderingType = .init(interface: scenario == .html ? .html : .native, template: scenario.template)
        builder.interactionCounter = max(0, challenge.record.requests.count - 1)
        builder.trustList = challenge.trustAnswer.map { (status: $0, source: TrustListStatusSource.acs) }
        return builder
    }

    /// The 2.3.1 method code of a scenario's challenge.
    static func method(for scenario: Scenario) -> AuthenticationMethod {
        switch scenario {
        case .singleSelect, .multiSelect: .knowledgeBased
        case .outOfBand, .bridging, .htmlOutOfBand: .outOfBandOther
        default: .smsOTP
        }
    }

    /// Notes the cardholder's answer to the trust question, when a CReq carries it.
    func noteTrustAnswer(_ request: ReceivedChallengeRequest, challenge: inout Challenge) {
        guard challenge.record.messageVersion.trustQuestion != nil, let answer = request.trustAnswer else { return }
        challenge.trustAnswer = answer.isYes ? .listed : .notListed
    }

    /// The next content: the bank's decision ends the challenge at the next CReq (a cancel still cancels);
    /// otherwise the scenario's script.
    func challengeContent(to request: ReceivedChallengeRequest, challenge: inout Challenge)
        -> ChallengeResponseBuilder.Content
    {
        if let decision = challenge.bankDecision, request.action?.isCancel != true, challenge.step > 1 {
            return .final(decision)
        }
        return ScenarioScript.response(to: request, challenge: &challenge, imageBase: imageBase)
    }

    /// The bank's app decides a challenge: behaviour A sends the RReq at once; B keeps the decision for the final
    /// CRes (the RReq goes with it, or on the ACS's timeout). A decoupled authentication, which no CReq follows, ends
    /// with its RReq at once in either behaviour.
    func decide(acsTransID: String, approved: Bool) -> DecisionOutcome {
        guard var challenge = challenges[acsTransID] else { return .unknown }
        guard !challenge.finished, !challenge.resultsSent else { return .finished }
        let decision: TransactionStatus = approved ? .authenticated : .notAuthenticated
        if challenge.isDecoupled {
            challenge.finished = true
            sendResults(&challenge, ending: .decoupled(decision))
            challenges[acsTransID] = challenge
            return .recorded(resultsSent: true)
        }
        challenge.bankDecision = decision
        if options.resultsTiming == .onApproval { sendResults(&challenge, ending: .bankDecision(decision)) }
        challenges[acsTransID] = challenge
        return .recorded(resultsSent: challenge.resultsSent)
    }

    /// Registers a decoupled authentication (the ARes says `D`): kept as a challenge for its record and its RReq,
    /// with no CReq timer; the bank's app approves it after ``TestLabOptions/decoupledApproval`` on the options'
    /// clock, unless a decision through ``decide(acsTransID:approved:)`` came first.
    func registerDecoupled(
        identifiers: TransactionIdentifiers, messageVersion: MessageVersion, sdkEphemeralKey: P256PublicJWK,
        sdkReferenceNumber: String, faultProfile: ACSFaultProfile?, dsTransID: String
    ) throws {
        _ = try register(
            identifiers: identifiers, scenario: .decoupled, messageVersion: messageVersion,
            sdkEphemeralKey: sdkEphemeralKey, sdkReferenceNumber: sdkReferenceNumber, faultProfile: faultProfile,
            dsTransID: dsTransID)
        let id = identifiers.acsTransID
        guard var challenge = challenges[id] else { return }
        challenge.timer?.cancel()
        challenge.isDecoupled = true
        // The approval's time is fixed now, not when the task first runs: the bank's app decides a set time after
        // the ARes, however late the task starts.
        let approval = Self.sleeper(options.clock, until: options.decoupledApproval)
        challenge.timer = Task { [weak self] in
            do { try await approval() } catch { return }
            _ = await self?.decide(acsTransID: id, approved: true)
        }
        challenges[id] = challenge
    }

    /// A sleep until `delay` after now on `clock`, its deadline taken at once.
    static func sleeper<C: Clock<Duration>>(_ clock: C, until delay: Duration) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: delay)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    /// Starts (or restarts) the ACS's wait for the next CReq, on the options' clock.
    func armTimer(_ challenge: inout Challenge, firstRequest: Bool) {
        challenge.timer?.cancel()
        challenge.timerGeneration += 1
        let (generation, id) = (challenge.timerGeneration, challenge.identifiers.acsTransID)
        let (clock, timeout) = (options.clock, options.acsTimeout)
        challenge.timer = Task { [weak self] in
            do { try await clock.sleep(for: timeout) } catch { return }
            await self?.timeOut(id, generation: generation, firstRequest: firstRequest)
        }
    }

    /// The ACS's timeout fired: unless a newer CReq came, the challenge ends with a timeout RReq.
    func timeOut(_ acsTransID: String, generation: Int, firstRequest: Bool) {
        guard var challenge = challenges[acsTransID], challenge.timerGeneration == generation, !challenge.finished
        else { return }
        challenge.finished = true
        sendResults(&challenge, ending: .timedOut(firstRequest: firstRequest))
        challenges[acsTransID] = challenge
    }

    /// Stops every timer (the lab stops).
    func stopTimers() {
        for id in challenges.keys { challenges[id]?.timer?.cancel() }
    }
}
