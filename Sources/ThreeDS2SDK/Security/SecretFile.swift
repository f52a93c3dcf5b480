import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files that hold secrets (keys, identifiers), created with their final permissions: a new file is opened with
/// `O_CREAT | O_EXCL` and mode 0600 (never created readable by others and `chmod`ed afterwards), written, synced
/// and renamed over the target, so a reader sees the old file or the whole new one; missing folders are made with
/// mode 0700. The umask can only take permissions away.
@_spi(ThreeDS2Tools) public enum SecretFile {
    /// An error naming the path and the system's reason.
    @_spi(ThreeDS2Tools) public struct Failure: Error, CustomStringConvertible {
        /// The path and the reason.
        public let description: String
    }

    /// Writes `bytes` to `path` with mode 0600 (or `mode`), replacing any file there.
    ///
    /// - Parameters:
    ///   - bytes: The contents.
    ///   - path: The file.
    ///   - mode: The file's permissions: 0600 for a secret; a public file (a certificate) may be 0644, set whatever
    ///     the umask once the file is created.
    /// - Throws: ``Failure``.
    @_spi(ThreeDS2Tools) public static func write(_ bytes: [UInt8], to path: String, mode: Int = 0o600)
        throws(Failure)
    {
        let url = URL(fileURLWithPath: path)
        try makeDirectory(url.deletingLastPathComponent().path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create", temporary) }
        if mode != 0o600, fchmod(descriptor, mode_t(mode)) != 0 {
            let error = failure("cannot set the permissions of", temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #else
                    Darwin.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                #endif
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                let error = failure("cannot write", temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += result
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            unlink(temporary)
            throw failure("cannot write", temporary)
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace", path)
            unlink(temporary)
            throw error
        }
    }

    /// Makes `path` and any missing parent as folders with mode 0700; an existing folder is left as it is.
    ///
    /// - Parameter path: The folder.
    /// - Throws: ``Failure``.
    @_spi(ThreeDS2Tools) public static func makeDirectory(_ path: String) throws(Failure) {
        var isDirectory: ObjCBool = false
        if path.isEmpty || FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard path.isEmpty || isDirectory.boolValue else { throw Failure(description: "\(path) is not a folder") }
            return
        }
        try makeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure("cannot create the folder", path) }
    }

    private static func failure(_ what: String, _ path: String) -> Failure {
        Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
