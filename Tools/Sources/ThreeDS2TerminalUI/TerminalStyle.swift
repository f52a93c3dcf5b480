public import ThreeDS2SDK

/// How many colours the terminal shows.
public enum ColorDepth: Sendable, Hashable {
    /// No colour (`NO_COLOR`, `TERM=dumb`, plain mode).
    case none
    /// The 16 ANSI colours.
    case ansi16
    /// The 256-colour palette.
    case ansi256
    /// 24-bit colour.
    case truecolor

    /// Detects the depth from the environment: `NO_COLOR` wins, then `COLORTERM`, then `TERM`.
    ///
    /// - Parameter environment: The environment variables.
    public static func detect(_ environment: [String: String]) -> ColorDepth {
        if environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return .none }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" { return .none }
        if let colorterm = environment["COLORTERM"]?.lowercased(), colorterm == "truecolor" || colorterm == "24bit" {
            return .truecolor
        }
        if term.contains("256color") { return .ansi256 }
        return .ansi16
    }
}

/// SGR escape sequences for the customization's colours at a colour depth.
public struct TerminalStyle: Sendable {
    /// The depth in use.
    public let depth: ColorDepth

    /// Creates a style.
    public init(depth: ColorDepth) { self.depth = depth }

    /// Reset.
    public var reset: String { depth == .none ? "" : "\u{1B}[0m" }
    /// Bold.
    public var bold: String { depth == .none ? "" : "\u{1B}[1m" }
    /// Reverse video (used for focus, so focus never relies on colour alone: a marker is drawn too).
    public var reverse: String { depth == .none ? "" : "\u{1B}[7m" }

    /// The sequence for a foreground colour.
    public func foreground(_ color: HexColor?) -> String { sequence(color, background: false) }
    /// The sequence for a background colour.
    public func background(_ color: HexColor?) -> String { sequence(color, background: true) }

    private func sequence(_ color: HexColor?, background: Bool) -> String {
        guard let color else { return "" }
        switch depth {
        case .none:
            return ""
        case .truecolor:
            return "\u{1B}[\(background ? 48 : 38);2;\(color.red);\(color.green);\(color.blue)m"
        case .ansi256:
            return "\u{1B}[\(background ? 48 : 38);5;\(Self.palette256(color))m"
        case .ansi16:
            return "\u{1B}[\(Self.palette16(color) + (background ? 10 : 0))m"
        }
    }

    /// The nearest colour of the 6×6×6 cube or the grey ramp.
    static func palette256(_ color: HexColor) -> Int {
        func level(_ value: UInt8) -> Int { value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40 }
        let (r, g, b) = (level(color.red), level(color.green), level(color.blue))
        if r == g && g == b && color.red == color.green && color.green == color.blue {
            let grey = Int(color.red)
            if grey < 8 { return 16 }
            if grey > 238 { return 231 }
            return 232 + (grey - 8) / 10
        }
        return 16 + 36 * r + 6 * g + b
    }

    /// The nearest of the 16 ANSI colours, as an SGR foreground code (30–37, 90–97).
    static func palette16(_ color: HexColor) -> Int {
        let bright = Int(color.red) + Int(color.green) + Int(color.blue) > 382
        let bits = (color.red > 127 ? 1 : 0) | (color.green > 127 ? 2 : 0) | (color.blue > 127 ? 4 : 0)
        return (bright ? 90 : 30) + bits
    }
}
