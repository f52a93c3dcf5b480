import Clocks
import Foundation
import Testing
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one-call API's timing rules (issue 35, point 8), on a test clock with no network.
@Suite("authenticate: the challenge timeout checked first, the indicator's minimum only before a challenge")
struct AuthenticateBehaviourTests {
    func service() throws -> ThreeDS2Service {
        try DirectoryServerPKI.make().initializedService(dataDirectory: scratchDirectory("authenticate"))
    }

    @Test("a challenge timeout under five minutes is refused before the backend is asked")
    func shortTimeoutRefusedFirst() async throws {
        let asked = Locked(false)
        let service = try service()
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", presenter: IdlePresenter(), challengeTimeout: .seconds(60),
            transport: FailingTransport(), clock: TestClock()
        ) { _ in
            asked.withLock { $0 = true }
            return .frictionless(transStatus: .authenticated)
        }
        guard case .failed(let error) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(error.code == .invalidInput && error.message.contains("at least 5 minutes"), "\(error)")
        #expect(!asked.withLock { $0 }, "nothing may be sent with a timeout the challenge would refuse")
    }

    // Were the minimum kept, this would wait forever on the clock nobody advances: the limit turns that into a failure.
    @Test("a frictionless answer hides the indicator at once: no two-second wait on the clock", .timeLimit(.minutes(1)))
    func frictionlessHidesAtOnce() async throws {
        let indicator = RecordingProgressIndicator()
        let clock = TestClock()
        // The clock is never advanced: a two-second minimum would never end.
        let service = try service()
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", presenter: IdlePresenter(), progress: indicator,
            transport: FailingTransport(), clock: clock
        ) { _ in .frictionless(transStatus: .notAuthenticated) }
        guard case .frictionless(let status) = outcome else {
            Issue.record("expected frictionless, got \(outcome)")
            return
        }
        #expect(status == .notAuthenticated)
        #expect(
            indicator.events == [.show(ProcessingScheme(directoryServerID: "A000000004", name: "Test Scheme")), .hide])
    }

    @Test("before a challenge the indicator stays its two seconds (stop keeps the minimum by default)")
    func minimumBeforeChallenge() async throws {
        let indicator = RecordingProgressIndicator()
        let clock = TestClock()
        let dialog = ProgressDialog(indicator: indicator, clock: clock, scheme: nil)
        await dialog.start()
        let stopped = Task { await dialog.stop() }
        await clock.advance(by: .seconds(1))
        #expect(indicator.events == [.show(nil)])
        await clock.advance(by: .seconds(1))
        await stopped.value
        #expect(indicator.events == [.show(nil), .hide])
    }
}

@Suite("URLSessionTransport's idle timer never ends the wait before the deadline")
struct URLSessionDeadlineTests {
    @Test("a 9.98-second remaining wait gives URLSession a backstop past it, even truncated to whole seconds")
    func fractionalTimeout() {
        let request = TransportRequest(
            method: .post, url: URL(string: "https://acs.example/challenge")!, timeout: .milliseconds(9_980),
            maxResponseBytes: 1024)
        let interval = URLSessionTransport.convert(request).timeoutInterval
        #expect(interval.rounded(.down) > 9.98, "FoundationNetworking truncates: the backstop must pass the deadline")
    }
}
