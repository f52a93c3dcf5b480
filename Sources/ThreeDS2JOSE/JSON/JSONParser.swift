/// A strict RFC 8259 JSON parser with bounds.
///
/// It rejects what a lenient parser lets through and an attacker could use: duplicate member names (two
/// different readers could pick different values), invalid UTF-8, unpaired surrogates, control characters inside
/// strings, trailing content, and nesting deeper than ``Limits/maxDepth``.
public struct JSONParser: Sendable {
    /// Bounds applied while parsing.
    public struct Limits: Sendable, Hashable {
        /// The largest input accepted, in bytes.
        public var maxBytes: Int
        /// The deepest nesting of arrays and objects accepted.
        public var maxDepth: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxBytes: The largest input accepted, in bytes.
        ///   - maxDepth: The deepest nesting accepted.
        public init(maxBytes: Int = 1 << 20, maxDepth: Int = 32) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
        }
    }

    /// The bounds in force.
    public var limits: Limits

    /// Creates a parser.
    ///
    /// - Parameter limits: The bounds to apply.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses one JSON text.
    ///
    /// - Parameter bytes: UTF-8 JSON text.
    /// - Returns: The parsed value.
    /// - Throws: ``JOSEError`` with code `inputTooLarge` or `malformedJSON`, naming the offset.
    public func parse(_ bytes: some Collection<UInt8>) throws(JOSEError) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw JOSEError(.inputTooLarge, "JSON text of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes)")
        }
        var reader = Reader(bytes: Array(bytes), maxDepth: limits.maxDepth)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.failure("unexpected content after the JSON value") }
        return value
    }

    /// Parses one JSON text from a string.
    ///
    /// - Parameter text: JSON text.
    /// - Returns: The parsed value.
    /// - Throws: ``JOSEError`` with code `inputTooLarge` or `malformedJSON`.
    public func parse(_ text: String) throws(JOSEError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    var atEnd: Bool { index >= bytes.count }

    func failure(_ message: String) -> JOSEError {
        JOSEError(.malformedJSON, "\(message) at offset \(index)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func expect(_ literal: String) throws(JOSEError) {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw failure("invalid literal") }
            index += 1
        }
    }

    mutating func parseValue(depth: Int) throws(JOSEError) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw failure("unexpected character")
        }
    }

    mutating func parseObject(depth: Int) throws(JOSEError) -> JSONObject {
        guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth)") }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return object
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a member name")
            }
            let name = try parseString()
            guard object[name] == nil else {
                throw JOSEError(.duplicateMember, "duplicate member \"\(name)\" at offset \(index)")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            object[name] = try parseValue(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return object
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JOSEError) -> [JSONValue] {
        guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return elements
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    mutating func parseNumber() throws(JOSEError) -> String {
        let start = index
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid fraction") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("invalid exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func parseHex4() throws(JOSEError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseString() throws(JOSEError) -> String {
        index += 1
        // Fast path: a string without escapes is one slice of the input.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20
        {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            guard let string = String(utf8Validating: bytes[index..<end]) else {
                throw failure("string is not valid UTF-8")
            }
            index = end + 1
            return string
        }
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(utf8Validating: utf8) else {
                    throw failure("string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw failure("control character in string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    /// One escape after its backslash, appended as UTF-8 (a `\u` surrogate pair read as one scalar).
    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JOSEError) {
        guard index < bytes.count else { throw failure("unterminated escape") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): utf8.append(0x22)
        case UInt8(ascii: "\\"): utf8.append(0x5C)
        case UInt8(ascii: "/"): utf8.append(0x2F)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("unpaired surrogate") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("unpaired surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid code point") }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw failure("invalid escape")
        }
    }
}
