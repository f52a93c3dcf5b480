@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// The requests a test transport has seen, in order, with a way to wait for one that has not come yet: a test
/// awaits the request instead of polling or sleeping.
public final class RequestLog: Sendable {
    private struct State {
        var requests: [TransportRequest] = []
        var waiting: [(index: Int, continuation: CheckedContinuation<TransportRequest, Never>)] = []
    }

    private let state = Locked(State())

    /// Creates an empty log.
    public init() {}

    /// Every request so far, in order.
    public var requests: [TransportRequest] { state.withLock { $0.requests } }

    /// Appends a request and wakes whoever waits for it.
    ///
    /// - Parameter request: The request.
    public func append(_ request: TransportRequest) {
        let woken = state.withLock { state in
            state.requests.append(request)
            let count = state.requests.count
            let ready = state.waiting.filter { $0.index < count }
            state.waiting.removeAll { $0.index < count }
            return ready.map { ($0.continuation, state.requests[$0.index]) }
        }
        for (continuation, request) in woken { continuation.resume(returning: request) }
    }

    /// The request at `index` (0 for the first), once it has been made.
    ///
    /// - Parameter index: Its position.
    /// - Returns: The request.
    public func request(at index: Int) async -> TransportRequest {
        await withCheckedContinuation { continuation in
            let ready: TransportRequest? = state.withLock { state in
                if index < state.requests.count { return state.requests[index] }
                state.waiting.append((index, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
