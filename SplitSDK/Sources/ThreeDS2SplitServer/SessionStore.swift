import Foundation
import HTTPTypes
import Logging
import ThreeDS2JOSE

/// The sessions: their records in the store (this process's memory, or PostgreSQL shared by several instances), and
/// the sessions this instance runs. A session is run by one instance at a time, its owner: a call that reaches
/// another instance is forwarded to the owner (``Route/forward(_:)``), and when the owner cannot be reached the
/// instance takes the session over (``takeOver(_:)``, a compare-and-swap on the record's version) and goes on from
/// the record. Tokens are kept as digests only.
actor SessionStore {
    /// What a token is.
    enum TokenKind: Sendable, Hashable {
        /// The merchant's one-time token, spent at `start`.
        case merchant
        /// The client token `start` gave.
        case client
    }

    /// Where a call for a session is answered.
    enum Route: Sendable {
        /// Here: this instance runs the session.
        case local(SplitSession)
        /// By the instance at this address, which runs the session with this ID (as the record said: its owner and
        /// version, what a takeover must still find).
        case forward(URL, session: String, seen: Seen)
    }

    /// The owner and version of a record as a call saw it.
    struct Seen: Sendable, Hashable {
        let owner: String
        let version: Int
    }

    /// This instance's ID in the records (new at every start: a restarted process owns nothing).
    let instance = Secrets.token(prefix: "in_")
    /// Where the other instances reach this one.
    private let reachedAt: LockedURL
    private var address: String { reachedAt.value?.absoluteString ?? "" }
    private var live: [String: SplitSession] = [:]
    /// Sessions being restored here, by ID.
    private var restoring: [String: Task<SplitSession, any Error>] = [:]
    let records: any SessionRecords
    let capacity: Int
    let lifetime: Duration
    private let context: ServerContext

    init(records: any SessionRecords, context: ServerContext, address: LockedURL) {
        self.records = records
        reachedAt = address
        capacity = context.configuration.maxSessions
        lifetime = context.configuration.sessionLifetime
        self.context = context
    }

    /// How a session of this instance writes its state: a compare-and-swap on its version.
    nonisolated func writer(for id: String) -> @Sendable (JSONObject, Int) async -> Bool {
        { [weak self] data, version in await self?.write(id, data, version: version) ?? false }
    }

    private func write(_ id: String, _ data: JSONObject, version: Int) async -> Bool {
        let record = SessionRecord(id: id, owner: instance, ownerAddress: address, version: version, data: data)
        // A store that fails is asked again, twice; a write another instance's came before is refused at once.
        for attempt in 0..<3 {
            do {
                return try await records.update(record)
            } catch {
                context.logger.error("the session store refused a write", metadata: ["session": "\(id)"])
                if attempt < 2 { try? await Task.sleep(for: .milliseconds(100 << attempt)) }
            }
        }
        return false
    }

    /// Adds a new session run here, with its merchant token; `false` when the store is full.
    func add(_ session: SplitSession, merchantToken: String) async throws(SplitHTTPError) -> Bool {
        await expire()
        let record = SessionRecord(
            id: session.id, owner: instance, ownerAddress: address, version: 0, data: await session.snapshot())
        guard
            try await call({
                try await records.insert(record, merchantToken: Secrets.digest(merchantToken), capacity: capacity)
            })
        else { return false }
        live[session.id] = session
        return true
    }

    /// Where the session with this ID is answered; `forwarded` when the call came from another instance (it is then
    /// never forwarded again: a session this instance does not run is misdirected here, `421`).
    func route(id: String, forwarded: Bool) async throws(SplitHTTPError) -> Route {
        await expire()
        guard let record = try await call({ try await records.record(id: id) }) else {
            await live.removeValue(forKey: id)?.abandon()
            throw .notFound("no such session")
        }
        if record.owner == instance {
            if let session = live[id], await !session.isLost { return .local(session) }
            return .local(try await run(record))
        }
        await live.removeValue(forKey: id)?.abandon()
        guard !forwarded else { throw SplitHTTPError(.misdirectedRequest, "owner", "another instance runs it") }
        let seen = Seen(owner: record.owner, version: record.version)
        guard let url = URL(string: record.ownerAddress), !record.ownerAddress.isEmpty else {
            throw .internalError("the session's owner has no address")
        }
        return .forward(url, session: id, seen: seen)
    }

    /// The session a token opens and what kind of token it is; throws 409 for a spent merchant token, 401 for any
    /// other unknown token.
    func route(token: String, forwarded: Bool) async throws(SplitHTTPError) -> (Route, TokenKind) {
        switch try await call({ try await records.token(Secrets.digest(token)) }) {
        case .spent?: throw .conflict("this client token was exchanged already")
        case .valid(let session, let kind)?:
            do {
                return (try await route(id: session, forwarded: forwarded), kind)
            } catch let error where error.status == .notFound {
                throw .unauthorized("unknown token")
            }
        case nil: throw .unauthorized("unknown token")
        }
    }

    /// Takes over a session whose owner cannot be reached (or says it does not run it), if its record is still as
    /// the call saw it: this instance becomes its owner and goes on from the record. `nil` when the record changed
    /// (another instance wrote first: the call is routed again).
    func takeOver(_ id: String, seen: Seen) async throws(SplitHTTPError) -> SplitSession? {
        guard var record = try await call({ try await records.record(id: id) }) else {
            throw .notFound("no such session")
        }
        guard record.owner == seen.owner, record.version == seen.version else { return nil }
        record.owner = instance
        record.ownerAddress = address
        record.version += 1
        guard try await call({ try await records.update(record) }) else { return nil }
        context.logger.notice("session taken over", metadata: ["session": "\(id)"])
        return try await run(record)
    }

    /// Runs a recorded session here (its challenge goes on from the record); a second call for the same session
    /// meanwhile waits for the first one's.
    private func run(_ record: SessionRecord) async throws(SplitHTTPError) -> SplitSession {
        if let restoring = restoring[record.id] { return try await Self.value(of: restoring) }
        let context = self.context
        let writer = self.writer(for: record.id)
        let task = Task { () throws -> SplitSession in
            let session = try await SplitSession.restore(record, context: context, write: writer)
            await session.resumeChallenge(context: context)
            if await session.state == .challenging {
                // The call that took the session over is answered once the challenge waits for the client again.
                let link = session.link
                _ = await context.clock.first(within: ServerContext.longPoll) { () -> Bool? in
                    await link.awaitSettled()
                    return true
                }
            }
            return session
        }
        restoring[record.id] = task
        defer { restoring[record.id] = nil }
        let session = try await Self.value(of: task)
        live[record.id] = session
        return session
    }

    private static func value(of task: Task<SplitSession, any Error>) async throws(SplitHTTPError) -> SplitSession {
        do {
            return try await task.value
        } catch let error as SplitHTTPError {
            throw error
        } catch {
            throw .internalError("a stored session could not be run")
        }
    }

    /// Spends a merchant token and registers the client token given for it.
    func exchange(merchantToken: String, for clientToken: String, session id: String) async throws(SplitHTTPError) {
        try await call({
            try await records.exchange(
                merchantToken: Secrets.digest(merchantToken), clientToken: Secrets.digest(clientToken), session: id)
        })
    }

    /// Removes the sessions unused for longer than the lifetime, ending their challenges here.
    private func expire() async {
        guard let old = try? await records.expire(lifetime: lifetime) else { return }
        for id in old {
            await live.removeValue(forKey: id)?.cancel()
        }
    }

    /// The HTML page with this one-time ID, from the session that holds it (served once).
    func page(_ id: String, session: SplitSession) async -> String? {
        await session.link.takePage(id)
    }

    /// Ends every session's task and wakes every call waiting on one (the server is stopping: a long-poll on the
    /// server's clock must not hold the listener's shutdown, least of all on a test clock nobody advances).
    func closeAll() async {
        for session in live.values { await session.cancel() }
    }

    /// Stops as a killed process stops: every session's task ends here and nothing more is written or sent (the
    /// records stay as they were, for another instance to take over). For the tests of a lost instance.
    func abandonAll() async {
        for session in live.values { await session.abandon() }
        live = [:]
    }

    /// Everything the store holds, as text: what a test searches for data that must never be here.
    func dump() async -> String {
        var lines = (try? await records.dump()) ?? []
        for session in live.values { lines.append(await session.link.dump()) }
        return lines.joined(separator: "\n")
    }

    /// A store call; its failure is the server's (503), never a crash.
    private func call<T>(_ body: () async throws -> T) async throws(SplitHTTPError) -> T {
        do {
            return try await body()
        } catch {
            context.logger.error("the session store failed: \(String(describing: type(of: error)))")
            // The database's own words (its message and the statement, never a bound value), for whoever runs it.
            context.logger.debug("the session store's error: \(String(reflecting: error))")
            throw SplitHTTPError(.serviceUnavailable, "store", "the session store is not available")
        }
    }
}
