public import Logging
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// Collects every log record, at every level, with its metadata: the tests read it to prove nothing sensitive is
/// logged.
public final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// The factory to pass to `Logger(label:factory:)`.
    public func handler(label: String) -> any LogHandler { Handler(capture: self) }

    /// Everything logged so far, one record a line.
    public var text: String { lines.withLock { $0.joined(separator: "\n") } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.lines.withLock { $0.append("\(event.level) \(event.message) \(all)") }
        }
    }
}
