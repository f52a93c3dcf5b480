import Foundation

#if canImport(Glibc)
    // `struct stat` comes through CoreFoundation on Linux.
    import CoreFoundation
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a file an app or a tester supplies (a trust bundle, a certificate it references, a UI customization, a
/// load log) without trusting its size or kind: the file is opened without blocking (a FIFO or a device cannot stall
/// the reader), must be a regular file, and is read only up to its bound, so a file larger than the bound costs the
/// bound and no more (issue 34).
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
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .invalidInput("\(what) \(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .invalidInput("\(what) \(path) is not a regular file")
        }
        guard Int(status.st_size) <= maxBytes else {
            throw .invalidInput("\(what) \(path) is larger than \(maxBytes) bytes")
        }
        // The size can change between fstat and read: never read more than the bound plus one byte.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(Int(status.st_size), maxBytes) + 1)
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
