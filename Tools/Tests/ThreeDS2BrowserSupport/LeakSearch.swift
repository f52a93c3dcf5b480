import Foundation

/// Searches recorded bytes for secrets in every form a careless program writes them: raw, hex (either case), base64 and
/// base64url (at each of the three alignments a secret can have inside a longer encoded text), URL-encoded (either
/// case of the hex digits) and JSON-escaped (the escapes a serializer writes, and every character as `\uXXXX`).
public enum LeakSearch {
    /// A value that must appear nowhere.
    public struct Secret: Sendable {
        /// What it is, for the report ("the code", "the channel key's first half").
        public var name: String
        /// Its bytes (a code's UTF-8, a key's bytes).
        public var bytes: [UInt8]

        /// Whether a raw occurrence counts only where no letter or digit stands right before or after it: for a short
        /// code of digits, which a longer run of digits or hex (a timestamp, an identifier) holds by chance now and
        /// then, while a program that leaks the code writes it as a value of its own (`"737412"`, `=737412&`).
        public var wordBounded: Bool

        /// A secret.
        public init(_ name: String, _ bytes: [UInt8], wordBounded: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.wordBounded = wordBounded
        }
    }

    /// Bytes to search, with where they come from.
    public struct Haystack: Sendable {
        /// Where the bytes come from ("client → server, connection 3").
        public var name: String
        /// The bytes.
        public var bytes: [UInt8]

        /// A haystack.
        public init(_ name: String, _ bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// One place a secret was found.
    public struct Finding: Sendable, CustomStringConvertible {
        /// The secret's name.
        public var secret: String
        /// The form it was found in ("base64url, offset 1").
        public var form: String
        /// The haystack's name.
        public var haystack: String
        /// Where in the haystack.
        public var offset: Int

        /// A one-line account.
        public var description: String { "\(secret) as \(form) in \(haystack) at byte \(offset)" }
    }

    /// Every form of the bytes that the search looks for, each with its name; none shorter than 4 bytes.
    public static func forms(of bytes: [UInt8]) -> [(form: String, bytes: [UInt8])] {
        var forms: [(String, [UInt8])] = [("raw", bytes)]
        let lowerHex = bytes.map { String(format: "%02x", $0) }.joined()
        forms.append(("hex", Array(lowerHex.utf8)))
        forms.append(("HEX", Array(lowerHex.uppercased().utf8)))
        for shift in 0..<3 {
            guard let standard = aligned(bytes, shift: shift) else { continue }
            forms.append(("base64, alignment \(shift)", Array(standard.utf8)))
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            if url != standard { forms.append(("base64url, alignment \(shift)", Array(url.utf8))) }
        }
        forms.append(("URL-encoded", percentEncoded(bytes, upper: true)))
        forms.append(("URL-encoded, lower-case hex", percentEncoded(bytes, upper: false)))
        forms.append(("JSON-escaped", jsonEscaped(bytes)))
        let everyCharacter = bytes.map { String(format: "\\u%04x", $0) }.joined()
        forms.append(("JSON \\u-escaped", Array(everyCharacter.utf8)))
        forms.append(
            (
                "JSON \\u-escaped, upper-case hex",
                Array(everyCharacter.uppercased().replacingOccurrences(of: "\\U", with: "\\u").utf8)
            ))
        var seen = Set<[UInt8]>()
        return forms.filter { $0.1.count >= 4 && seen.insert($0.1).inserted }
    }

    /// Every place any secret appears in any haystack, in any form.
    public static func search(_ secrets: [Secret], in haystacks: [Haystack]) -> [Finding] {
        var findings: [Finding] = []
        for secret in secrets {
            for (form, needle) in forms(of: secret.bytes) {
                for haystack in haystacks {
                    var start = haystack.bytes.startIndex
                    while let range = haystack.bytes[start...].firstRange(of: needle) {
                        defer { start = range.upperBound }
                        if secret.wordBounded, needle == secret.bytes, !isBounded(range, in: haystack.bytes) {
                            continue
                        }
                        findings.append(
                            Finding(secret: secret.name, form: form, haystack: haystack.name, offset: range.lowerBound))
                    }
                }
            }
        }
        return findings
    }

    /// Whether no letter or digit touches the range.
    private static func isBounded(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        func isWord(_ index: Int) -> Bool {
            guard bytes.indices.contains(index) else { return false }
            let byte = bytes[index]
            return (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        return !isWord(range.lowerBound - 1) && !isWord(range.upperBound)
    }

    /// The base64 characters that encode `bytes` wherever they stand in a longer text at `shift` bytes past a 3-byte
    /// boundary: only the characters that depend on no byte outside the secret.
    static func aligned(_ bytes: [UInt8], shift: Int) -> String? {
        let padded = [UInt8](repeating: 0, count: shift) + bytes
        let encoded = Data(padded).base64EncodedString()
        // Characters wholly inside the secret: skip those touching the leading filler, and the trailing ones that
        // depend on bytes after it.
        let first = (shift * 8 + 5) / 6
        let last = (padded.count * 8) / 6
        guard last - first >= 4 else { return nil }
        let characters = Array(encoded)
        return String(characters[first..<last])
    }

    private static func percentEncoded(_ bytes: [UInt8], upper: Bool) -> [UInt8] {
        let unreserved = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8))
        var output: [UInt8] = []
        for byte in bytes {
            if unreserved.contains(byte) {
                output.append(byte)
            } else {
                output.append(contentsOf: Array(String(format: upper ? "%%%02X" : "%%%02x", byte).utf8))
            }
        }
        return output
    }

    /// What a JSON serializer writes for the bytes inside a string: quotes, backslashes, `/` and control bytes escaped.
    private static func jsonEscaped(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                output.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x00..<0x20: output.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
            default: output.append(byte)
            }
        }
        return output
    }
}
