import Foundation
import Logging
import ThreeDS2NIOTransport
import ThreeDS2SplitServer
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Split-SDK Server `threeds testlab --split-port` runs beside the lab: registered with the lab's directory
/// server (its Split-SDK Server ID and signing identity, `TestLab.splitServerConfiguration`), the web client served
/// from it, the merchant's API key in the PKI folder (`split-merchant-api-key`, readable by its owner only), for the
/// merchant backend to read. Plain HTTP on the lab's address: a browser takes loopback as a secure context; elsewhere
/// put it behind a TLS-terminating proxy (docs/split-sdk.md, "Running the server").
struct TestLabSplitServer {
    /// The file in the PKI folder that holds the merchant's API key.
    static let apiKeyFileName = "split-merchant-api-key"

    let running: SplitServer.Running
    let apiKeyFile: URL
    private let transport: HTTPClientTransport

    /// Starts the server on `host:port` for the merchant at `merchantOrigin`.
    static func start(lab: TestLab, host: String, port: Int, merchantOrigin: String, pkiDirectory: URL) async throws
        -> TestLabSplitServer
    {
        let apiKey = (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let apiKeyFile = pkiDirectory.appendingPathComponent(apiKeyFileName)
        var configuration: SplitServerConfiguration
        do {
            configuration = try lab.splitServerConfiguration(apiKey: apiKey, merchantOrigin: merchantOrigin)
        } catch {
            throw CLIError("the Split-SDK Server's configuration: \(error)", exitStatus: 1)
        }
        configuration.webClientFolder = try SplitDemo.webClientFolder()
        configuration.allowsPlainHTTPLoopback = !lab.options.useTLS
        let transport = try lab.makeTransport()
        var logger = Logger(label: "threeds2.split")
        logger.logLevel = .notice
        do {
            let server = try SplitServer(
                configuration: configuration, transport: transport, clock: ContinuousClock(), logger: logger)
            let running = try await server.start(host: host, port: port)
            do {
                try writeKey(apiKey, to: apiKeyFile)
            } catch {
                await running.stop()
                throw error
            }
            return TestLabSplitServer(running: running, apiKeyFile: apiKeyFile, transport: transport)
        } catch {
            try? await transport.shutdown()
            throw CLIError("the Split-SDK Server did not start: \(error)", exitStatus: 1)
        }
    }

    /// Writes the key into a file created with permissions 0600 (`O_CREAT | O_EXCL`: never readable by others, even
    /// for a moment, and never through a link planted at its name).
    private static func writeKey(_ key: String, to file: URL) throws {
        try? FileManager.default.removeItem(at: file)
        let descriptor = open(file.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CLIError("could not create \(file.path) for the merchant API key", exitStatus: 1)
        }
        defer { close(descriptor) }
        let bytes = Array((key + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw CLIError("could not write the merchant API key to \(file.path)", exitStatus: 1)
        }
    }

    /// Removes the key file first (a stop that does not finish leaves no key behind), then stops the server.
    func stop() async {
        try? FileManager.default.removeItem(at: apiKeyFile)
        await running.stop()
        try? await transport.shutdown()
    }
}
