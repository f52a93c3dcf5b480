import Foundation
import ThreeDS2JOSE
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

/// The meeting point of one session's challenge (the core's session, on the server) and its client (HTTP calls):
/// the session publishes each step and waits for the client's input that answers it; each client call hands its
/// input over and takes the next step, waiting at most the long-poll bound for one.
actor ClientLink {
    /// What the session waits for.
    enum Expected: Sendable, Hashable {
        /// A `next` after the `keys` step: the client derived the channel keys.
        case keysDerived
        /// An `answer` to this screen.
        case answer(screen: Int)
        /// A `creq` of this exchange.
        case creq(exchange: Int)
        /// A `cres` of this exchange.
        case cres(exchange: Int)
    }

    /// What the client sent.
    enum Input: Sendable {
        case next
        case answer(screen: Int, action: ClientAction)
        case creq(exchange: Int, jwe: [UInt8])
        case cres(exchange: Int, RemoteOpening)

        var answers: Expected? {
            switch self {
            case .next: .keysDerived
            case .answer(let screen, _): .answer(screen: screen)
            case .creq(let exchange, _): .creq(exchange: exchange)
            case .cres(let exchange, _): .cres(exchange: exchange)
            }
        }
    }

    private var step: JSONObject = ["step": .string("wait")]
    private var sequence = 0
    private var delivered = 0
    /// Whether the client has been handed the `keys` step (only then does a `next` say it derived the keys).
    private var keysHandedOut = false
    /// Whether a `next` after the `keys` step came before the session waited for it.
    private var keysAcknowledged = false
    private var pending: (expected: Expected, continuation: CheckedContinuation<Input?, Never>)?
    private var watchers: [UUID: CheckedContinuation<Void, Never>] = [:]
    /// Whether the client's host opens the bank's app (the Shell variant): its forms then offer the open-app button.
    let opensApps: Bool
    /// The form on show, for the `fill` of the next CReq.
    private(set) var form: ChallengeFormState?
    private(set) var screen = 0
    private(set) var exchange = 0

    /// The session's ID: an HTML page's address names it, so that any instance forwards the page's call to the one
    /// that holds the page.
    let session: String
    /// Whether the next screen is one the client may have already (a session taken over at a screen shows it again
    /// under the same number).
    private var resumedScreen = false
    /// Told each screen's number as it goes up (the session keeps it in its checkpoint: a screen shown again with a
    /// note has the next number).
    private var onPresent: (@Sendable (Int) async -> Void)?

    /// Sets what is told each screen's number.
    func onPresent(_ body: @escaping @Sendable (Int) async -> Void) { onPresent = body }
    /// Whether the link was closed: no input is awaited any more.
    private var closed = false
    /// Calls waiting for the session to wait for the client (``awaitSettled()``).
    private var settleWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// A link; `resumingAt` numbers the screen shown again and the exchanges after a takeover.
    init(opensApps: Bool = false, session: String = "", resumingAt numbers: (screen: Int, exchange: Int)? = nil) {
        self.opensApps = opensApps
        self.session = session
        if let numbers {
            screen = numbers.screen - 1
            exchange = numbers.exchange
            resumedScreen = true
            keysHandedOut = true
            keysAcknowledged = true
        }
    }

    // MARK: The session's side

    /// Makes `step` the client's next step and wakes every call waiting for one.
    func publish(_ step: JSONObject) {
        sequence += 1
        self.step = step
        if step["step"] == .string("finished") { wakeSettled() }
        let waiting = watchers
        watchers = [:]
        for continuation in waiting.values { continuation.resume() }
    }

    /// The HTML page of the screen on show, by its one-time ID, until the client loads it.
    private var page: (id: String, document: String)?

    /// Publishes a screen's `present` step and returns its number; an HTML screen's page waits at a one-time address.
    func present(_ form: ChallengeFormState) -> Int {
        screen += 1
        self.form = form
        var htmlPage: String?
        if form.screen.uiType.isHTML {
            let id = Secrets.token(prefix: "pg_")
            page = (id, FormJSON.htmlDocument(form.screen))
            htmlPage = "pages/\(session)/\(id)"
        } else {
            page = nil
        }
        publish([
            "step": .string("present"), "screen": .number("\(screen)"),
            "form": .object(FormJSON.form(form, opensApps: opensApps, htmlPage: htmlPage)),
        ])
        resumedScreen = false
        if let onPresent { Task { await onPresent(screen) } }
        return screen
    }

    /// Publishes the `openApp` step of the screen on show: the client's host opens the link, and the client answers the
    /// same screen with what became of it.
    func openApp(_ url: URL) {
        publish(["step": .string("openApp"), "screen": .number("\(screen)"), "url": .string(url.absoluteString)])
    }

    /// The HTML page with this one-time ID, once: the client's frame loads it, nothing loads it again.
    func takePage(_ id: String) -> String? {
        guard let page, Secrets.equal(page.id, id) else { return nil }
        self.page = nil
        return page.document
    }

    /// Starts the next CReq/CRes exchange and returns its number.
    func nextExchange() -> Int {
        exchange += 1
        return exchange
    }

    /// Waits for the client's input answering `expected`; `nil` when the waiting task is cancelled (a timer won).
    func input(_ expected: Expected) async -> Input? {
        if closed { return nil }
        if expected == .keysDerived, keysAcknowledged { return .next }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: nil)
                    return
                }
                pending?.continuation.resume(returning: nil)
                pending = (expected, continuation)
                wakeSettled()
            }
        } onCancel: {
            Task { await self.dropPending(expected) }
        }
    }

    private func dropPending(_ expected: Expected) {
        guard let waiting = pending, waiting.expected == expected else { return }
        pending = nil
        waiting.continuation.resume(returning: nil)
    }

    // MARK: The client's side

    /// Hands an input to the waiting session; a `next` that answers nothing is only a poll.
    func take(_ input: Input) throws(SplitHTTPError) {
        let early = isWaiting(for: .keysDerived) && !keysHandedOut
        guard let waiting = pending, waiting.expected == input.answers, !early else {
            if case .next = input, keysHandedOut { keysAcknowledged = true }
            if case .next = input { return }
            throw .conflict("this input answers no pending step")
        }
        pending = nil
        // An answer to the screen on show: the client has that screen, whether or not this link handed its step out
        // (a session taken over shows its screen again; the client answers the one it had).
        if case .answer(let answered, _) = input, step["step"] == .string("present"),
            step["screen"] == .number("\(answered)")
        {
            delivered = sequence
        }
        waiting.continuation.resume(returning: input)
    }

    /// The next step not yet handed out, waiting for one at most `bound` (then `wait`).
    func nextStep(within bound: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) async
        -> JSONObject
    {
        await awaitUndelivered(within: bound, sleep: sleep)
        return sequence > delivered ? handOut() : ["step": .string("wait")]
    }

    /// Waits at most `bound` for a step not yet handed out, without handing it out (the client's `status` watch while a
    /// screen is up: it must never take the step its `answer` or `next` will get).
    func awaitUndelivered(within bound: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) async {
        if sequence > delivered { return }
        let id = UUID()
        let timer = Task {
            try? await sleep(bound)
            self.wake(id)
        }
        await withCheckedContinuation { watchers[id] = $0 }
        timer.cancel()
    }

    private func handOut() -> JSONObject {
        delivered = sequence
        if step["step"] == .string("keys") { keysHandedOut = true }
        return step
    }

    private func isWaiting(for expected: Expected) -> Bool { pending?.expected == expected }

    private func wake(_ id: UUID) {
        watchers.removeValue(forKey: id)?.resume()
    }

    /// Whether a step is waiting to be handed out (the `finished` step of a session that ended between two calls).
    var hasUndelivered: Bool { sequence > delivered }

    /// The step held, as text (what a test searches).
    func dump() -> String { step.serialized }

    /// Ends the link: every waiting call returns.
    /// Returns once the session waits for the client's input, has ended, or the link closed: a session taken over
    /// answers the call that took it over only then (its input must find the wait it answers).
    func awaitSettled() async {
        if pending != nil || closed || step["step"] == .string("finished") { return }
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    settleWaiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.wakeSettled(id) }
        }
    }

    private func wakeSettled(_ id: UUID) { settleWaiters.removeValue(forKey: id)?.resume() }

    private func wakeSettled() {
        let waiting = settleWaiters
        settleWaiters = [:]
        for continuation in waiting.values { continuation.resume() }
    }

    func close() {
        closed = true
        wakeSettled()
        pending?.continuation.resume(returning: nil)
        pending = nil
        page = nil
        for continuation in watchers.values { continuation.resume() }
        watchers = [:]
    }
}
