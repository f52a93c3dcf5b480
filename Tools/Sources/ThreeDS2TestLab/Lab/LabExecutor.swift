import Foundation

/// The threads the in-process servers (``TestLab``, ``HostileServer``) answer on: a task executor of its own, so a
/// lab running inside a test process answers while that process's tests hold every thread of Swift's cooperative
/// pool (two on a two-core machine), whether they compute or block. On the shared pool a lab's requests waited behind
/// the tests until the client's real timeout passed ("did not answer in time"); on these threads the system shares
/// the cores between the lab and the tests as it does between processes.
///
/// The server's task prefers this executor (`withTaskExecutorPreference`), and so does every child task it makes
/// (one per connection) and every default actor it calls; work the lab hands to an unstructured `Task` runs on the
/// global pool as before. One executor for every lab in the process, with threads that live as long as it does:
/// idle threads wait on a condition and cost no CPU. (Task executors exist from macOS 15 and iOS 18; before them a lab
/// answers on the global pool, see ``runOnLabThreads(_:)``.)
@available(macOS 15.0, iOS 18.0, *)
final class LabExecutor: TaskExecutor, @unchecked Sendable {
    /// The executor every in-process server prefers.
    static let shared = LabExecutor(threads: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Guards `jobs`; signalled when one is added.
    private let condition = NSCondition()
    /// The jobs waiting for a thread, oldest first (read from `head`, compacted as it grows).
    private var jobs: [UnownedJob] = []
    private var head = 0

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "TestLab executor \(index + 1)"
            thread.start()
        }
    }

    /// Queues a job; one of the executor's threads runs it.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs, oldest first, for as long as the process runs.
    private func work() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head == jobs.count || head > 1024 {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs a server's `run` on the lab's own threads (``LabExecutor``) where task executors exist, else as it is.
///
/// - Parameter run: The server's run, for example a service group's.
/// - Throws: What `run` throws.
func runOnLabThreads(_ run: @Sendable () async throws -> Void) async throws {
    if #available(macOS 15.0, iOS 18.0, *) {
        try await withTaskExecutorPreference(LabExecutor.shared) { try await run() }
    } else {
        try await run()
    }
}
