import Dispatch
import Foundation
import Testing
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2TestLab

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An in-process lab answers on threads of its own: while the tests of the process hold every thread of Swift's
/// cooperative pool, its 3DS Server and its ACS (an actor) still answer. Before, the lab's requests waited on that
/// pool; in the full suite, inside tmux beside another build, a cancel request "did not answer in time" and the
/// example app's CRes timer ran out.
@Suite("TestLab threads")
struct LabThreadsTests {
    /// The status of a POST of `body` to `url`, sent and read on URLSession's own queue (never the cooperative pool);
    /// `answered` is signalled when it is in.
    private static func post(_ body: String, to url: URL, answered: DispatchSemaphore) -> Locked<Int?> {
        let status = Locked<Int?>(nil)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        URLSession.shared.dataTask(with: request) { _, response, _ in
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode ?? -1 }
            answered.signal()
        }.resume()
        return status
    }

    @Test("the 3DS Server and the ACS answer while every thread of the cooperative pool is blocked")
    func answersBesideABlockedPool() async throws {
        let lab = try await TestLab.start(options: TestLabOptions(useTLS: false))
        // Twice as many blockers as the pool has threads: every thread of the pool waits on the gate, and the rest
        // wait for a thread. The gate opens when both answers are in; each blocker passes it on.
        let blockers = 2 * max(2, ProcessInfo.processInfo.activeProcessorCount)
        let gate = DispatchSemaphore(value: 0)
        let answers = DispatchSemaphore(value: 0)
        let (server, acs) = (
            Self.post("{}", to: lab.authenticateURL, answered: answers),
            Self.post("not a CReq", to: lab.baseURL.appendingPathComponent("acs/challenge"), answered: answers)
        )
        // A backstop, not a speed limit: a lab on its own threads answers in milliseconds even on a busy machine; one
        // on the blocked pool cannot answer before the watcher gives up and opens the gate (the blockers' own limit is
        // later still, so the watcher decides).
        let inTime = Locked(false)
        let watcherLimit = DispatchTime.now() + .seconds(60)
        Thread {
            let both =
                answers.wait(timeout: watcherLimit) == .success && answers.wait(timeout: watcherLimit) == .success
            inTime.withLock { $0 = both }
            gate.signal()
        }.start()
        let blockerLimit = watcherLimit + .seconds(60)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<blockers {
                group.addTask {
                    _ = gate.wait(timeout: blockerLimit)
                    gate.signal()
                }
            }
        }
        #expect(inTime.withLock { $0 }, "both answers arrived while the pool was blocked")
        #expect(server.withLock { $0 } == 400, "the 3DS Server refuses an empty AReq")
        #expect(acs.withLock { $0 } != nil, "the ACS answers")
        await lab.stop()
    }
}
