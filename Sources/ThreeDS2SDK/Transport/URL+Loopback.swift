public import Foundation

extension URL {
    /// The host names that count as this machine, for the plain-HTTP test opt-ins (the SDK's `allowPlainHTTPLoopback`
    /// and the CLI's `--allow-http`).
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]

    /// Whether the URL's host is this machine (`127.0.0.1`, `localhost`, `::1`), in any case.
    public var hasLoopbackHost: Bool {
        guard let host else { return false }
        return Self.loopbackHosts.contains(host.lowercased())
    }
}
