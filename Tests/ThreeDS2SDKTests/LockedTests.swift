import Testing
@_spi(ThreeDS2Tools) import ThreeDS2SDK

@Suite("The package's lock type")
struct LockedTests {
    @Test("concurrent updates are never lost, and withLock returns and rethrows what its body does")
    func exclusive() async throws {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
        struct Refused: Error {}
        #expect(throws: Refused.self) { try counter.withLock { _ in throw Refused() } }
        #expect(
            counter.withLock { value -> String in
                value += 1; return "\(value)"
            } == "80001")
    }
}
