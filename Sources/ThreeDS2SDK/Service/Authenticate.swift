import Foundation
public import ThreeDS2Messages

/// What the app's backend answered for the AReq: a result without a challenge, or the challenge parameters.
/// Decodes from an ARes (or a backend answer in ARes field names): `transStatus` `C` is a challenge, read as
/// ``ChallengeParameters``; any other status is the result.
public enum RequestorResult: Sendable, Hashable, Decodable {
    /// No challenge: the ARes `transStatus` (`Y`, `N`, `A`, `U`, `R`, …).
    case frictionless(transStatus: TransactionStatus)
    /// The ACS asks for a challenge.
    case challenge(ChallengeParameters)

    private enum CodingKeys: String, CodingKey {
        case transStatus
    }

    /// Reads an ARes.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming a missing field.
    public init(from decoder: any Decoder) throws {
        let status = try decoder.container(keyedBy: CodingKeys.self).decode(
            TransactionStatus.self, forKey: .transStatus)
        self =
            status == .challengeRequired
            ? .challenge(try ChallengeParameters(from: decoder)) : .frictionless(transStatus: status)
    }
}

/// The one outcome of ``ThreeDS2Service/authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:)``.
public enum AuthenticationOutcome: Sendable {
    /// The backend answered without a challenge.
    case frictionless(transStatus: TransactionStatus)
    /// A challenge ran and ended so (completed, cancelled, timed out, protocol or runtime error).
    case challenged(ChallengeOutcome)
    /// The calling task was cancelled before a challenge started.
    case cancelled
    /// The transaction could not be created, the backend call failed or timed out, or the challenge parameters
    /// were refused.
    case failed(ThreeDS2Error)
}

extension ThreeDS2Service {
    /// Authenticates in one call: creates a transaction, shows the processing indicator while `requestor` (the app's
    /// call to its backend) sends the AReq, then runs the challenge the ACS asks for with `presenter`, and returns
    /// exactly one outcome. The indicator stays at least ``ProgressDialog/minimumVisible`` (two seconds) when a
    /// challenge screen follows it, so it never flickers; a frictionless answer or a failure hides it at once (decided:
    /// the minimum exists so the indicator does not flash before a screen; when no screen follows, the app's own result
    /// takes over at once rather than waiting on an indicator for nothing). A
    /// `challengeTimeout` under five minutes is refused before anything is sent. The transaction is closed on every path. Cancelling the calling task cancels whatever
    /// is running: the backend call (``AuthenticationOutcome/cancelled``) or the challenge (the ACS is told, the
    /// outcome is ``ChallengeOutcome/cancelled``).
    ///
    /// ```swift
    /// let outcome = await service.authenticate(directoryServerID: .mastercard, presenter: presenter) { areq in
    ///     let body = try JSONEncoder().encode(areq.adding(["acctNumber": .string(card)]))  // and the purchase
    ///     let answer = try await myBackend.post("/3ds/authenticate", body: body)
    ///     return try JSONDecoder().decode(RequestorResult.self, from: answer)  // an ARes
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - directoryServerID: A configured directory server.
    ///   - messageVersion: The message version; the highest when `nil`.
    ///   - requestorAppURL: The 3DS Requestor App URL, where the bank's app returns the cardholder: checked for the
    ///     transaction's version before anything is sent (``RequestorAppURL/check(for:)``) and carried in every CReq
    ///     (2.2.0 and later, with 2.2.0's Bridging announcement when the presenter can open the bank's app). The AReq
    ///     never carries it.
    ///   - requestor: The app's backend call: the AReq value in (add the purchase with
    ///     ``AuthenticationRequest/adding(_:)`` and encode it with `JSONEncoder`), the frictionless result or the
    ///     challenge parameters out.
    ///   - presenter: Shows the challenge screens; its render options go into the AReq.
    ///   - progress: The processing indicator; the presenter when it is one and `nil` is given.
    ///   - challengeTimeout: The challenge's overall timeout (at least five minutes), also sent as `sdkMaxTimeout`.
    ///   - requestorTimeout: How long the backend call may take.
    ///   - transport: How the ACS is reached.
    ///   - clock: The clock the timers run on (a test clock in tests).
    /// - Returns: The one outcome.
    public func authenticate<C: Clock>(
        directoryServerID: DirectoryServerID, messageVersion: MessageVersion? = nil,
        requestorAppURL: RequestorAppURL? = nil, presenter: any ChallengePresenter,
        progress: (any ProgressIndicator)? = nil,
        challengeTimeout: Duration = .seconds(5 * 60), requestorTimeout: Duration = .seconds(30),
        transport: any ChallengeTransport = URLSessionTransport(), clock: C,
        requestor: @escaping @Sendable (AuthenticationRequest) async throws -> RequestorResult
    ) async -> AuthenticationOutcome where C.Duration == Duration {
        await run(
            Payment(
                directoryServerID: directoryServerID, messageVersion: messageVersion,
                requestorAppURL: requestorAppURL, presenter: presenter, progress: progress,
                challengeTimeout: challengeTimeout, requestorTimeout: requestorTimeout, transport: transport),
            clock: clock, requestor: requestor
        ).outcome
    }

