@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A transport that answers from a script, without a network: for tests of anything that sends challenge messages
/// or fetches images through a `ChallengeTransport`. Every request is kept in ``log``.
public final class ScriptedTransport: ChallengeTransport {
    /// One scripted answer.
    public enum Reply: Sendable {
        /// This response.
        case respond(TransportResponse)
        /// This failure.
        case fail(TransportError)
        /// No answer at all, as a well-behaved adapter sees a silent ACS: the request waits until its task is
        /// cancelled (by a timer or by the app), failing as `TransportError/Code/cancelled`, or until the request's
        /// own deadline (`TransportRequest.timeout`, on the wall clock) passes, failing as
        /// `TransportError/Code/timedOut`, whichever comes first.
        case hang
        /// No answer ever, with the flaw the SDK's own timers guard against: the request ignores its deadline and
        /// its task's cancellation and never returns. A test of "the ACS never answers and the transport never gives
        /// up" uses it; the suspended request is left behind, as such an adapter would leave it.
        case neverReturn
    }

    /// The requests seen so far.
    public let log = RequestLog()
    private let answer: @Sendable (TransportRequest) async -> Reply
    /// The requests of ``Reply/neverReturn``, never resumed.
    private let abandoned = Locked<[UnsafeContinuation<Void, Never>]>([])

    /// A transport that asks `answer` for each request (it may suspend, for a test that decides when to answer).
    ///
    /// - Parameter answer: The reply to a request.
    public init(_ answer: @escaping @Sendable (TransportRequest) async -> Reply) {
        self.answer = answer
    }

    /// A transport that gives `replies` in order, one per request; a request after the last fails with
    /// `TransportError/Code/other`.
    ///
    /// - Parameter replies: The replies.
    public convenience init(replies: [Reply]) {
        let remaining = Locked(replies[...])
        self.init { request in
            remaining.withLock { $0.popFirst() }
                ?? .fail(TransportError(.other, "\(request.target): the script has no reply left"))
        }
    }

    /// Sends a request: records it and plays the scripted reply.
    ///
    /// - Parameter request: The request.
    /// - Returns: The scripted response.
    /// - Throws: The scripted `TransportError`.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        log.append(request)
        switch await answer(request) {
        case .respond(let response): return response
        case .fail(let error): throw error
        case .hang:
            return try await request.withinDeadline {
                await Self.untilCancelled()
                return .failure(TransportError(.cancelled, "\(request.target) was cancelled"))
            }
        case .neverReturn:
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                abandoned.withLock { $0.append(continuation) }
            }
            throw TransportError(.other, "\(request.target) returned, though it never should")
        }
    }

    /// Returns once the calling task is cancelled, without polling.
    static func untilCancelled() async {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        for await _ in stream {}
        continuation.finish()
    }
}

/// A transport that fails every request with the same error (a network that is down, a certificate that is not
/// trusted), and keeps every request in ``log``.
public struct FailingTransport: ChallengeTransport {
    /// What every request fails with.
    public let error: TransportError
    /// The requests seen so far.
    public let log = RequestLog()

    /// Creates the transport.
    ///
    /// - Parameter error: What every request fails with.
    public init(_ error: TransportError = TransportError(.connectionFailed, "connection refused (test)")) {
        self.error = error
    }

    /// Records the request and fails.
    ///
    /// - Parameter request: The request.
    /// - Returns: Never.
    /// - Throws: ``error``.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        log.append(request)
        throw error
    }
}

/// A transport that passes every request to another one and keeps what went out and what came back: for tests that
/// check the messages an SDK sends over a real adapter.
public final class RecordingTransport: ChallengeTransport {
    /// The requests seen so far.
    public let log = RequestLog()
    private let base: any ChallengeTransport
    private let results = Locked<[Result<TransportResponse, TransportError>]>([])

    /// Wraps a transport.
    ///
    /// - Parameter base: The transport that does the work.
    public init(_ base: any ChallengeTransport) {
        self.base = base
    }

    /// What each finished request gave, in the order they finished.
    public var outcomes: [Result<TransportResponse, TransportError>] { results.withLock { $0 } }

    /// Records the request, sends it through the wrapped transport, and records what came back.
    ///
    /// - Parameter request: The request.
    /// - Returns: The wrapped transport's response.
    /// - Throws: The wrapped transport's `TransportError`.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        log.append(request)
        let result: Result<TransportResponse, TransportError>
        do throws(TransportError) {
            result = .success(try await base.send(request))
        } catch {
            result = .failure(error)
        }
        results.withLock { $0.append(result) }
        return try result.get()
    }
}
