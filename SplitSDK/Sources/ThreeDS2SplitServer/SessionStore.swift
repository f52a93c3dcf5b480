import Foundation
import ThreeDS2JOSE

/// The sessions in memory: bounded in number, each expiring a while after its last use (on the server's clock),
/// found by id (merchant) or by the digest of a token (client). Tokens themselves are never kept.
actor SessionStore {
    /// What a token is.
    enum TokenKind: Sendable {
        /// The merchant's one-time token, spent at `start`.
        case merchant
        /// The client token `start` gave.
        case client
    }

    private struct Entry {
        let session: SplitSession
        var lastUse: Duration
    }

    private var sessions: [String: Entry] = [:]
    private var tokens: [String: (session: String, kind: TokenKind)] = [:]
    private var spent: [String: String] = [:]
    let capacity: Int
    let lifetime: Duration
    let clock: ServerClock

    init(capacity: Int, lifetime: Duration, clock: ServerClock) {
        self.capacity = capacity
        self.lifetime = lifetime
        self.clock = clock
    }

    /// Adds a session with its merchant token; `nil` when the store is full.
    func add(_ session: SplitSession, merchantToken: String) async -> Bool {
        await expire()
        guard sessions.count < capacity else { return false }
        sessions[session.id] = Entry(session: session, lastUse: clock.elapsed())
        tokens[Secrets.digest(merchantToken)] = (session.id, .merchant)
        return true
    }

    /// The session of an id.
    func session(id: String) async -> SplitSession? {
        await expire()
        guard var entry = sessions[id] else { return nil }
        entry.lastUse = clock.elapsed()
        sessions[id] = entry
        return entry.session
    }

    /// The session a token opens, and what kind of token it is; throws 409 for a spent merchant token, 401 for any
    /// other unknown token.
    func session(token: String) async throws(SplitHTTPError) -> (SplitSession, TokenKind) {
        await expire()
        let digest = Secrets.digest(token)
        if spent[digest] != nil { throw .conflict("this client token was exchanged already") }
        guard let entry = tokens[digest], let session = await session(id: entry.session) else {
            throw .unauthorized("unknown token")
        }
        return (session, entry.kind)
    }

    /// Spends a merchant token and registers the client token given for it.
    func exchange(merchantToken: String, for clientToken: String, session id: String) {
        let digest = Secrets.digest(merchantToken)
        tokens[digest] = nil
        spent[digest] = id
        tokens[Secrets.digest(clientToken)] = (id, .client)
    }

    /// Removes the sessions unused for longer than the lifetime, ending their challenges.
    private func expire() async {
        let now = clock.elapsed()
        let old = sessions.filter { now - $0.value.lastUse > lifetime }
        for (id, entry) in old {
            sessions[id] = nil
            tokens = tokens.filter { $0.value.session != id }
            spent = spent.filter { $0.value != id }
            await entry.session.cancel()
        }
    }

    /// Ends every session's task and wakes every call waiting on one (the server is stopping: a long-poll on the
    /// server's clock must not hold the listener's shutdown, least of all on a test clock nobody advances).
    /// The HTML page with this one-time ID, from whichever session holds it (served once).
    func page(_ id: String) async -> String? {
        for entry in sessions.values {
            if let document = await entry.session.link.takePage(id) { return document }
        }
        return nil
    }

    func closeAll() async {
        for entry in sessions.values { await entry.session.cancel() }
    }

    /// Everything the store holds, as text: what a test searches for data that must never be here.
    func dump() async -> String {
        var lines: [String] = []
        for (id, entry) in sessions {
            let session = entry.session
            let status = await session.status()
            let parameters = (try? await session.parameters())?.serialized ?? ""
            let step = await session.link.dump()
            lines.append("\(id) \(status.serialized) \(parameters) \(step)")
        }
        lines += tokens.keys.sorted() + spent.keys.sorted()
        return lines.joined(separator: "\n")
    }
}
