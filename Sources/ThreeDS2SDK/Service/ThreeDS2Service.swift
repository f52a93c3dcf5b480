public import Foundation
public import Logging
import ThreeDS2JOSE
import ThreeDS2Messages

/// What a transaction needs from the initialised service; fixed at initialize.
struct ServiceContext: Sendable {
    let configuration: ResolvedConfiguration
    let locale: Locale
    let uiCustomizations: [UiCustomizationType: UiCustomization]
    let sdkAppID: String
    let collector: DeviceInformationCollector
    let checks: SecurityChecks
    let logger: Logger
    let clientListener: (any ClientEventListener)?
    let securityListener: (any SecurityEventListener)?
    let warningsBox: WarningsBox
    /// The service's running challenges, for a returning link.
    let liveChallenges: LiveChallenges

    var warnings: [Warning] { warningsBox.value.withLock { $0 } }

    func emit(_ event: ClientEvent) { clientListener?.clientEvent(event) }

    /// Re-runs the security checks, tells the listener each finding, and tells it when the findings changed.
    @discardableResult
    func recheck(stage: SecurityChecks.Stage) -> [Warning] {
        let current = checks.run()
        for warning in current { securityListener?.securityWarningFound(warning, stage: stage) }
        let previous = warningsBox.value.withLock { warnings in
            defer { warnings = current }
            return warnings
        }
        if previous != current {
            logger.notice(
                "security findings changed",
                metadata: ["stage": "\(stage.rawValue)", "warnings": "\(current.map(\.id.rawValue))"])
            securityListener?.securityWarningsChanged(current, previous: previous, stage: stage)
        }
        return current
    }
}

/// The latest security findings, shared by the service and its transactions.
final class WarningsBox: Sendable {
    let value: Locked<[Warning]>
    init(_ warnings: [Warning]) { value = Locked(warnings) }
}

/// The entry point of the SDK (EMVCo `ThreeDS2Service`): initialise it once with the configuration, create a
/// transaction per payment, and clean it up when the app no longer needs 3-D Secure.
///
/// The lifecycle is enforced: ``initialize(configParameters:locale:uiCustomization:)`` twice is an
/// `alreadyInitialized` error; any other call before it, or after ``cleanup()``, is a `notInitialized` error;
/// ``cleanup()`` returns the service to its fresh state, ready to be initialised again.
public final class ThreeDS2Service: Sendable {
    /// The SDK version.
    public static let version = "0.1.0"

    private let state = Locked<ServiceContext?>(nil)
    private let probe: any SystemProbe
    private let baseLogger: Logger
    private let clientListener: (any ClientEventListener)?
    private let securityListener: (any SecurityEventListener)?
    /// The executable's hash for SW02: computed once for the service's life (an app's one service: once per
    /// process), off the calling thread.
    let executableDigest = ExecutableDigest()
    /// The challenges running in this process, for ``returnedTransaction(from:requestorAppURL:)``: the service's
    /// own, so that a link is answered before `initialize` and after `cleanup` too.
    let liveChallenges = LiveChallenges()

    /// Creates an uninitialised service.
    ///
    /// - Parameters:
    ///   - logger: Where the SDK logs; nothing sensitive is ever logged at any level. The lifecycle and every
    ///     transaction log at `debug` (a library's level: an app that never set up logging sees nothing); only
    ///     problems (a poor UI customization contrast, changed security findings) log above it.
    ///   - clientEventListener: Told what the SDK does (messages built, transactions created, …).
    ///   - securityEventListener: Told each security finding at initialize and at every later check, and when the
    ///     findings change.
    ///   - systemProbe: Where device information and security checks read the system (a fake in tests).
    public init(
        logger: Logger = Logger(label: "threeds2.sdk"), clientEventListener: (any ClientEventListener)? = nil,
        securityEventListener: (any SecurityEventListener)? = nil, systemProbe: any SystemProbe = LiveSystemProbe()
    ) {
        self.baseLogger = logger
        self.clientListener = clientEventListener
        self.securityListener = securityEventListener
        self.probe = systemProbe
    }

    /// Initialises the SDK: validates the configuration, runs the security checks, and prepares device-information
    /// collection.
    ///
    /// - Parameters:
    ///   - configParameters: The configuration.
    ///   - locale: The locale for the SDK's own texts and device parameter C005; the current locale when `nil`.
    ///   - uiCustomization: The challenge screens' look; defaults when `nil`.
    /// - Throws: ``ThreeDS2Error``: `alreadyInitialized`, `invalidInput` naming the bad parameter, or `runtime`.
    public func initialize(
        configParameters: ConfigParameters, locale: Locale? = nil, uiCustomization: UiCustomization? = nil
    )
        throws(ThreeDS2Error)
    {
        try initialize(
            configParameters: configParameters, locale: locale,
            uiCustomizations: uiCustomization.map { [.default: $0] } ?? [:])
    }

