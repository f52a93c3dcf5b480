/// Overwrites key material held in ordinary arrays once it has been turned into a `SymmetricKey` (which clears its
/// own storage when released) or is no longer needed: ECDH shared secrets, Concat KDF output, key halves.
public enum Wipe {
    /// Sets every byte to zero, in place. The write goes through the array's own storage, so the bytes are gone
    /// from this copy; copies made earlier are the caller's to wipe.
    ///
    /// - Parameter bytes: The bytes to clear.
    public static func zero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            // A volatile-style write through an opaque pointer, so the stores are not dropped as dead.
            let pointer = UnsafeMutableRawPointer(mutating: base)
            for offset in 0..<buffer.count { pointer.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self) }
            withExtendedLifetime(pointer) {}
        }
    }
}
