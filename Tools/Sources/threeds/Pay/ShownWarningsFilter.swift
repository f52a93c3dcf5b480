import Logging
import ThreeDS2SDK

/// The SDK's log as `--verbose` prints it, without the UI-customization warnings (`UI01`) that the terminal presenter
/// already shows with every screen: each warning once.
struct ShownWarningsFilter: LogHandler {
    /// Where every other record goes.
    var base: any LogHandler

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        if case .stringConvertible(let value)? = event.metadata?["warning"], let warning = value as? Warning,
            warning.id == .lowContrast
        {
            return
        }
        base.log(event: event)
    }
}
