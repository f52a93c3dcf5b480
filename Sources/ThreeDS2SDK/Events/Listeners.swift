public import ThreeDS2Messages

/// Something that happened in the SDK that an integrator may want to observe. Events carry identifiers and
/// counts, never keys, card data, challenge entries or plaintext device data.
public enum ClientEvent: Sendable, Hashable {
    /// The service was initialised; the warnings the security checks raised.
    case initialized(warnings: [Warning.ID])
    /// A transaction was created.
    case transactionCreated(
        sdkTransactionID: String, messageVersion: MessageVersion, directoryServerID: DirectoryServerID)
    /// The AReq parameters were built; `deviceDataCharacters` is the length of the encrypted device data.
    case authenticationRequestParametersBuilt(sdkTransactionID: String, deviceDataCharacters: Int)
    /// A CReq of this transaction was encrypted and sent, with this `sdkCounterStoA`.
    case challengeRequestSent(sdkTransactionID: String, counter: Int)
    /// A response to this transaction's CReq came back from the ACS (a JWE or a plain Erro).
    case challengeResponseReceived(sdkTransactionID: String)
    /// A challenge screen of this UI type was shown to the cardholder.
    case challengeScreenShown(sdkTransactionID: String, uiType: UIType)
    /// The transaction's challenge ended with this outcome (the one the app receives).
    case challengeFinished(sdkTransactionID: String, outcome: ChallengeOutcome)
    /// A transaction was closed and its keys released.
    case transactionClosed(sdkTransactionID: String)
    /// The service was cleaned up.
    case cleanedUp
}

/// Receives ``ClientEvent``s. Called synchronously on the thread that caused the event; keep it quick.
public protocol ClientEventListener: Sendable {
    /// Called for each event.
    func clientEvent(_ event: ClientEvent)
}

/// Receives the security checks' findings: each one at initialize, at transaction creation and at the start of a
/// challenge, and every change between two runs. Called synchronously on the thread that ran the checks.
public protocol SecurityEventListener: Sendable {
    /// Called for each warning a run of the security checks raised, at every run.
    ///
    /// - Parameters:
    ///   - warning: The finding, with its ``Warning/severity``.
    ///   - stage: Where the checks ran.
    func securityWarningFound(_ warning: Warning, stage: SecurityChecks.Stage)

    /// Called when a re-run of the security checks found a different set of warnings than the run before.
    ///
    /// Not called for the findings present at `initialize` (there is no run before it): a policy that must see a
    /// rooted device from the start reads them in ``securityWarningFound(_:stage:)``, which hears every finding of
    /// every run, `initialize` included, or reads `ThreeDS2Service.warnings` once `initialize` returns.
    ///
    /// - Parameters:
    ///   - warnings: The warnings now raised.
    ///   - previous: The warnings raised before.
    ///   - stage: Where the checks ran.
    func securityWarningsChanged(_ warnings: [Warning], previous: [Warning], stage: SecurityChecks.Stage)
}

extension SecurityEventListener {
    /// Does nothing: a listener that only wants changes implements ``securityWarningsChanged(_:previous:stage:)``.
    public func securityWarningFound(_ warning: Warning, stage: SecurityChecks.Stage) {}
}
