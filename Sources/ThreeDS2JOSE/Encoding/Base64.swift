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
        String(decoding: encode(Array(bytes), alphabet: urlAlphabet, pad: false), as: UTF8.self)
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
        let symbols = Array(text.utf8)
        guard symbols.count % 4 != 1 else {
            throw JOSEError(.malformedBase64, "\(what): length \(symbols.count) is not a valid base64url length")
        }
        return try decode(symbols, table: urlTable, what: what, encoding: "base64url")
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
        var symbols = Array(text.utf8)
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

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
            output.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining == 1 {
            let chunk = UInt32(bytes[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            if pad { output.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")]) }
        } else if remaining == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
            if pad { output.append(UInt8(ascii: "=")) }
        }
        return output
    }

    private static func decode(_ symbols: [UInt8], table: [UInt8], what: String, encoding: String) throws(JOSEError)
        -> [UInt8]
    {
        guard symbols.count % 4 != 1 else {
            throw JOSEError(.malformedBase64, "\(what): \(encoding) length is invalid")
        }
        var output: [UInt8] = []
        output.reserveCapacity(symbols.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for (offset, symbol) in symbols.enumerated() {
            let value = table[Int(symbol)]
            guard value != 0xFF else {
                let shown = symbol >= 0x21 && symbol < 0x7F ? "'\(Character(Unicode.Scalar(symbol)))'" : "byte \(symbol)"
                throw JOSEError(.malformedBase64, "\(what): \(shown) at offset \(offset) is not \(encoding)")
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else {
            throw JOSEError(.malformedBase64, "\(what): non-zero unused bits in the last \(encoding) character")
        }
        return output
    }
}
