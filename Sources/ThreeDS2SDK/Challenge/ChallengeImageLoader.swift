public import Foundation
import Synchronization

/// Something that can fetch a small resource over HTTPS.
public protocol ImageFetcher: Sendable {
    /// Fetches a URL.
    ///
    /// - Parameters:
    ///   - url: The https URL.
    ///   - maxBytes: The largest body accepted.
    ///   - timeout: How long to wait.
    /// - Returns: The body.
    /// - Throws: ``TransportError`` on any failure, including a body over the bound.
    func get(url: URL, maxBytes: Int, timeout: Duration) async throws -> [UInt8]
}

/// Loads the issuer and payment-system images of a challenge: https only, bounded in size and time, each URL
/// fetched once per transaction and kept only in memory.
public final class ChallengeImageLoader: Sendable {
    /// The largest image accepted.
    public static let maxBytes = 256 * 1024
    /// How long one fetch may take.
    public static let timeout: Duration = .seconds(5)

    private let fetcher: any ImageFetcher
    private let cache = Mutex<[String: [UInt8]]>([:])

    /// Creates a loader.
    public init(fetcher: any ImageFetcher) {
        self.fetcher = fetcher
    }

    /// The image bytes, or `nil` when the URL is not https or the fetch fails (the UI then shows the alternative text).
    public func image(for reference: ImageReference) async -> [UInt8]? {
        if let cached = cache.withLock({ $0[reference.url] }) { return cached }
        guard let url = URL(string: reference.url), url.scheme?.lowercased() == "https", url.host != nil else {
            return nil
        }
        guard let bytes = try? await fetcher.get(url: url, maxBytes: Self.maxBytes, timeout: Self.timeout) else {
            return nil
        }
        cache.withLock { $0[reference.url] = bytes }
        return bytes
    }

    /// How many images are cached.
    public var cachedCount: Int { cache.withLock { $0.count } }
}
