import Foundation
import Logging
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

/// Whole challenges (three exchanges: first CReq, a wrong code, the right code) against an in-process TestLab over
/// HTTPS on loopback, one after the other.
enum WholeChallenges {
    /// The time of each challenge, from the first CReq to the outcome.
    static func measure(options: Options) async throws -> [Duration] {
        var labLogger = Logger(label: "bench.lab")
        labLogger.logLevel = .critical
        let lab = try await TestLab.start(logger: labLogger)
        var sdkLogger = Logger(label: "bench.sdk")
        sdkLogger.logLevel = .critical
        let service = ThreeDS2Service(logger: sdkLogger)
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: dataDirectory))
        let transport = try lab.makeTransport()
        let client = ThreeDSServerClient(serverURL: lab.baseURL, transport: transport)
        var times: [Duration] = []
        for _ in 0..<(options.quick ? 3 : 30) {
            let transaction = try service.createTransaction(
                directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.2.0")
            let response = try await client.authenticate(
                parameters: try transaction.getAuthenticationRequestParameters(), purchase: purchase)
            guard let parameters = response.challengeParameters else { break }
            let start = ContinuousClock.now
            let outcome = try await transaction.challenge(
                parameters, presenter: ScriptedPresenter(answers: [.text("000000"), .text("123456")]),
                transport: transport)
            times.append(ContinuousClock.now - start)
            precondition(outcome == .completed(transStatus: .authenticated), "benchmark challenge failed: \(outcome)")
        }
        try await transport.shutdown()
        await lab.stop()
        return times
    }

    /// The SDK's data directory for the benchmark's services.
    static var dataDirectory: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("threeds-bench").path
    }

    /// The purchase every benchmark payment makes: the text-challenge card, 1.00 EUR.
    static let purchase = Purchase(cardNumber: Scenario.text.cardNumber, amount: "100", currency: "978")

    /// The report line: median, fastest and slowest.
    static func report(_ times: [Duration]) -> String {
        let sorted = times.sorted()
        return
            "full challenge (3 exchanges, TestLab over HTTPS on loopback, \(sorted.count) runs): median \(format(sorted[sorted.count / 2])), "
            + "fastest \(format(sorted[0])), slowest \(format(sorted[sorted.count - 1]))"
    }
}
