@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// A `ChannelKeyLog` that keeps the entries it is given in memory, for tests of when a transaction logs its channel
/// key (tools-only, as the key log is).
@_spi(ThreeDS2Tools) public final class RecordingKeyLog: ChannelKeyLog {
    private let recorded = Locked<[ChannelKeyEntry]>([])

    /// Creates an empty log.
    public init() {}

    /// The entries so far, in order.
    public var entries: [ChannelKeyEntry] { recorded.withLock { $0 } }

    /// Keeps the entry.
    ///
    /// - Parameter entry: The entry.
    public func record(_ entry: ChannelKeyEntry) { recorded.withLock { $0.append(entry) } }
}
