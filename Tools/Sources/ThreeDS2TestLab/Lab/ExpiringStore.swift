/// Per-transaction state with a bound and an expiry, so a TestLab under a long load run keeps a fixed amount of it.
///
/// Entries leave oldest first: when they are older than `lifetime`, and when an insertion would exceed
/// `capacity`. Finished transactions stay until then, so a test can still read what the lab saw of them. Every
/// operation is O(1) amortized: insertion order is kept in an array read from a moving head.
struct ExpiringStore<Key: Hashable, Value> {
    typealias Instant = ContinuousClock.Instant

    /// The most entries kept.
    let capacity: Int
    /// How long an entry is kept after its insertion.
    let lifetime: Duration
    private var entries: [Key: (value: Value, inserted: Instant)] = [:]
    private var order: [(key: Key, inserted: Instant)] = []
    private var head = 0

    init(capacity: Int, lifetime: Duration) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The number of entries held.
    var count: Int { entries.count }

    /// The keys held, in no order.
    var keys: [Key] { Array(entries.keys) }

    /// The values, oldest first.
    var values: [Value] {
        order[head...].compactMap { item in
            entries[item.key].flatMap { $0.inserted == item.inserted ? $0.value : nil }
        }
    }

    /// The value for `key`; setting changes an existing entry only (its age stays), and `nil` removes it.
    subscript(key: Key) -> Value? {
        get { entries[key]?.value }
        set {
            guard let inserted = entries[key]?.inserted else { return }
            entries[key] = newValue.map { ($0, inserted) }
        }
    }

    /// Inserts (or replaces, with a new age) the value for `key`, after dropping what has expired by `now` and,
    /// when full, the oldest entries.
    mutating func insert(_ value: Value, for key: Key, now: Instant = .now) {
        prune(now: now)
        if entries[key] == nil {
            while entries.count >= capacity, dropOldest() {}
        }
        entries[key] = (value, now)
        order.append((key, now))
    }

    /// Drops every entry older than `lifetime` at `now`.
    mutating func prune(now: Instant = .now) {
        while head < order.count, order[head].inserted.advanced(by: lifetime) <= now, dropOldest() {}
    }

    /// Drops the front of the order (and its entry, when that entry is still the one it names).
    private mutating func dropOldest() -> Bool {
        guard head < order.count else { return false }
        let oldest = order[head]
        head += 1
        if entries[oldest.key]?.inserted == oldest.inserted { entries[oldest.key] = nil }
        if head > 64, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return true
    }
}
