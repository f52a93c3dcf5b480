import Clocks
import Testing
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// The phase's name, without its keys.
private func name(_ transaction: Transaction) -> String {
    switch transaction.state.withLock({ $0.phase }) {
    case .open(let keys): keys.parameters == nil ? "open" : "open with parameters"
    case .challenging(_, let task): task == nil ? "challenging" : "challenging with a task"
    case .closed: "closed"
    }
}

/// A transaction's life as one value (issue 35, point 6): open, challenging (once), closed.
@Suite("Transaction phase", .timeLimit(.minutes(5)))
struct TransactionPhaseTests {
    @Test("open, open with the AReq parameters, challenging with its task, closed: and never back")
    func forwardOnly() async throws {
        let challenge = try ScriptedChallenge()
        let transaction = challenge.transaction
        #expect(name(transaction) == "open with parameters", "ScriptedChallenge built the parameters")
        // The ACS answers the cancel CReq that closing sends with its final CRes.
        let (task, _) = await challenge.onScreen(transport: challenge.transport { _ in challenge.final("N") })
        #expect(name(transaction) == "challenging with a task")
        // A transaction runs one challenge.
        await #expect(throws: ThreeDS2Error.self) {
            _ = try await transaction.challenge(
                challenge.parameters, presenter: IdlePresenter(), timeout: .seconds(300),
                transport: FailingTransport(), clock: TestClock())
        }
        #expect(name(transaction) == "challenging with a task")
        transaction.close()
        #expect(name(transaction) == "closed" && transaction.isClosed)
        #expect(try await task.value == .cancelled, "closing cancels the running challenge")
        #expect(throws: ThreeDS2Error.self) { _ = try transaction.getAuthenticationRequestParameters() }
        #expect(name(transaction) == "closed")
    }

    @Test("a fresh transaction is open without parameters; closing it twice reports one close")
    func closeOnce() throws {
        let listener = RecordingEventListener()
        let service = ThreeDS2Service(clientEventListener: listener, systemProbe: FakeSystemProbe.clean())
        try service.initialize(configParameters: try makeConfiguration(dataDirectory: scratchDirectory("phase")))
        let transaction = try service.createTransaction(directoryServerID: "A000000004")
        #expect(name(transaction) == "open" && !transaction.isClosed)
        transaction.close()
        transaction.close()
        let closes = listener.events.filter {
            if case .transactionClosed = $0 { return true }
            return false
        }
        #expect(closes.count == 1 && name(transaction) == "closed")
    }
}
