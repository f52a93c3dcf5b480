public import Crypto
public import Foundation
import ThreeDS2JOSE

/// Where the server keeps its sessions: in its own memory (one instance, the default), or in PostgreSQL, shared by
/// several instances behind one load balancer (docs/split-sdk.md, "More than one server").
public enum SplitSessionStore: Sendable {
    /// In this process only.
    case memory
    /// In a PostgreSQL database that every instance of the merchant's server uses.
    case postgres(SplitPostgresStore)
}

/// A PostgreSQL store shared by several instances.
public struct SplitPostgresStore: Sendable {
    /// The server's host name or address.
    public var host: String
    /// Its port.
    public var port: Int
    /// The role the server logs in as.
    public var username: String
    /// Its password.
    public var password: String
    /// The database (the server creates its two tables there, unlogged, if they do not exist).
    public var database: String
    /// The key every instance seals a session's state with before it reaches the database (AES-GCM, bound to the
    /// session's ID): the database holds no readable challenge data.
    public var sealingKey: SymmetricKey
    /// Where the other instances reach this one (its internal address; a call for a session it owns is forwarded
    /// there). `nil`: the address the server listens on.
    public var instanceAddress: URL?

    /// A store.
    ///
    /// - Parameters:
    ///   - host: The server's host.
    ///   - port: Its port.
    ///   - username: The role.
    ///   - password: Its password.
    ///   - database: The database.
    ///   - sealingKey: The key shared by every instance (256 bits).
    ///   - instanceAddress: This instance's internal address.
    public init(
        host: String, port: Int = 5432, username: String, password: String, database: String, sealingKey: SymmetricKey,
        instanceAddress: URL? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.sealingKey = sealingKey
        self.instanceAddress = instanceAddress
    }
}

/// A session as the store keeps it: who runs it, a version for compare-and-swap, and its state.
struct SessionRecord: Sendable, Hashable {
    /// The session's ID.
    let id: String
    /// The ID of the instance that runs it.
    var owner: String
    /// Where that instance is reached.
    var ownerAddress: String
    /// Incremented by every write; a write names the version it read.
    var version: Int
    /// The session's state, everything an instance needs to run it (``SplitSession/snapshot()``).
    var data: JSONObject
}

/// What the store answers for a token's digest.
enum TokenRecord: Sendable, Hashable {
    /// A token of this kind for this session.
    case valid(session: String, kind: SessionStore.TokenKind)
    /// A merchant token already exchanged for a client token.
    case spent
}

/// The records of the sessions, where every instance finds them.
protocol SessionRecords: Sendable {
    /// Adds a session and its merchant token's digest; `false` when `capacity` sessions are kept already.
    func insert(_ record: SessionRecord, merchantToken digest: String, capacity: Int) async throws -> Bool
    /// The record of a session, and marks it used.
    func record(id: String) async throws -> SessionRecord?
    /// What a token's digest is.
    func token(_ digest: String) async throws -> TokenRecord?
    /// Spends a merchant token and registers the client token given for it.
    func exchange(merchantToken: String, clientToken: String, session: String) async throws
    /// Writes `record` when the stored version is `record.version - 1` (compare-and-swap); `false` when another write
    /// came first.
    func update(_ record: SessionRecord) async throws -> Bool
    /// Removes the sessions unused for longer than `lifetime`; returns their IDs.
    func expire(lifetime: Duration) async throws -> [String]
    /// The bytes the store holds for every session (what a test searches, and the benchmark's figure).
    func dump() async throws -> [String]
    /// The bytes the store holds: every session's state as stored, its row's other columns and its tokens' digests.
    func storedBytes() async throws -> Int
    /// Readies the store (the database's tables).
    func prepare() async throws
    /// Lets the store go (the database's connections).
    func close()
}

extension SessionRecords {
    func prepare() async throws {}
    nonisolated func close() {}
}

/// The records in this process's memory: one instance.
actor MemoryRecords: SessionRecords {
    private var records: [String: (record: SessionRecord, lastUse: Duration)] = [:]
    private var tokens: [String: TokenRecord] = [:]
    /// The session of each spent token (the token goes with its session).
    private var spentFor: [String: String] = [:]
    /// The server's clock (a test clock in tests): what a session's last use is measured on.
    private let now: @Sendable () -> Duration

    init(now: @escaping @Sendable () -> Duration) { self.now = now }

    func insert(_ record: SessionRecord, merchantToken digest: String, capacity: Int) -> Bool {
        guard records.count < capacity else { return false }
        records[record.id] = (record, now())
        tokens[digest] = .valid(session: record.id, kind: .merchant)
        return true
    }

    func record(id: String) -> SessionRecord? {
        guard let entry = records[id] else { return nil }
        records[id]?.lastUse = now()
        return entry.record
    }

    func token(_ digest: String) -> TokenRecord? { tokens[digest] }

    func exchange(merchantToken: String, clientToken: String, session: String) {
        tokens[merchantToken] = .spent
        spentFor[merchantToken] = session
        tokens[clientToken] = .valid(session: session, kind: .client)
    }

    func update(_ record: SessionRecord) -> Bool {
        guard let stored = records[record.id], stored.record.version == record.version - 1 else { return false }
        records[record.id] = (record, now())
        return true
    }

    func expire(lifetime: Duration) -> [String] {
        let now = self.now()
        let old = records.filter { now - $0.value.lastUse > lifetime }.map(\.key)
        for id in old { records[id] = nil }
        tokens = tokens.filter { digest, token in
            switch token {
            case .valid(let session, _): records[session] != nil
            case .spent: spentFor[digest].map { records[$0] != nil } ?? false
            }
        }
        spentFor = spentFor.filter { records[$0.value] != nil }
        return old
    }

    func dump() -> [String] {
        records.values.map { $0.record.data.serialized } + tokens.keys.sorted()
    }

    func storedBytes() -> Int {
        records.values.reduce(0) { total, entry in
            let record = entry.record
            return total + record.data.serializedBytes.count + record.id.utf8.count + record.owner.utf8.count
                + record.ownerAddress.utf8.count + 8
        } + tokens.keys.reduce(0) { $0 + $1.utf8.count + 8 }
    }
}

/// Seals a session's state for a shared store: AES-GCM under the instances' key, with the row's other columns (the
/// session's ID, its owner, the owner's address and the version) as the authenticated data: a state copied to another
/// row, an old state written back, or an owner's address changed by whoever can write to the database does not open.
struct StateSeal: Sendable {
    let key: SymmetricKey

    func seal(_ record: SessionRecord) throws -> [UInt8] {
        let box = try AES.GCM.seal(record.data.serializedBytes, using: key, authenticating: Self.context(record))
        guard let combined = box.combined else { throw SplitServerError("the state could not be sealed") }
        return Array(combined)
    }

    /// The state of `record` (whose `data` is ignored) from its sealed bytes.
    func open(_ bytes: [UInt8], of record: SessionRecord) throws -> JSONObject {
        let box = try AES.GCM.SealedBox(combined: bytes)
        let plain = try AES.GCM.open(box, using: key, authenticating: Self.context(record))
        guard case .object(let object) = try JSONParser().parse(Array(plain)) else {
            throw SplitServerError("a stored state is not a JSON object")
        }
        return object
    }

    private static func context(_ record: SessionRecord) -> [UInt8] {
        Array("\(record.id)\n\(record.owner)\n\(record.ownerAddress)\n\(record.version)".utf8)
    }
}

extension JSONValue {
    /// A number's text as parsed (`nil` for any other value).
    var numberText: String? {
        if case .number(let text) = self { return text }
        return nil
    }
}