    /// Initialises the SDK with a customization per appearance (EMVCo 2.3: default, dark, monochrome).
    ///
    /// - Parameters:
    ///   - configParameters: The configuration.
    ///   - locale: The locale; the current locale when `nil`.
    ///   - uiCustomizations: The look for each appearance; a missing appearance falls back to the default one.
    /// - Throws: ``ThreeDS2Error``: `alreadyInitialized`, `invalidInput`, or `runtime`.
    public func initialize(
        configParameters: ConfigParameters, locale: Locale? = nil,
        uiCustomizations: [UiCustomizationType: UiCustomization]
    ) throws(ThreeDS2Error) {
        let configuration = try ResolvedConfiguration(configParameters)
        var logger = baseLogger
        if let level = configParameters[.logLevel].flatMap(Logger.Level.init(rawValue:)) { logger.logLevel = level }
        let store = SDKAppIDStore(
            directory: configuration.dataDirectory.map { URL(fileURLWithPath: $0) }
                ?? probe.defaultDataDirectory, probe: probe)
        let checks = SecurityChecks(
            probe: probe, minimumOSVersion: configuration.minimumOSVersion,
            expectedExecutableSHA256: configuration.expectedExecutableSHA256, executableDigest: executableDigest)
        // The checks and the SDK App ID's file (read, or written and synced) run holding no lock, so `warnings`,
        // `cleanup()` and a transaction's calls on other threads never wait for them; the context is published under
        // the lock afterwards, and a second initialize that raced this one loses there.
        if state.withLock({ $0 != nil }) { throw Self.alreadyInitialized }
        let stored = try store.sdkAppID(
            appIdentifier: configuration.appIdentifier, appVersion: configuration.appVersion)
        let prepared = ServiceContext(
            configuration: configuration, locale: locale ?? Locale.current, uiCustomizations: uiCustomizations,
            sdkAppID: stored.id,
            collector: DeviceInformationCollector(
                probe: probe, restricted: configuration.restrictedParameters,
                enabled: configuration.enabledParameters),
            checks: checks,
            logger: logger, clientListener: clientListener, securityListener: securityListener,
            warningsBox: WarningsBox(checks.run()), liveChallenges: liveChallenges)
        let result: Result<ServiceContext, ThreeDS2Error> = state.withLock { current in
            guard current == nil else { return .failure(Self.alreadyInitialized) }
            current = prepared
            return .success(prepared)
        }
        let context = try result.get()
        for warning in context.warnings { securityListener?.securityWarningFound(warning, stage: .initialization) }
        if !stored.excludedFromBackup {
            logger.warning(
                "the SDK App ID's file could not be excluded from backups; a restore to another device may share it")
        }
        for warning in uiCustomizations.values.flatMap(\.contrastWarnings) {
            logger.warning("UI customization", metadata: ["warning": .stringConvertible(warning)])
        }
        for warning in configuration.directoryServerWarnings {
            logger.warning("directory server certificate", metadata: ["warning": "\(warning)"])
        }
        logger.debug(
            "3DS SDK initialised",
            metadata: [
                "version": "\(Self.version)", "warnings": "\(context.warnings.map(\.id.rawValue))",
                "directoryServers": "\(configuration.directoryServers.keys.sorted())",
            ])
        context.emit(.initialized(warnings: context.warnings.map(\.id)))
    }

    private static var alreadyInitialized: ThreeDS2Error {
        ThreeDS2Error(.alreadyInitialized, "the 3DS SDK is already initialised; call cleanup() first")
    }

    private func context() throws(ThreeDS2Error) -> ServiceContext {
        guard let context = state.withLock({ $0 }) else {
            throw ThreeDS2Error(
                .notInitialized, "the 3DS SDK is not initialised; call initialize(configParameters:) first")
        }
        return context
    }

    /// The SDK's texts in the locale given to `initialize`, with the app's overrides; English before `initialize`.
    public var strings: SDKStrings {
        guard let context = state.withLock({ $0 }) else { return .english }
        return SDKStrings(locale: context.locale, overrides: context.configuration.texts)
    }

    /// The warnings the security checks raised at the latest run.
    ///
    /// - Throws: ``ThreeDS2Error`` with code `notInitialized`.
    public var warnings: [Warning] {
        get throws(ThreeDS2Error) { try context().warnings }
    }

