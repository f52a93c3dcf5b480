import Crypto
public import Foundation
public import Hummingbird
public import Logging
import NIOCore
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2SplitServer) public import ThreeDS2SDK

/// Why the server cannot start: a configuration it refuses, or a missing web client folder.
public struct SplitServerError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String

    init(_ message: String) { self.message = message }

    /// What is wrong.
    public var description: String { message }
}

/// The Split-SDK Server (docs/split-sdk.md): the merchant interface, the client interface and the web client's
/// files, on one Hummingbird router, over the SDK's core. Its sessions live in memory.
public final class SplitServer: Sendable {
    let context: ServerContext
    let store: SessionStore
    let files: StaticFiles
    private let boundURL = LockedURL()
    /// Where the other instances reach this one: the configured internal address, else the bound address.
    let instanceAddress = LockedURL()

    /// Checks the configuration and reads the web client's files.
    ///
    /// - Parameters:
    ///   - configuration: The server's configuration.
    ///   - transport: How ACSs are reached (the AsyncHTTPClient transport in production).
    ///   - clock: Every timer's clock (a test clock in tests).
    ///   - logger: Where the server logs; never a token, a key, an entry or a message's content.
    /// - Throws: ``SplitServerError`` for a configuration it refuses or a missing web client folder.
    public init<C: Clock>(
        configuration: SplitServerConfiguration, transport: any ChallengeTransport, clock: C, logger: Logger
    ) throws(SplitServerError) where C.Duration == Duration {
        if let refusal = SplitVariants.refusal(of: configuration.variant, clientIsNative: configuration.clientIsNative)
        {
            throw SplitServerError(refusal)
        }
        guard Self.isOrigin(configuration.merchantOrigin) else {
            throw SplitServerError(
                "the merchant origin must be an origin (scheme://host or scheme://host:port, https or loopback http, "
                    + "no path), got \"\(configuration.merchantOrigin.prefix(80))\"")
        }
        guard configuration.merchantAPIKey.utf8.count >= 16 else {
            throw SplitServerError("the merchant API key must be at least 16 characters")
        }
        guard configuration.challengeTimeout >= Transaction.minimumChallengeTimeout else {
            throw SplitServerError("the challenge timeout must be at least 5 minutes")
        }
        var served: [String: ServedDirectoryServer] = [:]
        for entry in configuration.directoryServers {
            guard SplitSDKServerID(entry.splitSDKServerID) != nil else {
                throw SplitServerError("a Split-SDK Server ID is 1 to 32 printable ASCII characters")
            }
            do {
                let directoryServer = try SplitDirectoryServer(entry.directoryServer)
                served[directoryServer.id.rawValue] = ServedDirectoryServer(
                    directoryServer: directoryServer, entry: entry)
            } catch {
                throw SplitServerError("directory server \(entry.directoryServer.id): \(error.message)")
            }
        }
        let serverClock = ServerClock(clock)
        context = ServerContext(
            configuration: configuration, directoryServers: served, clock: serverClock, transport: transport,
            logger: logger)
        let records: any SessionRecords
        switch configuration.sessionStore {
        case .memory: records = MemoryRecords(now: serverClock.elapsed)
        case .postgres(let postgres):
            records = PostgresRecords(postgres, logger: logger)
            if let address = postgres.instanceAddress { instanceAddress.value = address }
        }
        store = SessionStore(records: records, context: context, address: instanceAddress)
        files = try StaticFiles.load(configuration.webClientFolder)
    }

    /// The router with both interfaces and the web client's files.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        let boundURL = self.boundURL
        let configured = context.configuration.publicBaseURL
        let base: @Sendable () -> URL = { configured ?? boundURL.value ?? URL(string: "http://127.0.0.1")! }
        var key: SymmetricKey?
        if case .postgres(let postgres) = context.configuration.sessionStore { key = postgres.sealingKey }
        let routing = SessionRouting(store: store, logger: context.logger, key: key)
        MerchantRoutes(context: context, store: store, routing: routing, baseURL: base).add(to: router)
        ClientRoutes(context: context, store: store, routing: routing, ownOrigin: { Self.origin(of: base()) }).add(
            to: router)
        files.add(to: router, merchantOrigin: context.configuration.merchantOrigin)
        return router
    }

    /// Tells the server the address it listens on (when no public base URL is configured).
    ///
    /// - Parameter url: `http(s)://host:port`.
    public func listening(at url: URL) {
        boundURL.value = url
        if instanceAddress.value == nil { instanceAddress.value = url }
    }

    /// Everything the server's stores hold, as text: for tests that search it for data that must never be there.
    public func storedState() async -> String { await store.dump() }

    /// The bytes the session store holds (every session's state as stored, its tokens' digests): with a shared store,
    /// what the database keeps; the benchmark's figure per session in flight.
    public func storedBytes() async -> Int { (try? await store.records.storedBytes()) ?? 0 }

    /// Whether the sessions are in a store shared with other instances (PostgreSQL).
    public var sharesSessions: Bool {
        if case .postgres = context.configuration.sessionStore { return true }
        return false
    }

    /// `scheme://host[:port]` of a URL.
    static func origin(of url: URL) -> String {
        var text = "\(url.scheme ?? "http")://\(url.host ?? "")"
        if let port = url.port { text += ":\(port)" }
        return text
    }
}

/// A URL behind a lock.
final class LockedURL: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: URL?

    var value: URL? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }
}

extension SplitServer {
    /// Whether `text` is a web origin the server may name in its content security policy, the frame page and its
    /// CORS answers: `https://host[:port]`, or `http://` on a loopback host (tests, local development), exactly as a
    /// browser serializes it (lower case, no path, no trailing slash), nothing a header or a policy could split on.
    ///
    /// - Parameter text: The merchant's origin, as configured.
    /// - Returns: Whether the server accepts it (``SplitServerConfiguration/merchantOrigin``).
    public static func isOrigin(_ text: String) -> Bool {
        guard text.utf8.count <= 253 + 16, text == text.lowercased(),
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }),
            let components = URLComponents(string: text), let scheme = components.scheme, let host = components.host,
            !host.isEmpty, components.path.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return false }
        switch scheme {
        case "https": return true
        case "http": return host == "localhost" || host.hasPrefix("127.") || host == "[::1]"
        default: return false
        }
    }
}
