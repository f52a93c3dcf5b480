import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2TestLab

@testable import ThreeDS2TestLab

@Suite("The TestLab keeps bounded, expiring per-transaction state")
struct ExpiringStoreTests {
    let start = ContinuousClock.now

    @Test("Beyond its capacity the oldest entries leave first")
    func capacity() {
        var store = ExpiringStore<String, Int>(capacity: 3, lifetime: .seconds(60))
        for (index, key) in ["a", "b", "c", "d", "e"].enumerated() {
            store.insert(index, for: key, now: start.advanced(by: .seconds(index)))
        }
        #expect(store.count == 3)
        #expect(store["a"] == nil)
        #expect(store["b"] == nil)
        #expect(store.values == [2, 3, 4])
    }

    @Test("Entries older than the lifetime are dropped, younger ones stay")
    func expiry() {
        var store = ExpiringStore<String, Int>(capacity: 100, lifetime: .seconds(10))
        store.insert(1, for: "old", now: start)
        store.insert(2, for: "young", now: start.advanced(by: .seconds(5)))
        store.prune(now: start.advanced(by: .seconds(10)))
        #expect(store["old"] == nil)
        #expect(store["young"] == 2)
        store.insert(3, for: "new", now: start.advanced(by: .seconds(15)))
        #expect(store.values == [3])
    }

    @Test("Changing an entry keeps its age; removing it frees its place; re-inserting renews it")
    func updates() {
        var store = ExpiringStore<String, Int>(capacity: 2, lifetime: .seconds(10))
        store.insert(1, for: "a", now: start)
        store["a"] = 10
        store["missing"] = 5
        #expect(store["missing"] == nil, "setting only changes existing entries")
        store.prune(now: start.advanced(by: .seconds(9)))
        #expect(store["a"] == 10)
        store.prune(now: start.advanced(by: .seconds(10)))
        #expect(store["a"] == nil, "the change did not renew the entry")
        store.insert(1, for: "b", now: start.advanced(by: .seconds(20)))
        store["b"] = nil
        store.insert(2, for: "c", now: start.advanced(by: .seconds(21)))
        store.insert(3, for: "c", now: start.advanced(by: .seconds(25)))
        store.insert(4, for: "d", now: start.advanced(by: .seconds(26)))
        #expect(store.values == [3, 4])
        store.prune(now: start.advanced(by: .seconds(32)))
        #expect(store.values == [3, 4], "the replaced entry's first age no longer counts")
    }

    @Test("A long run of insertions keeps the store at its capacity")
    func longRun() {
        var store = ExpiringStore<Int, Int>(capacity: 50, lifetime: .seconds(3600))
        for index in 0..<10_000 { store.insert(index, for: index, now: start.advanced(by: .milliseconds(index))) }
        #expect(store.count == 50)
        #expect(store.values == Array(9950..<10_000))
    }
}
