extension LayoutRenderer {
    /// Whether an East Asian *ambiguous*-width character (Unicode's East Asian Width `A`: `“ ” ‘ ’ … · • ─ ▸ ▾ ›`,
    /// `±`, `×`, Greek and Cyrillic letters, …) is counted as two columns: `false`, one column.
    ///
    /// A terminal draws these one column wide unless told otherwise (glibc's `wcwidth`, xterm, VTE, iTerm2,
    /// Windows Terminal and the macOS Terminal by default); a terminal set to draw them wide (iTerm2's "ambiguous
    /// characters are double-width", `VTE_CJK_WIDTH`, some CJK locales of older terminals) lets the rule lines and
    /// the `…`, `•` and `›` of the screen overrun by one column each. Counting them narrow keeps Greek, Cyrillic and
    /// the quotation marks of European tables at their width everywhere else; the renderer draws no ambiguous
    /// character it cannot spare.
    public static let ambiguousIsWide = false

    /// The columns a character takes on a terminal: 2 for an East Asian wide or full-width character (CJK
    /// ideographs, kana, Hangul syllables, full-width forms such as `：` and `（`, emoji), 0 for a combining or
    /// enclosing mark, a variation selector or an invisible format character (the zero-width joiner and
    /// non-joiner of Persian and Urdu words, the bidirectional marks), 1 otherwise (``ambiguousIsWide``).
    ///
    /// - Parameter character: The character.
    /// - Returns: Its width in columns.
    public static func displayWidth(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) || (0x1160...0x11FF).contains(value) { return 0 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// The East Asian wide and full-width blocks (Unicode's East Asian Width `W` and `F`), as terminals draw them.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]
}
