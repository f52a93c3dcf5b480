public import Testing

/// Keeps the test that puts the machine under full load (1,000 payments at once) apart from the tests that measure
/// real time: those hold the gate shared, the load test holds it alone. Everything else runs beside both.
///
/// On a 2-core machine the load takes the CPU for seconds; a test that expects a timer to fire within a few seconds
/// of real time would then fail for a reason that is not its subject.
public actor LoadGate {
    /// The one gate of the test process.
    public static let shared = LoadGate()

    private var holders = 0
    private var heldAlone = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` with the gate held shared (`alone == false`) or alone.
    public func run<T: Sendable>(alone: Bool, _ body: @Sendable () async throws -> T) async rethrows -> T {
        while heldAlone || (alone && holders > 0) {
            await withCheckedContinuation { waiting.append($0) }
        }
        if alone { heldAlone = true } else { holders += 1 }
        defer {
            if alone { heldAlone = false } else { holders -= 1 }
            let woken = waiting
            waiting.removeAll()
            for continuation in woken { continuation.resume() }
        }
        return try await body()
    }
}

/// A trait that runs each test of a suite (or one test) holding the ``LoadGate``: `.loadGate(alone: true)` for the
/// load test, `.loadGate(alone: false)` for the tests that measure real time.
public struct LoadGateTrait: SuiteTrait, TestTrait, TestScoping {
    /// Whether the gate is held alone.
    public let alone: Bool

    /// Applies to every test of a suite it marks.
    public var isRecursive: Bool { true }

    /// Holds the gate around each test case (not around the suite as a whole).
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await LoadGate.shared.run(alone: alone, function)
    }
}

extension Trait where Self == LoadGateTrait {
    /// Holds the ``LoadGate`` around each test: alone for the load test, shared for tests that measure real time.
    public static func loadGate(alone: Bool) -> Self { LoadGateTrait(alone: alone) }
}
