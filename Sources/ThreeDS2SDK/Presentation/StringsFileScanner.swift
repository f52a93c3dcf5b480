/// Reads the text of an Apple strings file (`"key" = "value";`, with `/* */` and `//` comments and the escapes `\n`,
/// `\t`, `\r`, `\U`/`\u` and any escaped character), one entry after the other.
struct StringsFileScanner {
    private var scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    }

    /// Every entry; `nil` when the text is malformed.
    mutating func entries() -> [String: String]? {
        var entries: [String: String] = [:]
        while true {
            guard skipSpaceAndComments() else { return nil }
            if index >= scalars.count { return entries }
            guard let key = quoted(), skipSpaceAndComments(), take("=") else { return nil }
            guard skipSpaceAndComments(), let value = quoted(), skipSpaceAndComments(), take(";") else { return nil }
            entries[key] = value
        }
    }

    /// Takes `scalar` when it is next.
    private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard index < scalars.count, scalars[index] == scalar else { return false }
        index += 1
        return true
    }

    /// Skips white space and comments; `false` for a comment left open.
    private mutating func skipSpaceAndComments() -> Bool {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                index += 2
                while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { index += 1 }
                guard index + 1 < scalars.count else { return false }
                index += 2
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else {
                break
            }
        }
        return true
    }

    /// A quoted string, its escapes read; `nil` when none is next or it is malformed.
    private mutating func quoted() -> String? {
        guard take("\"") else { return nil }
        var out = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" { return String(out) }
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            guard let escaped = escape() else { return nil }
            out.append(escaped)
        }
        return nil
    }

    /// The character an escape after its backslash stands for.
    private mutating func escape() -> Unicode.Scalar? {
        guard index < scalars.count else { return nil }
        let escaped = scalars[index]
        index += 1
        switch escaped {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "U", "u":
            let digits = scalars[index..<min(index + 4, scalars.count)]
            guard digits.count == 4, let value = UInt32(String(String.UnicodeScalarView(digits)), radix: 16),
                let decoded = Unicode.Scalar(value)
            else { return nil }
            index += 4
            return decoded
        default: return escaped
        }
    }
}
