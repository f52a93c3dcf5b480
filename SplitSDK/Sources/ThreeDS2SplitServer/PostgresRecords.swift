import Foundation
import Logging
import NIOCore
import PostgresNIO
import ThreeDS2JOSE

/// The records in PostgreSQL, shared by every instance: two unlogged tables (nothing of them in the write-ahead log
/// or a replica; a database crash empties them, as a restart empties the memory store), the state sealed
/// (``StateSeal``), tokens by digest only. Every write of a session is a compare-and-swap on its version.
final class PostgresRecords: SessionRecords {
    let client: PostgresClient
    let seal: StateSeal
    private let logger: Logger
    private let running: Task<Void, Never>

    /// A pool of connections to the database, running until ``close()``; ``prepare()`` creates the tables.
    init(_ store: SplitPostgresStore, logger: Logger) {
        let configuration = PostgresClient.Configuration(
            host: store.host, port: store.port, username: store.username, password: store.password,
            database: store.database, tls: .disable)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        seal = StateSeal(key: store.sealingKey)
        self.logger = logger
        running = Task { await client.run() }
    }

    /// Creates the tables when they are missing (every instance at its start; the statements are idempotent).
    func prepare() async throws {
        try await Self.createTables(client, logger: logger)
    }

    private static func createTables(_ client: PostgresClient, logger: Logger) async throws {
        try await client.query(
            """
            CREATE UNLOGGED TABLE IF NOT EXISTS threeds_split_sessions (
                id text PRIMARY KEY, owner text NOT NULL, owner_address text NOT NULL, version bigint NOT NULL,
                state bytea NOT NULL, last_use timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        try await client.query(
            """
            CREATE UNLOGGED TABLE IF NOT EXISTS threeds_split_tokens (
                digest text PRIMARY KEY,
                session text NOT NULL REFERENCES threeds_split_sessions (id) ON DELETE CASCADE,
                kind text NOT NULL)
            """, logger: logger)
    }

    /// Stops the pool.
    func close() { running.cancel() }

    func insert(_ record: SessionRecord, merchantToken digest: String, capacity: Int) async throws -> Bool {
        let state = ByteBuffer(bytes: try seal.seal(record))
        let inserted = try await client.query(
            """
            INSERT INTO threeds_split_sessions (id, owner, owner_address, version, state)
            SELECT \(record.id), \(record.owner), \(record.ownerAddress), \(record.version), \(state)
            WHERE (SELECT count(*) FROM threeds_split_sessions) < \(capacity)
            RETURNING id
            """, logger: logger
        ).collect()
        guard !inserted.isEmpty else { return false }
        try await client.query(
            "INSERT INTO threeds_split_tokens (digest, session, kind) VALUES (\(digest), \(record.id), 'merchant')",
            logger: logger)
        return true
    }

    func record(id: String) async throws -> SessionRecord? {
        let rows = try await client.query(
            """
            UPDATE threeds_split_sessions SET last_use = now() WHERE id = \(id)
            RETURNING owner, owner_address, version, state
            """, logger: logger)
        for try await (owner, address, version, state) in rows.decode((String, String, Int, ByteBuffer).self) {
            var record = SessionRecord(id: id, owner: owner, ownerAddress: address, version: version, data: [:])
            record.data = try seal.open(Array(buffer: state), of: record)
            return record
        }
        return nil
    }

    func token(_ digest: String) async throws -> TokenRecord? {
        let rows = try await client.query(
            "SELECT session, kind FROM threeds_split_tokens WHERE digest = \(digest)", logger: logger)
        for try await (session, kind) in rows.decode((String, String).self) {
            switch kind {
            case "merchant": return .valid(session: session, kind: .merchant)
            case "client": return .valid(session: session, kind: .client)
            default: return .spent
            }
        }
        return nil
    }

    func exchange(merchantToken: String, clientToken: String, session: String) async throws {
        try await client.query(
            "UPDATE threeds_split_tokens SET kind = 'spent' WHERE digest = \(merchantToken)", logger: logger)
        try await client.query(
            "INSERT INTO threeds_split_tokens (digest, session, kind) VALUES (\(clientToken), \(session), 'client')",
            logger: logger)
    }

    func update(_ record: SessionRecord) async throws -> Bool {
        let state = ByteBuffer(bytes: try seal.seal(record))
        let rows = try await client.query(
            """
            UPDATE threeds_split_sessions
            SET owner = \(record.owner), owner_address = \(record.ownerAddress), version = \(record.version),
                state = \(state), last_use = now()
            WHERE id = \(record.id) AND version = \(record.version - 1)
            RETURNING id
            """, logger: logger
        ).collect()
        return !rows.isEmpty
    }

    func expire(lifetime: Duration) async throws -> [String] {
        let seconds = Int(lifetime.components.seconds)
        let rows = try await client.query(
            """
            DELETE FROM threeds_split_sessions WHERE last_use < now() - make_interval(secs => \(seconds))
            RETURNING id
            """, logger: logger)
        var removed: [String] = []
        for try await id in rows.decode(String.self) { removed.append(id) }
        return removed
    }

    func dump() async throws -> [String] {
        var lines: [String] = []
        let rows = try await client.query(
            "SELECT id, owner, owner_address, state FROM threeds_split_sessions", logger: logger)
        for try await (id, owner, address, state) in rows.decode((String, String, String, ByteBuffer).self) {
            // As stored: sealed bytes, which a search for challenge data must not find.
            lines.append("\(id) \(owner) \(address) \(String(decoding: Array(buffer: state), as: UTF8.self))")
        }
        let tokens = try await client.query("SELECT digest, kind FROM threeds_split_tokens", logger: logger)
        for try await (digest, kind) in tokens.decode((String, String).self) { lines.append("\(digest) \(kind)") }
        return lines
    }

    func storedBytes() async throws -> Int {
        let rows = try await client.query(
            """
            SELECT (SELECT coalesce(sum(octet_length(state) + octet_length(id) + octet_length(owner)
                        + octet_length(owner_address) + 16), 0) FROM threeds_split_sessions)
                 + (SELECT coalesce(sum(octet_length(digest) + octet_length(session) + octet_length(kind)), 0)
                        FROM threeds_split_tokens)
            """, logger: logger)
        for try await total in rows.decode(Int.self) { return total }
        return 0
    }
}