    /// Authenticates in one call, as
    /// ``authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:)``
    /// does, then, after a challenge, asks the app's backend for the authoritative result with `confirmation` and
    /// returns it beside the SDK's outcome. The final CRes is informational for the app; the result the ACS's Results
    /// Request (RReq) gave the backend's 3DS Server decides.
    ///
    /// `confirmation` runs once, after the challenge ended (completed, cancelled, timed out or failed: the ACS may
    /// still have sent its Results Request), with the transaction's IDs, under `requestorTimeout`; it is not called for
    /// a frictionless payment (its ARes status is already the backend's) nor when the payment failed before its
    /// challenge (``Confirmation/notAsked``). Its error or timeout is ``Confirmation/failed(_:)``. The app receives a
    /// status only: the authentication value and the ECI stay with the backend.
    ///
    /// - Parameters:
    ///   - directoryServerID: A configured directory server.
    ///   - messageVersion: The message version; the highest when `nil`.
    ///   - requestorAppURL: The 3DS Requestor App URL (see the other form).
    ///   - presenter: Shows the challenge screens.
    ///   - progress: The processing indicator; the presenter when it is one and `nil` is given.
    ///   - challengeTimeout: The challenge's overall timeout (at least five minutes).
    ///   - requestorTimeout: How long each backend call may take.
    ///   - transport: How the ACS is reached.
    ///   - clock: The clock the timers run on (a test clock in tests).
    ///   - requestor: The app's backend call for the AReq.
    ///   - confirmation: The app's backend call for the result.
    /// - Returns: The SDK's outcome and the backend's confirmation.
    public func authenticate<C: Clock>(
        directoryServerID: DirectoryServerID, messageVersion: MessageVersion? = nil,
        requestorAppURL: RequestorAppURL? = nil, presenter: any ChallengePresenter,
        progress: (any ProgressIndicator)? = nil,
        challengeTimeout: Duration = .seconds(5 * 60), requestorTimeout: Duration = .seconds(30),
        transport: any ChallengeTransport = URLSessionTransport(), clock: C,
        requestor: @escaping @Sendable (AuthenticationRequest) async throws -> RequestorResult,
        confirmation: @escaping @Sendable (ConfirmationRequest) async throws -> BackendResult
    ) async -> ConfirmedOutcome where C.Duration == Duration {
        let (outcome, request) = await run(
            Payment(
                directoryServerID: directoryServerID, messageVersion: messageVersion,
                requestorAppURL: requestorAppURL, presenter: presenter, progress: progress,
                challengeTimeout: challengeTimeout, requestorTimeout: requestorTimeout, transport: transport),
            clock: clock, requestor: requestor)
        guard let request else { return ConfirmedOutcome(outcome: outcome, confirmation: .notAsked) }
        let answer = await Race.first(clock: clock, until: clock.now.advanced(by: requestorTimeout)) {
            do {
                return Result<BackendResult, any Error>.success(try await confirmation(request))
            } catch {
                return .failure(error)
            }
        }
        let confirmed: Confirmation =
            switch answer {
            case .finished(.success(.status(let status))): .confirmed(status)
            case .finished(.success(.pending)): .pending
            case .finished(.failure(let error)):
                .failed(.runtime("the confirmation call failed: \(humanReadable(error))", underlying: error))
            case .timedOut: .failed(.runtime("the confirmation call did not answer within \(requestorTimeout)"))
            case .cancelled: .failed(.runtime("the confirmation call was cancelled"))
            }
        return ConfirmedOutcome(outcome: outcome, confirmation: confirmed)
    }

