import ThreeDS2Messages

/// How text a peer wrote (an ACS's Erro, a 3DS Server's `error` member, a `--requestor-exec` command's output, a
/// `Content-Type`) is written into what the CLI prints and the reports it saves, so that the peer cannot edit them:
/// one line, C0 and C1 controls, DEL and the bidirectional embeddings, overrides and isolates as visible `\u{…}`
/// escapes (``PeerText/escapedForTerminal(_:keepingLineBreaks:)``), letters of every script as they are. The wire
/// is never touched: the SDK's JSON serializer writes what the protocol says; only the report writers escape.
enum ReportText {
    /// A peer's text on one line of a terminal, a JSON report or a JUnit file.
    static func line(_ text: String) -> String { PeerText.escapedForTerminal(text) }

    /// A peer's text in Markdown (`conform.md`): one line as ``line(_:)``, then every character Markdown or HTML
    /// would act on neutralised: `<`, `>` and `&` as character references (no tag, comment or entity of the peer's
    /// survives), and the Markdown punctuation that makes emphasis, code, links, tables, headings or strike-through
    /// escaped with a backslash, so the text reads as written and starts nothing.
    static func markdown(_ text: String) -> String {
        var out = ""
        for scalar in line(text).unicodeScalars {
            switch scalar {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\\", "`", "*", "_", "[", "]", "|", "#", "~", "!", "{", "}": out += "\\" + String(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
