import Foundation

/// The process's resident memory, for tests that hold a component to a stated memory bound (Linux `/proc`).
public enum PeakMemory {
    /// Resets the peak resident size to the current one (`/proc/self/clear_refs` 5) and returns the current size.
    ///
    /// - Returns: The resident size now, in bytes.
    @discardableResult
    public static func reset() -> Int {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return field("VmRSS")
    }

    /// The peak resident size since the last ``reset()``, in bytes.
    public static var peak: Int { field("VmHWM") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return digits * 1024
        }
        return 0
    }
}
