/// Text written by a peer (an ACS, a 3DS Server, whoever made a pasted token): how its length is counted, which
/// characters a display field may not carry, and how any of it is shown on a terminal.
///
/// **Length.** EMVCo's core specification counts length criteria in characters where one character is one UTF-8
/// character, that is one Unicode scalar (1–4 bytes in UTF-8), whatever it renders as. Counting grapheme clusters
/// (Swift's `String.count`) would let one "character" carry any number of combining marks; counting bytes would
/// refuse legitimate non-Latin text at a third of its limit. Every bounded field is counted with ``length(_:)``.
///
/// **Display fields.** A CRes display field (headers, texts, labels, select options) that carries a C0 control other
/// than the line feed and carriage return the texts use for line breaks, DEL, a C1 control, or a bidirectional
/// embedding, override or isolate is an invalid data element: the SDK answers it as the specification says for any
/// invalid field (Erro 203 naming the field) rather than rewriting what the issuer wrote. Such characters have no
/// place in text shown to a cardholder and are how a peer would rename a terminal, move its cursor, or make text read
/// in another order than it is stored.
public enum PeerText {
    /// The length of a text as the specification counts characters: Unicode scalars (UTF-8 characters).
    ///
    /// - Parameter text: The text.
    /// - Returns: The number of Unicode scalars.
    public static func length(_ text: String) -> Int { text.unicodeScalars.count }

    /// Whether a text is at most `max` characters as the specification counts them, without walking past the bound.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - max: The bound.
    /// - Returns: `true` when the text has at most `max` Unicode scalars.
    public static func fits(_ text: String, max: Int) -> Bool {
        var count = 0
        for _ in text.unicodeScalars {
            count += 1
            if count > max { return false }
        }
        return true
    }

    /// The first character a display field may not carry, if any.
    ///
    /// - Parameter text: The field's value.
    /// - Returns: The first C0 control other than LF and CR, DEL, C1 control, or bidirectional control.
    public static func forbiddenScalar(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            scalar != "\n" && scalar != "\r" && isControlOrBidi(scalar)
        }
    }

    /// Whether a scalar is a C0 or C1 control, DEL, or a bidirectional embedding, override or isolate (U+202A–U+202E,
    /// U+2066–U+2069).
    ///
    /// - Parameter scalar: The scalar.
    /// - Returns: `true` for the characters a terminal or a layout engine would act on rather than show.
    public static func isControlOrBidi(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// A peer's display text with every control and bidirectional control character (line breaks included)
    /// replaced by a space: for text that is shown but was never a protocol field (an HTML page's labels and text).
    ///
    /// - Parameter text: The text.
    /// - Returns: The text without characters a terminal or a layout engine would act on.
    public static func neutralised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControlOrBidi) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControlOrBidi($0) ? " " : $0 }))
    }

    /// A peer's text made safe to print on a terminal: every control character and bidirectional control (the line
    /// breaks too, unless `keepingLineBreaks`) is written as a visible `\u{…}` escape, and a backslash as `\\` so an
    /// escape cannot be forged.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - keepingLineBreaks: Whether LF stays a line break (for multi-line display text).
    /// - Returns: Text with no character a terminal would act on.
    public static func escapedForTerminal(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || isControlOrBidi($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if keepingLineBreaks, scalar == "\n" {
                out.append(scalar)
            } else if scalar == "\\" {
                out.append(contentsOf: "\\\\".unicodeScalars)
            } else if isControlOrBidi(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