    /// Warnings about the directory servers' certificates found at initialize: one
    /// ``Warning/ID-swift.struct/directoryServerCertificateExpiring`` per directory server whose encryption certificate in use ends
    /// within 30 days. They are not security findings and never reach device data's `SW`.
    ///
    /// - Throws: ``ThreeDS2Error`` with code `notInitialized`.
    public var directoryServerWarnings: [Warning] {
        get throws(ThreeDS2Error) { try context().configuration.directoryServerWarnings }
    }

    /// Warnings about the UI customization (text/background contrast under 4.5:1).
    ///
    /// - Throws: ``ThreeDS2Error`` with code `notInitialized`.
    public var uiCustomizationWarnings: [Warning] {
        get throws(ThreeDS2Error) { try context().uiCustomizations.values.flatMap(\.contrastWarnings) }
    }

    /// The customization for an appearance, falling back to the default appearance.
    ///
    /// - Throws: ``ThreeDS2Error`` with code `notInitialized`.
    public func uiCustomization(for type: UiCustomizationType) throws(ThreeDS2Error) -> UiCustomization {
        UiCustomization.for(type, in: try context().uiCustomizations)
    }

    /// The SDK version.
    ///
    /// - Throws: ``ThreeDS2Error`` with code `notInitialized`.
    public var sdkVersion: String {
        get throws(ThreeDS2Error) {
            _ = try context()
            return Self.version
        }
    }

    /// Creates a transaction: a fresh SDK transaction ID and ephemeral key, for one directory server and one message
    /// version. The security checks run again first.
    ///
    /// - Parameters:
    ///   - directoryServerID: A configured directory server ID, compared without case (`a000000004` finds
    ///     `A000000004`).
    ///   - messageVersion: One of `MessageVersion.supported`; the highest when `nil`.
    /// - Returns: The transaction.
    /// - Throws: ``ThreeDS2Error``: `notInitialized`, or `invalidInput` for an unknown directory server or an
    ///   unsupported version.
    public func createTransaction(directoryServerID: DirectoryServerID, messageVersion: MessageVersion? = nil)
        throws(ThreeDS2Error) -> Transaction
    {
        let context = try context()
        // Registered application provider identifiers are compared without case, as configuring them is.
        let server =
            context.configuration.directoryServers[directoryServerID]
            ?? context.configuration.directoryServers.first {
                $0.key.rawValue.uppercased() == directoryServerID.rawValue.uppercased()
            }?.value
        guard let server else {
            let known = context.configuration.directoryServers.keys.sorted().map(\.rawValue).joined(separator: ", ")
            throw .invalidInput(
                "directory server \"\(directoryServerID)\" is not configured; configured: \(known.isEmpty ? "none" : known)"
            )
        }
        let version = try MessageVersion.resolve(messageVersion?.rawValue)
        context.recheck(stage: .transactionCreation)
        let transaction = Transaction(context: context, directoryServer: server, messageVersion: version)
        context.logger.debug(
            "transaction created",
            metadata: [
                "sdkTransID": "\(transaction.sdkTransactionID)", "messageVersion": "\(version.rawValue)",
                "ds": "\(directoryServerID)",
            ])
        context.emit(
            .transactionCreated(
                sdkTransactionID: transaction.sdkTransactionID, messageVersion: version,
                directoryServerID: directoryServerID))
        return transaction
    }

    /// Creates a transaction for a message version given as the EMVCo SDK API gives it, as text: a convenience over
    /// the form that takes a `MessageVersion`.
    ///
    /// - Parameters:
    ///   - directoryServerID: A configured directory server ID.
    ///   - messageVersion: "2.1.0", "2.2.0" or "2.3.1"; the highest when `nil` or empty.
    /// - Returns: The transaction.
    /// - Throws: ``ThreeDS2Error``: `notInitialized`, or `invalidInput` for an unknown directory server or a version
    ///   that is not one of `MessageVersion.supported`.
    public func createTransaction(directoryServerID: DirectoryServerID, messageVersion: String?) throws(ThreeDS2Error)
        -> Transaction
    {
        try createTransaction(
            directoryServerID: directoryServerID, messageVersion: MessageVersion.resolve(messageVersion))
    }

    /// Returns the service to its fresh, uninitialised state.
    ///
    /// - Throws: ``ThreeDS2Error`` with code `notInitialized` when it is not initialised.
    public func cleanup() throws(ThreeDS2Error) {
        let context = state.withLock { current in
            defer { current = nil }
            return current
        }
        guard let context else {
            throw ThreeDS2Error(.notInitialized, "the 3DS SDK is not initialised; nothing to clean up")
        }
        context.logger.debug("3DS SDK cleaned up")
        context.emit(.cleanedUp)
    }
}
