/// Strict base64url (RFC 4648 §5, as JOSE uses it: no padding) and standard base64 (RFC 4648 §4, as `x5c` uses it).
///
/// Decoding accepts only the canonical form. base64url: no `=`, no `+` or `/`, no whitespace, length mod 4 ≠ 1,
/// and the unused low bits of the last character are zero. Standard base64: padded to a multiple of four, no
/// whitespace, zero unused bits. A value that fails is rejected, never repaired, so one encoded text maps to
/// exactly one byte string.
public enum Base64 {
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlTable = decodingTable(urlAlphabet)
    private static let standardTable = decodingTable(standardAlphabet)

    private static func decodingTable(_ alphabet: [UInt8]) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(value) }
        return table
    }

    /// Encodes bytes as unpadded base64url.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The base64url text.
    public static func urlEncode(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: urlEncodedBytes(Array(bytes)), as: UTF8.self)
    }

    /// The unpadded base64url of `bytes`, as ASCII bytes (for assembling a compact serialization without
    /// intermediate strings).
    static func urlEncodedBytes(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedCount(bytes.count, pad: false)) { output, initialized in
            initialized = bytes.withUnsafeBytes { urlEncode($0, into: output) }
        }
    }

    /// Encodes bytes as padded standard base64.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The base64 text.
    public static func standardEncode(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: encode(Array(bytes), alphabet: standardAlphabet, pad: true), as: UTF8.self)
    }

    /// Decodes strict base64url.
    ///
    /// - Parameters:
    ///   - text: The base64url text.
    ///   - what: What the value is, for the error message (for example "JWE part 3 (IV)").
    /// - Returns: The decoded bytes.
    /// - Throws: ``JOSEError`` with code `malformedBase64` naming `what` and the offending character or length.
    public static func urlDecode(_ text: some StringProtocol, what: String = "value") throws(JOSEError) -> [UInt8] {
        // Copy through String: a native String's UTF-8 is contiguous, a Substring's view is walked byte by byte.
        try urlDecode(bytes: Array(String(text).utf8)[...], what: what)
    }

    /// Decodes strict base64url given as its ASCII bytes.
    ///
    /// - Parameters:
    ///   - symbols: The base64url text as bytes.
    ///   - what: What the value is, for the error message.
    /// - Returns: The decoded bytes.
    /// - Throws: ``JOSEError`` with code `malformedBase64`.
    public static func urlDecode(bytes symbols: ArraySlice<UInt8>, what: String = "value") throws(JOSEError) -> [UInt8]
    {
        guard symbols.count % 4 != 1 else {
            throw JOSEError(.malformedBase64, "\(what): length \(symbols.count) is not a valid base64url length")
        }
        return try decode(symbols, table: urlTable, what: what, encoding: "base64url")
    }

    /// Decodes strict base64url from a buffer of its ASCII bytes.
    static func urlDecode(_ symbols: UnsafeBufferPointer<UInt8>, what: String) throws(JOSEError) -> [UInt8] {
        try decode(symbols, table: urlTable, what: what, encoding: "base64url")
    }

    /// Decodes strict, padded standard base64 (the `x5c` encoding).
    ///
    /// - Parameters:
    ///   - text: The base64 text.
    ///   - what: What the value is, for the error message.
    /// - Returns: The decoded bytes.
    /// - Throws: ``JOSEError`` with code `malformedBase64`.
    public static func standardDecode(_ text: some StringProtocol, what: String = "value") throws(JOSEError) -> [UInt8]
    {
        var symbols = Array(String(text).utf8)[...]
        guard symbols.count % 4 == 0 else {
            throw JOSEError(.malformedBase64, "\(what): base64 length \(symbols.count) is not a multiple of 4")
        }
        var padding = 0
        while padding < 2, symbols.last == UInt8(ascii: "=") {
            symbols.removeLast()
            padding += 1
        }
        return try decode(symbols, table: standardTable, what: what, encoding: "base64")
    }

    /// The length of the encoding of `byteCount` bytes.
    static func encodedCount(_ byteCount: Int, pad: Bool) -> Int {
        let remaining = byteCount % 3
        return byteCount / 3 * 4 + (remaining == 0 ? 0 : (pad ? 4 : remaining + 1))
    }

    /// Writes the unpadded base64url of `input` to the start of `output`, which must hold
    /// `encodedCount(input.count, pad: false)` bytes. Returns the count written.
    static func urlEncode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        urlAlphabet.withUnsafeBufferPointer { encode(input, into: output, symbols: $0, pad: false) }
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: encodedCount(bytes.count, pad: pad)) { output, initialized in
            initialized = bytes.withUnsafeBytes { input in
                alphabet.withUnsafeBufferPointer { encode(input, into: output, symbols: $0, pad: pad) }
            }
        }
    }

    private static func encode(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>,
        symbols: UnsafeBufferPointer<UInt8>, pad: Bool
    ) -> Int {
        let fullGroups = input.count / 3
        let remaining = input.count - fullGroups * 3
        var out = 0
        var index = 0
        for _ in 0..<fullGroups {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output[out] = symbols[Int(chunk >> 18 & 0x3F)]
            output[out + 1] = symbols[Int(chunk >> 12 & 0x3F)]
            output[out + 2] = symbols[Int(chunk >> 6 & 0x3F)]
            output[out + 3] = symbols[Int(chunk & 0x3F)]
            index += 3
            out += 4
        }
        if remaining > 0 {
            let chunk = UInt32(input[index]) << 16 | (remaining == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output[out] = symbols[Int(chunk >> 18 & 0x3F)]
            output[out + 1] = symbols[Int(chunk >> 12 & 0x3F)]
            out += 2
            if remaining == 2 {
                output[out] = symbols[Int(chunk >> 6 & 0x3F)]
                out += 1
            }
            if pad {
                for _ in remaining..<3 {
                    output[out] = UInt8(ascii: "=")
                    out += 1
                }
            }
        }
        return out
    }

    /// The number of bytes that `symbolCount` unpadded symbols decode to (for a count whose remainder mod 4 is
    /// not 1).
    static func decodedCount(_ symbolCount: Int) -> Int { symbolCount / 4 * 3 + max(0, symbolCount % 4 - 1) }

    /// What a decode into a caller's buffer found.
    enum DecodeFailure: Error {
        case length
        case symbol(offset: Int)
        case unusedBits
    }

    /// Decodes strict base64url `input` to the start of `output`, which must hold `decodedCount(input.count)`
    /// bytes. Returns the count written.
    static func urlDecode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer)
        throws(DecodeFailure) -> Int
    {
        guard input.count % 4 != 1 else { throw .length }
        return try urlTable.withUnsafeBufferPointer { table throws(DecodeFailure) in
            try decode(input, into: output, table: table)
        }
    }

    /// The error for a failed decode of `symbols`.
    static func error(
        _ failure: DecodeFailure, symbols: UnsafeBufferPointer<UInt8>, what: String, encoding: String = "base64url"
    ) -> JOSEError {
        switch failure {
        case .length:
            return JOSEError(.malformedBase64, "\(what): length \(symbols.count) is not a valid \(encoding) length")
        case .symbol(let offset):
            let symbol = symbols[offset]
            let shown = symbol >= 0x21 && symbol < 0x7F ? "'\(Character(Unicode.Scalar(symbol)))'" : "byte \(symbol)"
            return JOSEError(.malformedBase64, "\(what): \(shown) at offset \(offset) is not \(encoding)")
        case .unusedBits:
            return JOSEError(.malformedBase64, "\(what): non-zero unused bits in the last \(encoding) character")
        }
    }

    private static func decode(_ symbols: ArraySlice<UInt8>, table: [UInt8], what: String, encoding: String)
        throws(JOSEError)
        -> [UInt8]
    {
        try symbols.withUnsafeBufferPointer { input throws(JOSEError) in
            try decode(input, table: table, what: what, encoding: encoding)
        }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>, table: [UInt8], what: String, encoding: String)
        throws(JOSEError)
        -> [UInt8]
    {
        guard input.count % 4 != 1 else { throw error(.length, symbols: input, what: what, encoding: encoding) }
        var failure: DecodeFailure?
        let output = [UInt8](unsafeUninitializedCapacity: decodedCount(input.count)) { output, initialized in
            do throws(DecodeFailure) {
                initialized = try table.withUnsafeBufferPointer { table throws(DecodeFailure) in
                    try decode(input, into: UnsafeMutableRawBufferPointer(output), table: table)
                }
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw error(failure, symbols: input, what: what, encoding: encoding) }
        return output
    }

    private static func decode(
        _ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer,
        table: UnsafeBufferPointer<UInt8>
    ) throws(DecodeFailure) -> Int {
        var out = 0
        var index = 0
        var invalid: UInt8 = 0
        while index + 4 <= input.count {
            let a = table[Int(input[index])]
            let b = table[Int(input[index + 1])]
            let c = table[Int(input[index + 2])]
            let d = table[Int(input[index + 3])]
            invalid |= (a | b | c | d) & 0x80
            let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            output[out] = UInt8(truncatingIfNeeded: chunk >> 16)
            output[out + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
            output[out + 2] = UInt8(truncatingIfNeeded: chunk)
            index += 4
            out += 3
        }
        var chunk: UInt32 = 0
        let tail = input.count - index
        for offset in 0..<tail {
            let value = table[Int(input[index + offset])]
            invalid |= value & 0x80
            chunk |= UInt32(value & 0x3F) << (18 - 6 * UInt32(offset))
        }
        var tailBits: UInt32 = 0
        if tail >= 2 {
            output[out] = UInt8(truncatingIfNeeded: chunk >> 16)
            out += 1
            tailBits = chunk & 0xFFFF
        }
        if tail == 3 {
            output[out] = UInt8(truncatingIfNeeded: chunk >> 8)
            out += 1
            tailBits = chunk & 0xFF
        }
        if invalid != 0 { throw .symbol(offset: input.firstIndex { table[Int($0)] & 0x80 != 0 } ?? 0) }
        guard tailBits == 0 else { throw .unusedBits }
        return out
    }
}
