// A Split-SDK Server instance in a process of its own, for the tests that kill one with SIGKILL
// (Tools/Tests/ThreeDS2SplitSDKTests/SplitKilledInstanceTests.swift): registered with the lab whose PKI folder it is
// given, its sessions in the tests' PostgreSQL (scripts/postgres.sh), sealed with the key in the given file. It prints
// `listening on URL` once it listens, then runs until it is killed.
//
//   split-instance PKI_DIR API_KEY_FILE SEALING_KEY_FILE POSTGRES_PORT
import Crypto
import Foundation
import Logging
import ThreeDS2NIOTransport
import ThreeDS2SplitServer
import ThreeDS2TestLab

let arguments = CommandLine.arguments
guard arguments.count == 5, let port = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: split-instance PKI_DIR API_KEY_FILE SEALING_KEY_FILE PORT\n".utf8))
    exit(2)
}
let pki = URL(fileURLWithPath: arguments[1])
func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
}
do {
    guard let sealing = Data(base64Encoded: try read(arguments[3])), sealing.count == 32 else {
        throw ProbeError(description: "the sealing key file holds no 32-byte key in base64")
    }
    var configuration = try TestLab.splitServerConfiguration(
        pkiDirectory: pki, apiKey: try read(arguments[2]), merchantOrigin: "https://shop.example")
    configuration.sessionStore = .postgres(
        SplitPostgresStore(
            host: "127.0.0.1", port: port, username: "threeds_split", password: "threeds-split-test",
            database: "threeds_split", sealingKey: SymmetricKey(data: sealing)))
    let transport = try HTTPClientTransport(
        additionalTrustRootsPEM: [try read(pki.appendingPathComponent("tls-root.pem").path)])
    var logger = Logger(label: "split-instance")
    logger.logLevel = .notice
    // Its timers last ten times longer than they say: a loaded machine never times a challenge out under the tests
    // (which wait for no timer).
    let server = try SplitServer(
        configuration: configuration, transport: transport, clock: StretchedClock(factor: 10), logger: logger)
    let running = try await server.start()
    print("listening on \(running.baseURL)")
    fflush(nil)
    // Until killed.
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("split-instance: \(error)\n".utf8))
    exit(1)
}

/// A failure of the probe's own inputs.
struct ProbeError: Error, CustomStringConvertible {
    let description: String
}

/// A clock whose durations last `factor` times longer than they say.
struct StretchedClock: Clock {
    struct Instant: InstantProtocol {
        let offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    let factor: Int
    private let base = ContinuousClock()
    private let start = ContinuousClock.now

    init(factor: Int) { self.factor = factor }

    var now: Instant { Instant(offset: (base.now - start) / factor) }
    var minimumResolution: Duration { .milliseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let remaining = now.duration(to: deadline)
        if remaining > .zero { try await base.sleep(for: remaining * factor) }
    }
}
