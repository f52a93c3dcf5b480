extension String {
    /// The text of `bytes` when they are valid UTF-8, else `nil`: no replacement characters, no lost bytes.
    ///
    /// The standard library's `String(validating:as:)` needs iOS 18 and macOS 15, above the package's floor: decoding
    /// replaces each ill-formed sequence with U+FFFD, so the bytes are valid exactly when the decoded text's UTF-8
    /// equals them.
    ///
    /// - Parameter bytes: The bytes.
    package init?(utf8Validating bytes: some Collection<UInt8>) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
