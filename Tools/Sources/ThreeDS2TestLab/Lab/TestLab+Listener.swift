import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import ThreeDS2JOSE

extension TestLab {
    /// The lab's HTTP server: TLS 1.2 or later with the lab's server certificate, or plain HTTP/1.1.
    static func httpServer(options: TestLabOptions, pki: LabPKI) throws -> HTTPServerBuilder {
        guard options.useTLS else { return .http1() }
        let certificate = try NIOSSLCertificate(bytes: try pki.tlsServer.certificateDER, format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(pki.tlsServer.privateKey.pemRepresentation.utf8), format: .pem)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        return try .tls(.http1(), tlsConfiguration: tls)
    }

    /// The running listener: its service group, the task that runs it, and the URL it answers on.
    struct Listener {
        let group: ServiceGroup
        let task: Task<Void, any Error>
        let baseURL: URL

        /// Starts the server on the options' host (127.0.0.1 unless told) and returns once it listens.
        static func start(
            router: Router<BasicRequestContext>, server: HTTPServerBuilder, options: TestLabOptions, logger: Logger
        ) async throws -> Listener {
            let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
            var serverLogger = logger
            serverLogger.logLevel = options.logsRequests ? .info : .warning
            let app = Application(
                router: router, server: server,
                configuration: .init(
                    address: .hostname(options.host, port: options.port), serverName: "ThreeDS2 TestLab"),
                onServerRunning: { channel in
                    portContinuation.yield(channel.localAddress?.port ?? 0)
                    portContinuation.finish()
                }, logger: serverLogger)
            let group = ServiceGroup(
                configuration: .init(services: [app], gracefulShutdownSignals: [], logger: serverLogger))
            let task = Task {
                // A listener that cannot bind ends the run at once: the port stream must end too, or start would wait.
                defer { portContinuation.finish() }
                // On the lab's own threads (LabExecutor): a lab inside a test process answers while the tests hold
                // every thread of the cooperative pool.
                try await runOnLabThreads { try await group.run() }
            }
            var iterator = portStream.makeAsyncIterator()
            let scheme = options.useTLS ? "https" : "http"
            guard let port = await iterator.next(), port > 0,
                let baseURL = URL(string: "\(scheme)://\(options.host):\(port)")
            else {
                task.cancel()
                throw await startFailure(task, host: options.host, port: options.port)
            }
            return Listener(group: group, task: task, baseURL: baseURL)
        }

        /// Why a listener did not start.
        private static func startFailure(_ task: Task<Void, any Error>, host: String, port: Int) async -> TestLabError {
            guard case .failure(let error) = await task.result else {
                return TestLabError(.startFailed, "the TestLab server did not start")
            }
            if let io = error as? IOError, io.errnoCode == EADDRINUSE {
                return TestLabError(.startFailed, "port \(port) is in use")
            }
            return TestLabError(.startFailed, "cannot listen on \(host):\(port): \(error)", underlying: error)
        }

        /// Writes the PKI files for clients when the options name a directory, holding it for this lab; stops the
        /// listener when they cannot be written.
        func writingPKIFiles(_ pki: LabPKI, options: TestLabOptions) async throws -> PKIDirectoryLock? {
            guard let directory = options.pkiDirectory else { return nil }
            do {
                // A second lab on another port must not replace the files of one still running.
                let lock = try PKIDirectoryLock(directory, url: baseURL)
                try pki.writeClientFiles(to: directory)
                return lock
            } catch {
                await group.triggerGracefulShutdown()
                _ = await task.result
                if let error = error as? TestLabError { throw error }
                throw TestLabError(.fileSystem, "the PEM files cannot be written to \(directory.path)")
            }
        }
    }
}