    /// What one payment is given, beside its clock and backend call.
    private struct Payment {
        let directoryServerID: DirectoryServerID
        let messageVersion: MessageVersion?
        let requestorAppURL: RequestorAppURL?
        let presenter: any ChallengePresenter
        let progress: (any ProgressIndicator)?
        let challengeTimeout: Duration
        let requestorTimeout: Duration
        let transport: any ChallengeTransport
    }

    /// One payment: the outcome, and the request for its confirmation when a challenge ran.
    private func run<C: Clock>(
        _ payment: Payment, clock: C,
        requestor: @escaping @Sendable (AuthenticationRequest) async throws -> RequestorResult
    ) async -> (outcome: AuthenticationOutcome, confirmation: ConfirmationRequest?) where C.Duration == Duration {
        let transaction: Transaction
        let request: AuthenticationRequest
        do throws(ThreeDS2Error) {
            transaction = try createTransaction(
                directoryServerID: payment.directoryServerID, messageVersion: payment.messageVersion)
            request = try transaction.authenticationRequest(
                presenter: payment.presenter, challengeTimeout: payment.challengeTimeout,
                requestorAppURL: payment.requestorAppURL)
        } catch {
            return (.failed(error), nil)
        }
        defer { transaction.close() }
        let indicator = payment.progress ?? (payment.presenter as? any ProgressIndicator)
        // Drawn as the challenge will be: the transaction's presentation with the presenter's overrides.
        let presentation = transaction.presentationSettings.applying(payment.presenter.presentationOverrides)
        let dialog = indicator.map {
            ProgressDialog(
                indicator: $0, clock: clock, scheme: transaction.processingScheme, presentation: presentation)
        }
        let result: RequestorResult
        switch await askBackend(
            request, dialog: dialog, requestorTimeout: payment.requestorTimeout, clock: clock, requestor)
        {
        case .answer(let answer): result = answer
        case .ended(let outcome): return (outcome, nil)
        }
        switch result {
        case .frictionless(let status):
            return (.frictionless(transStatus: status), nil)
        case .challenge(let parameters):
            do throws(ThreeDS2Error) {
                let outcome = try await transaction.challenge(
                    parameters, presenter: payment.presenter, timeout: payment.challengeTimeout,
                    transport: payment.transport, clock: clock)
                return (
                    .challenged(outcome),
                    ConfirmationRequest(
                        sdkTransactionID: transaction.sdkTransactionID,
                        threeDSServerTransactionID: parameters.threeDSServerTransactionID)
                )
            } catch {
                return (.failed(error), nil)
            }
        }
    }

    /// What asking the backend gave: its answer, or the outcome the payment ends with.
    private enum BackendAnswer {
        case answer(RequestorResult)
        case ended(AuthenticationOutcome)
    }

