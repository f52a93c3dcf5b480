import Foundation
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// A running lab's claim on its PKI directory: an exclusive `flock` on `.testlab.lock` there, which holds the lab's
/// URL; the system drops it when the process ends, however it ends.
final class PKIDirectoryLock: Sendable {
    private let descriptor = Locked<Int32>(-1)

    /// Creates the directory (mode 0700, missing parents too) when missing and takes the lock.
    ///
    /// - Throws: ``TestLabError`` naming the problem: a file in the way, an unwritable directory, or another running
    ///   lab (with its URL).
    init(_ directory: URL, url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw TestLabError(.fileSystem, "\(directory.path) is a file, not a directory for the PEM files")
            }
        } else {
            // Mode 0700 at creation: never a moment when the folder of key files is open to others.
            do {
                try SecretFile.makeDirectory(directory.path)
            } catch {
                throw TestLabError(.fileSystem, "the directory \(directory.path) cannot be created")
            }
        }
        let path = directory.appendingPathComponent(".testlab.lock").path
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw TestLabError(.fileSystem, "\(directory.path) is not writable") }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(opened, &buffer, buffer.count)
            close(opened)
            let other = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            throw TestLabError(
                .fileSystem,
                "another TestLab\(other.isEmpty ? "" : " (\(other))") is using \(directory.path); "
                    + "give this one its own PKI directory")
        }
        _ = ftruncate(opened, 0)
        let text = Array(url.absoluteString.utf8)
        _ = text.withUnsafeBytes { write(opened, $0.baseAddress, $0.count) }
        descriptor.withLock { $0 = opened }
    }

    /// Releases the lock.
    func release() {
        descriptor.withLock {
            if $0 >= 0 { close($0) }
            $0 = -1
        }
    }

    deinit { release() }
}
