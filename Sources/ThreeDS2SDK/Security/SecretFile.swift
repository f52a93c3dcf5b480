import Foundation
public import ThreeDS2JOSE

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
    /// A file that could not be written or a folder that could not be made, in the package's one error shape: the
    /// message names the path and the system's reason, `underlying` is the system's error.
    @_spi(ThreeDS2Tools) public struct Failure: DetailedCodedError, Sendable {
        /// The kind of failure. New codes may be added; do not rely on the list being complete.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private enum Name: Hashable, Sendable {
                case notAFolder, systemCall
            }

            private let name: Name

            private init(_ name: Name) { self.name = name }

            /// The name of the code, for messages.
            public var description: String { "\(name)" }

            /// A path that should be a folder is something else.
            public static let notAFolder = Code(.notAFolder)
            /// A system call failed (creating, writing, syncing or renaming); `underlying` is its error.
            public static let systemCall = Code(.systemCall)
        }

        /// The code, message, cause and place.
        public let details: ErrorDetails<Code>

        /// Creates the error from its details.
        ///
        /// - Parameter details: The code, message, cause and place.
        public init(details: ErrorDetails<Code>) { self.details = details }
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
            guard path.isEmpty || isDirectory.boolValue else { throw Failure(.notAFolder, "\(path) is not a folder") }
            return
        }
        try makeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure("cannot create the folder", path) }
    }

    private static func failure(_ what: String, _ path: String, file: String = #fileID, line: UInt = #line) -> Failure {
        let number = errno
        return Failure(
            .systemCall, "\(what) \(path): \(String(cString: strerror(number)))",
            underlying: POSIXErrorCode(rawValue: number).map { POSIXError($0) }, file: file, line: line)
    }
}