    /// Asks the app's backend, under `requestorTimeout`, with the processing indicator up: its answer, or the outcome
    /// the payment ends with (cancelled, timed out, failed). The indicator's two-second minimum is for a challenge
    /// screen that follows it; a frictionless answer or a failure hides it at once.
    private func askBackend<C: Clock>(
        _ request: AuthenticationRequest, dialog: ProgressDialog<C>?, requestorTimeout: Duration, clock: C,
        _ requestor: @escaping @Sendable (AuthenticationRequest) async throws -> RequestorResult
    ) async -> BackendAnswer where C.Duration == Duration {
        await dialog?.start()
        let answer = await Race.first(clock: clock, until: clock.now.advanced(by: requestorTimeout)) {
            do {
                return Result<RequestorResult, any Error>.success(try await requestor(request))
            } catch {
                return .failure(error)
            }
        }
        var challengeFollows = false
        if case .finished(.success(.challenge)) = answer { challengeFollows = true }
        await dialog?.stop(keepingMinimum: challengeFollows)
        switch answer {
        case .cancelled:
            return .ended(.cancelled)
        case .timedOut:
            return .ended(.failed(.runtime("the 3DS Requestor's backend did not answer within \(requestorTimeout)")))
        case .finished(.failure(let error)):
            if Task.isCancelled { return .ended(.cancelled) }
            return .ended(
                .failed(.runtime("the 3DS Requestor's backend call failed: \(humanReadable(error))", underlying: error))
            )
        case .finished(.success(let value)):
            if Task.isCancelled { return .ended(.cancelled) }
            return .answer(value)
        }
    }

    /// ``authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:)``
    /// on the continuous clock.
    public func authenticate(
        directoryServerID: DirectoryServerID, messageVersion: MessageVersion? = nil,
        requestorAppURL: RequestorAppURL? = nil, presenter: any ChallengePresenter,
        progress: (any ProgressIndicator)? = nil,
        challengeTimeout: Duration = .seconds(5 * 60), requestorTimeout: Duration = .seconds(30),
        transport: any ChallengeTransport = URLSessionTransport(),
        requestor: @escaping @Sendable (AuthenticationRequest) async throws -> RequestorResult
    ) async -> AuthenticationOutcome {
        await authenticate(
            directoryServerID: directoryServerID, messageVersion: messageVersion, requestorAppURL: requestorAppURL,
            presenter: presenter,
            progress: progress, challengeTimeout: challengeTimeout, requestorTimeout: requestorTimeout,
            transport: transport, clock: ContinuousClock(), requestor: requestor)
    }
}

extension ThreeDS2Service {
    /// ``authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:confirmation:)``
    /// on the continuous clock.
    public func authenticate(
        directoryServerID: DirectoryServerID, messageVersion: MessageVersion? = nil,
        requestorAppURL: RequestorAppURL? = nil, presenter: any ChallengePresenter,
        progress: (any ProgressIndicator)? = nil,
        challengeTimeout: Duration = .seconds(5 * 60), requestorTimeout: Duration = .seconds(30),
        transport: any ChallengeTransport = URLSessionTransport(),
        requestor: @escaping @Sendable (AuthenticationRequest) async throws -> RequestorResult,
        confirmation: @escaping @Sendable (ConfirmationRequest) async throws -> BackendResult
    ) async -> ConfirmedOutcome {
        await authenticate(
            directoryServerID: directoryServerID, messageVersion: messageVersion, requestorAppURL: requestorAppURL,
            presenter: presenter, progress: progress, challengeTimeout: challengeTimeout,
            requestorTimeout: requestorTimeout, transport: transport, clock: ContinuousClock(), requestor: requestor,
            confirmation: confirmation)
    }
}

extension Transaction {
    /// What the processing indicator shows: the directory server's ID, its display name (else its ID as text) and the
    /// logo the app configured.
    var processingScheme: ProcessingScheme {
        ProcessingScheme(
            directoryServerID: directoryServer.id, name: directoryServer.displayName ?? directoryServer.id.rawValue,
            logo: directoryServer.logo)
    }
}
