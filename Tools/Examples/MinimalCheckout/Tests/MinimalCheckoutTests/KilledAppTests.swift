import Clocks
import Foundation
import MinimalCheckout
import Testing
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

/// One `minimal-checkout` process (the example app, next to this test binary): its output read as it comes, its end
/// awaited, never a fixed time.
// `Process` is not `Sendable`; it is only started, signalled and read here, its state behind the lock.
final class AppProcess: @unchecked Sendable {
    private struct State {
        var output = ""
        var waiters: [(needle: String, continuation: CheckedContinuation<String, Never>)] = []
        var exit: Int32?
        var exitWaiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let process: Process
    private let input: Pipe
    private let state = Locked(State())

    /// The example app's binary, built beside the test binary.
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("minimal-checkout").path
    }

    /// Starts the app with `arguments`.
    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        output.fileHandleForReading.readabilityHandler = { [state] handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            let ready = state.withLock { state in
                state.output += String(decoding: data, as: UTF8.self)
                let text = state.output
                let (met, waiting) = (
                    state.waiters.filter { text.contains($0.needle) },
                    state.waiters.filter { !text.contains($0.needle) }
                )
                state.waiters = waiting
                return met.map { ($0.continuation, text) }
            }
            for (continuation, text) in ready { continuation.resume(returning: text) }
        }
        process.terminationHandler = { [state] process in
            let waiting = state.withLock { state in
                state.exit = process.terminationStatus
                defer { state.exitWaiters = [] }
                return state.exitWaiters
            }
            for continuation in waiting { continuation.resume(returning: process.terminationStatus) }
        }
        try process.run()
    }

    /// Everything the app printed so far.
    var output: String { state.withLock { $0.output } }

    /// Waits until the output contains `needle`; returns the output so far.
    func wait(for needle: String) async -> String {
        await withCheckedContinuation { continuation in
            let now: String? = state.withLock { state in
                if state.output.contains(needle) { return state.output }
                state.waiters.append((needle, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Waits for the process to end; its status (the signal's number when a signal ended it).
    func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            let now: Int32? = state.withLock { state in
                if let exit = state.exit { return exit }
                state.exitWaiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// How the process ended.
    var terminationReason: Process.TerminationReason { process.terminationReason }

    /// Kills the process as the system reclaims an app in the background: SIGKILL, nothing runs after it.
    func reclaim() { _ = kill(process.processIdentifier, SIGKILL) }

    /// Runs the app to its end; its status and output.
    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let app = try AppProcess(arguments)
        try app.input.fileHandleForWriting.close()
        let status = await app.exitStatus()
        // The output's end may trail the exit: wait for the app's last line.
        return (status, await app.wait(for: "\n"))
    }
}

/// The killed-app flow end to end (issue 48, point 4): the example app pays on an out-of-band card with app switching,
/// is killed while the cardholder is in the bank's app, the lab's ACS approves, and a new process of the app handles
/// the return link and asks its backend (the lab's 3DS Server, `GET /3ds/result`), against both ACS behaviours.
@Suite("The app killed in the bank's app: a new process asks the backend", .serialized, .timeLimit(.minutes(10)))
struct KilledAppTests {
    /// What one run showed.
    struct Run {
        let sdkTransID: String
        let link: String
        let decision: TestLab.OutOfBandDecisionOutcome
        let firstReturn: String
    }

    /// Starts a lab with `timing`, pays in one app process, kills it in the bank's app, approves in the bank, and
    /// handles the return link in a new process.
    func killedApp(_ lab: TestLab, pki: String) async throws -> Run {
        let common = [
            lab.baseURL.absoluteString, TestLab.rsaDirectoryServerID.rawValue, "\(pki)/ds-encryption-rsa.pem",
            "\(pki)/ds-root.pem",
        ]
        let app = try AppProcess(["--bank-app"] + common + [Scenario.outOfBand.cardNumber])
        _ = await app.wait(for: "in the bank's app: ")
        app.reclaim()
        #expect(await app.exitStatus() == SIGKILL && app.terminationReason == .uncaughtSignal, "\(app.output)")
        #expect(!app.output.contains("final CRes"), "the app ended on its own: \(app.output)")
        // The link the bank's app opens: the app URL as the SDK sent it in the CReqs, its transaction ID written in.
        let record = try #require(lab.authentications.last)
        guard case .string(let sdkTransID)? = record.request["sdkTransID"],
            case .string(let acsTransID)? = record.response["acsTransID"],
            case .string(let link)? = await lab.acsRecord(acsTransID: acsTransID)?.requests.first?[
                "threeDSRequestorAppURL"]
        else {
            throw LinkMissing(record: "\(record.response)")
        }
        #expect(link == "https://shop.example/3ds/return?transID=\(sdkTransID)")
        let decision = await lab.decideOutOfBand(sdkTransID: sdkTransID, approved: true)
        let (status, output) = try await AppProcess.run(["--return"] + common + [link])
        #expect(status == 0, "\(output)")
        return Run(sdkTransID: sdkTransID, link: link, decision: decision, firstReturn: output)
    }

    struct LinkMissing: Error {
        let record: String
    }

    func lab(_ timing: TestLabOptions.ResultsTiming, clock: TestClock<Duration>) async throws -> (TestLab, String) {
        var options = TestLabOptions(useTLS: false)
        options.resultsTiming = timing
        options.acsTimeout = .seconds(600)
        options.clock = clock
        let lab = try await TestLab.start(options: options)
        let pki = scratchDirectory("killed-app")
        try lab.pki.writeClientFiles(to: URL(fileURLWithPath: pki))
        return (lab, pki)
    }

    @Test("RReq on the bank's approval: the new process gets Y from its backend at once")
    func resultsOnApproval() async throws {
        let (lab, pki) = try await lab(.onApproval, clock: TestClock())
        let run = try await killedApp(lab, pki: pki)
        print("killed app, RReq on approval: \(run.firstReturn)")
        #expect(run.decision == .recorded(resultsSent: true))
        #expect(run.firstReturn.contains("gone \(run.sdkTransID): backend transStatus Y"), "\(run.firstReturn)")
        #expect(lab.result(sdkTransID: run.sdkTransID)?.transStatus == .authenticated)
        await lab.stop()
    }

    @Test(
        "RReq only after the final CReq: pending (the restarted app sends none), then the ACS's timeout RReq: U, not Y"
    )
    func resultsAfterFinalRequest() async throws {
        let clock = TestClock()
        let (lab, pki) = try await lab(.afterFinalRequest, clock: clock)
        let run = try await killedApp(lab, pki: pki)
        print("killed app, RReq after the final CReq, before the ACS's timeout: \(run.firstReturn)")
        #expect(run.decision == .recorded(resultsSent: false))
        #expect(run.firstReturn.contains("gone \(run.sdkTransID): backend pending"), "\(run.firstReturn)")
        // The ACS gives up waiting for the final CReq: its timeout RReq. The timer task may not sleep yet when the
        // clock first moves, so it moves again until the result is in (bounded).
        for _ in 0..<100 where lab.result(sdkTransID: run.sdkTransID)?.transStatus == nil {
            await clock.advance(by: .seconds(601))
            await Task.yield()
        }
        #expect(lab.result(sdkTransID: run.sdkTransID)?.transStatus == .unableToAuthenticate)
        let common = [
            lab.baseURL.absoluteString, TestLab.rsaDirectoryServerID.rawValue, "\(pki)/ds-encryption-rsa.pem",
            "\(pki)/ds-root.pem",
        ]
        let (status, later) = try await AppProcess.run(["--return"] + common + [run.link])
        print("killed app, RReq after the final CReq, after the ACS's timeout: \(later)")
        #expect(status == 0 && later.contains("gone \(run.sdkTransID): backend transStatus U"), "\(later)")
        await lab.stop()
    }

    @Test("the cardholder comes back to the running app: the payment goes on, final CRes Y beside the backend's Y")
    func cameBackAlive() async throws {
        let (lab, pki) = try await lab(.onApproval, clock: TestClock())
        let app = try AppProcess([
            "--bank-app", lab.baseURL.absoluteString, TestLab.rsaDirectoryServerID.rawValue,
            "\(pki)/ds-encryption-rsa.pem", "\(pki)/ds-root.pem", Scenario.outOfBand.cardNumber,
        ])
        _ = await app.wait(for: "in the bank's app: ")
        let record = try #require(lab.authentications.last)
        guard case .string(let sdkTransID)? = record.request["sdkTransID"] else { throw LinkMissing(record: "") }
        #expect(await lab.decideOutOfBand(sdkTransID: sdkTransID, approved: true) == .recorded(resultsSent: true))
        app.sendLine()
        #expect(await app.exitStatus() == 0)
        let output = await app.wait(for: "backend")
        print("the app that stayed alive: \(output)")
        #expect(output.contains("final CRes Y") && output.contains("backend transStatus Y"), "\(output)")
        await lab.stop()
    }
}

extension AppProcess {
    /// Writes a line on the app's standard input (the cardholder back from the bank's app).
    func sendLine() { input.fileHandleForWriting.write(Data("back\n".utf8)) }
}
