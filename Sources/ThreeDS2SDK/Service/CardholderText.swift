/// Two texts per failure: the cardholder text, one entry of the SDK's string tables in the locale given to
/// `initialize`, safe to show (no URL, no error dump, no text of a peer, no placeholder); and the error's `message`,
/// `description` and `underlying` for developers and logs, never for the screen.
extension SDKStrings {
    /// The key of the cardholder text for an outcome of `authenticate`.
    ///
    /// - Parameter outcome: The outcome.
    /// - Returns: `completed` for a `Y` or `A` status, `outcomeNotAuthenticated` for any other, `cancelled`,
    ///   `timedOut`, `outcomeBankError` for an Erro, `outcomeConnectionFailed` when the ACS could not be reached,
    ///   `outcomeUnavailable` when the app's backend failed or did not answer, `genericError` for anything else.
    public static func cardholderKey(for outcome: AuthenticationOutcome) -> Key {
        switch outcome {
        case .frictionless(let status): key(for: status)
        case .challenged(let challenge): cardholderKey(for: challenge)
        case .cancelled: .cancelled
        case .failed(let error): error.code == .runtime ? .outcomeUnavailable : .genericError
        }
    }

    /// The key of the cardholder text for a challenge's outcome (see ``cardholderKey(for:)-(AuthenticationOutcome)``).
    ///
    /// - Parameter outcome: The outcome.
    /// - Returns: The key.
    public static func cardholderKey(for outcome: ChallengeOutcome) -> Key {
        switch outcome {
        case .completed(let status): key(for: status)
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        case .protocolError: .outcomeBankError
        case .runtimeError(let failure): failure.code == .transport ? .outcomeConnectionFailed : .genericError
        }
    }

    /// The text to show the cardholder for an outcome of `authenticate`, in this table's language.
    ///
    /// - Parameter outcome: The outcome.
    /// - Returns: One entry of the table, never text built from an error or a peer's message.
    public func cardholderText(for outcome: AuthenticationOutcome) -> String {
        self[Self.cardholderKey(for: outcome)]
    }

    /// The text to show the cardholder for a challenge's outcome, in this table's language.
    ///
    /// - Parameter outcome: The outcome.
    /// - Returns: One entry of the table, never text built from an error or a peer's message.
    public func cardholderText(for outcome: ChallengeOutcome) -> String {
        self[Self.cardholderKey(for: outcome)]
    }

    /// `Y` and `A` authenticate the cardholder; every other status does not.
    private static func key(for status: TransactionStatus) -> Key {
        status == .authenticated || status == .attempted ? .completed : .outcomeNotAuthenticated
    }
}

extension ThreeDS2Service {
    /// The text to show the cardholder for an outcome, in the locale given to `initialize` (with the app's text
    /// overrides): one entry of the SDK's tables, safe to show. Show this, not an error's `message` or
    /// `description`, which are for developers and logs.
    ///
    /// - Parameter outcome: The outcome of ``authenticate(directoryServerID:messageVersion:requestorAppURL:presenter:progress:challengeTimeout:requestorTimeout:transport:clock:requestor:)``.
    /// - Returns: The text.
    public func cardholderText(for outcome: AuthenticationOutcome) -> String {
        strings.cardholderText(for: outcome)
    }

    /// The text to show the cardholder for a challenge's outcome (the step-by-step API, a status receiver), in the
    /// locale given to `initialize`.
    ///
    /// - Parameter outcome: The outcome.
    /// - Returns: The text.
    public func cardholderText(for outcome: ChallengeOutcome) -> String {
        strings.cardholderText(for: outcome)
    }
}
