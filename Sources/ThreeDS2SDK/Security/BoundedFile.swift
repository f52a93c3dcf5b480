import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a file an app or a tester supplies (a trust bundle, a certificate it references, a UI customization, a
/// load log) without trusting its size or kind: the file is opened without blocking, a folder, FIFO, socket or
/// terminal is refused (none can stall the reader), a file larger than the bound is refused before any byte is read,
/// and no more than the bound plus one byte is ever read (a device that seeks, such as `/dev/zero`, costs the bound
/// and is refused as too large).
@_spi(ThreeDS2Tools) public enum BoundedFile {
    /// Reads at most `maxBytes` bytes of a regular file.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - maxBytes: The largest size accepted.
    ///   - what: How errors name the file (for example `trust bundle`).
    ///   - followingSymlinks: `false` refuses a symbolic link as the last path component.
    /// - Returns: The file's bytes.
    /// - Throws: ``ThreeDS2Error`` with code `invalidInput` when the file cannot be opened, is not a regular file, or
    ///   is larger than `maxBytes`.
    @_spi(ThreeDS2Tools) public static func read(
        _ path: String, maxBytes: Int, what: String, followingSymlinks: Bool = true
    ) throws(ThreeDS2Error) -> [UInt8] {
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        if !followingSymlinks { flags |= O_NOFOLLOW }
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            throw .invalidInput("\(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        // The kind and size without the file-metadata calls Apple lists as required-reason APIs (the SDK declares
        // none): a folder is refused by name, a pipe, socket or terminal by `lseek` (ESPIPE), and the size is where
        // the end is.
        var isDirectory: ObjCBool = false
        guard !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) || !isDirectory.boolValue else {
            throw .invalidInput("\(what) \(path) is not a regular file")
        }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw .invalidInput("\(what) \(path) is not a regular file")
        }
        guard Int(end) <= maxBytes else {
            throw .invalidInput("\(what) \(path) is larger than \(maxBytes) bytes")
        }
        // The size can change between lseek and read: never read more than the bound plus one byte.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(end) + 1)
        var chunk = [UInt8](repeating: 0, count: min(64 * 1024, maxBytes + 1))
        var total = 0
        while total <= maxBytes {
            let wanted = min(chunk.count, maxBytes + 1 - total)
            let count = chunk.withUnsafeMutableBytes { buffer in systemRead(descriptor, buffer.baseAddress!, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw .invalidInput("\(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            total += count
        }
        guard total <= maxBytes else { throw .invalidInput("\(what) \(path) is larger than \(maxBytes) bytes") }
        return bytes
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #else
            Darwin.read(descriptor, buffer, count)
        #endif
    }
}
