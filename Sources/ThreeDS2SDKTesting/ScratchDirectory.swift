import Foundation

/// The test process's own temporary directory: every scratch directory lives inside it, and it is removed when the
/// process exits, so test runs leave nothing behind in the system's temporary directory.
private let scratchRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("threeds2-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    atexit {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("threeds2-tests-\(getpid())")
        try? FileManager.default.removeItem(at: root)
    }
    return root
}()

/// A new, empty directory for one test, removed with the test process's scratch directory at exit.
///
/// - Parameter prefix: A name to recognise it by.
/// - Returns: The directory's path.
public func scratchDirectory(_ prefix: String) -> String {
    let url = scratchRoot.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    // Mode 0700 whatever the umask: a test elsewhere in the process may have set it to 0 for a moment.
    try? FileManager.default.createDirectory(
        at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return url.path
}
