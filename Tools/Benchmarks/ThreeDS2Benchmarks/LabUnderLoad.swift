import Foundation
import Logging
import NIOConcurrencyHelpers
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

/// The TestLab under load: many challenges at once against the in-process TestLab over HTTPS on loopback, each a
/// whole payment (AReq parameters, 3DS Server, signed content, two exchanges). Reports challenges per second per core
/// (CPU time of this process, which runs both sides), p99 per exchange, and the peak resident memory of the run (the
/// high-water mark is reset first, Linux).
enum LabUnderLoad {
    /// A transport that times each exchange of the one it wraps.
    final class TimedExchanges: ChallengeTransport {
        let base: any ChallengeTransport
        let times = NIOLockedValueBox<[Duration]>([])

        init(base: any ChallengeTransport) { self.base = base }

        func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
            let start = ContinuousClock.now
            defer { times.withLockedValue { $0.append(ContinuousClock.now - start) } }
            return try await base.send(request)
        }
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The resident memory of this process now (Linux; 0 elsewhere).
    static func resident() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    static func residentHighWater() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Runs `concurrent` whole payments at once against an in-process TestLab and describes the result.
    static func measure(concurrent: Int) async throws -> (line: String, perCore: Double) {
        var labLogger = Logger(label: "bench.lab")
        labLogger.logLevel = .critical
        let lab = try await TestLab.start(options: TestLabOptions(maxTransactions: 2 * concurrent), logger: labLogger)
        var quietLogger = Logger(label: "bench.sdk")
        quietLogger.logLevel = .critical
        let sdkLogger = quietLogger
        let configuration = try lab.sdkConfiguration(dataDirectory: WholeChallenges.dataDirectory)
        let transport = try HTTPClientTransport(
            additionalTrustRootsPEM: [try lab.pki.tlsRoot.certificatePEM], maxConnectionsPerHost: 64)
        let exchanges = TimedExchanges(base: transport)
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let cpuBefore = cpuSeconds()
        let wallStart = ContinuousClock.now
        let completed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<concurrent {
                group.addTask {
                    let service = ThreeDS2Service(logger: sdkLogger)
                    try service.initialize(configParameters: configuration)
                    let transaction = try service.createTransaction(
                        directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.2.0")
                    let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport)
                        .authenticate(
                            parameters: try transaction.getAuthenticationRequestParameters(),
                            purchase: WholeChallenges.purchase)
                    guard let parameters = response.challengeParameters else { return false }
                    let outcome = try await transaction.challenge(
                        parameters, presenter: ScriptedPresenter(answers: [.text("123456")]), transport: exchanges)
                    transaction.close()
                    return outcome == .completed(transStatus: .authenticated)
                }
            }
            var completed = 0
            for try await done in group where done { completed += 1 }
            return completed
        }
        let wall = ContinuousClock.now - wallStart
        let cpu = cpuSeconds() - cpuBefore
        let peak = residentHighWater()
        try await transport.shutdown()
        await lab.stop()
        precondition(completed == concurrent, "only \(completed) of \(concurrent) challenges completed")
        let times = exchanges.times.withLockedValue { $0 }.sorted()
        let p99 = times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)]
        let line =
            "TestLab under load: \(concurrent) concurrent challenges (2 exchanges each) in \(String(format: "%.2f", seconds(wall))) s; "
            + String(format: "%.1f challenges/s per core (CPU %.2f s, both sides)", Double(concurrent) / cpu, cpu)
            + "; exchange p50 \(format(times[times.count / 2])), p99 \(format(p99)); peak RSS "
            + String(format: "%.0f MB", Double(peak) / 1_048_576)
        return (line, Double(concurrent) / cpu)
    }
}
