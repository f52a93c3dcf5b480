#if canImport(os)
    import os
#else
    import Foundation
#endif

/// A value guarded by a lock: the one lock type of every target in the package.
///
/// `Synchronization.Mutex` needs iOS 18 and macOS 15, above the package's floor (iOS 16, macOS 13), so Apple builds
/// use `OSAllocatedUnfairLock` (iOS 16, macOS 13) and other platforms a Foundation lock. The guarded value is reached
/// only inside ``withLock(_:)``; keep the closure short and never suspend or call out to app code in it.
/// Tools-only (`@_spi(ThreeDS2Tools)`): the tools package uses the same lock; it is not part of the SDK's API.
@_spi(ThreeDS2Tools) public final class Locked<Value>: @unchecked Sendable {
    #if canImport(os)
        private let lock: OSAllocatedUnfairLock<Value>

        /// Creates the lock around its first value.
        @_spi(ThreeDS2Tools) public init(_ value: Value) { lock = OSAllocatedUnfairLock(uncheckedState: value) }

        /// Runs `body` with the value while holding the lock.
        @_spi(ThreeDS2Tools) public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            try lock.withLockUnchecked(body)
        }
    #else
        private let lock = NSLock()
        private var value: Value

        /// Creates the lock around its first value.
        @_spi(ThreeDS2Tools) public init(_ value: Value) { self.value = value }

        /// Runs `body` with the value while holding the lock.
        @_spi(ThreeDS2Tools) public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    #endif
}
