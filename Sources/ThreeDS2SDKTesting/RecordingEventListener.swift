@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A `ClientEventListener` and `SecurityEventListener` that keeps everything it is told, for tests of the events
/// and security findings a service reports. Give it to `ThreeDS2Service(clientEventListener:securityEventListener:)`
/// as either or both.
public final class RecordingEventListener: ClientEventListener, SecurityEventListener {
    /// One security finding, as `SecurityEventListener/securityWarningFound(_:stage:)` reports it.
    public struct Finding: Sendable, Hashable {
        /// The warning.
        public let warning: Warning
        /// Where the checks ran.
        public let stage: SecurityChecks.Stage
    }

    /// One change of the security findings, as `SecurityEventListener/securityWarningsChanged(_:previous:stage:)`
    /// reports it.
    public struct Change: Sendable, Hashable {
        /// The warnings now raised.
        public let warnings: [Warning]
        /// The warnings raised before.
        public let previous: [Warning]
        /// Where the checks ran.
        public let stage: SecurityChecks.Stage
    }

    private struct State {
        var events: [ClientEvent] = []
        var findings: [Finding] = []
        var changes: [Change] = []
    }

    private let state = Locked(State())

    /// Creates a listener that has been told nothing.
    public init() {}

    /// The client events so far, in order.
    public var events: [ClientEvent] { state.withLock { $0.events } }
    /// The security findings so far, in order (each run of the checks reports each of its warnings).
    public var findings: [Finding] { state.withLock { $0.findings } }
    /// The changes of the security findings so far, in order.
    public var changes: [Change] { state.withLock { $0.changes } }

    /// Records a client event.
    ///
    /// - Parameter event: The event.
    public func clientEvent(_ event: ClientEvent) { state.withLock { $0.events.append(event) } }

    /// Records a finding.
    ///
    /// - Parameters:
    ///   - warning: The warning.
    ///   - stage: Where the checks ran.
    public func securityWarningFound(_ warning: Warning, stage: SecurityChecks.Stage) {
        state.withLock { $0.findings.append(Finding(warning: warning, stage: stage)) }
    }

    /// Records a change.
    ///
    /// - Parameters:
    ///   - warnings: The warnings now raised.
    ///   - previous: The warnings raised before.
    ///   - stage: Where the checks ran.
    public func securityWarningsChanged(_ warnings: [Warning], previous: [Warning], stage: SecurityChecks.Stage) {
        state.withLock { $0.changes.append(Change(warnings: warnings, previous: previous, stage: stage)) }
    }
}
