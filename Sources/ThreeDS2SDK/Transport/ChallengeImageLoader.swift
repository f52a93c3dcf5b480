public import Foundation

/// Loads the issuer and payment-system images of a challenge: https only, bounded in size and time, each URL
/// fetched once per transaction and kept only in memory.
public final class ChallengeImageLoader: Sendable {
    /// The largest image accepted.
    public static let maxBytes = 256 * 1024
    /// How long one fetch may take.
    public static let timeout: Duration = .seconds(5)

    private let transport: Locked<(any ChallengeTransport)?>
    private let cache = Locked<[String: [UInt8]]>([:])

    /// Creates a loader.
    ///
    /// - Parameter transport: How images are fetched (a `GET` through the same transport as the challenge).
    public init(transport: any ChallengeTransport) {
        self.transport = Locked(transport)
    }

    /// A transaction's loader, made with the transaction: it fetches nothing until its challenge starts and hands
    /// over its transport (``use(_:)``).
    init() {
        self.transport = Locked(nil)
    }

    /// Fetches through the challenge's transport from now on.
    ///
    /// - Parameter transport: The challenge's transport.
    func use(_ transport: any ChallengeTransport) {
        self.transport.withLock { $0 = transport }
    }

    /// Whether an image URL may be fetched at all: https with a host.
    ///
    /// - Parameter url: The URL text from the CRes.
    /// - Returns: The URL when it may be fetched.
    public static func fetchableURL(_ url: String) -> URL? {
        guard let parsed = URL(string: url), parsed.isHTTPSWithHost else { return nil }
        return parsed
    }

    /// The image bytes, or `nil` when the URL is not https, the answer is not 200, or the fetch fails (the UI then
    /// shows the alternative text).
    ///
    /// - Parameter reference: The image.
    /// - Returns: The bytes, at most ``maxBytes``.
    public func image(for reference: ImageReference) async -> [UInt8]? {
        if let cached = cache.withLock({ $0[reference.url] }) { return cached }
        guard let url = Self.fetchableURL(reference.url), let transport = transport.withLock({ $0 }) else { return nil }
        let request = TransportRequest(method: .get, url: url, timeout: Self.timeout, maxResponseBytes: Self.maxBytes)
        guard let response = try? await transport.send(request), response.status == 200 else { return nil }
        cache.withLock { $0[reference.url] = response.body }
        return response.body
    }

    /// How many images are cached.
    public var cachedCount: Int { cache.withLock { $0.count } }
}
