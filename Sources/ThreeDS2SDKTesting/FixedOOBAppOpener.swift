public import Foundation
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// An opener whose app always does the same, for scripts and tests of the out-of-band app seam
/// (`OOBAppOpener`): no platform call, and every link it was asked to open is kept.
public struct FixedOOBAppOpener: OOBAppOpener {
    /// What every open reports.
    public let result: OOBAppOpenResult
    private let opened = Locked<[URL]>([])

    /// Creates the opener.
    ///
    /// - Parameter result: What every open reports.
    public init(result: OOBAppOpenResult) {
        self.result = result
    }

    /// Keeps the link and reports ``result``.
    ///
    /// - Parameter url: The link.
    /// - Returns: ``result``.
    public func open(_ url: URL) async -> OOBAppOpenResult {
        opened.withLock { $0.append(url) }
        return result
    }

    /// The links opened so far, in order.
    public var openedURLs: [URL] { opened.withLock { $0 } }
}
