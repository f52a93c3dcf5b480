import Foundation

/// The tables the benchmark prints: the README's performance goals are stated in their ratios.
enum Report {
    static func padded(_ text: String) -> String { text.padding(toLength: 52, withPad: " ", startingAt: 0) }

    /// Each composite against its floor, and the ratio; a ratio above 1.5 is flagged.
    static func composites(_ results: [Measurement]) -> [String] {
        [padded("composite operation") + "  composite        floor   ratio"]
            + results.map { result in
                let flag = result.ratio <= 1.5 ? "" : "  (above 1.5)"
                return padded(result.name) + "  " + format(result.composite) + "  " + format(result.floor)
                    + String(format: "   %.2f", result.ratio) + flag
            }
    }

    /// The SDK against the independent peer, and the ratio.
    static func peer(_ rows: [PeerComparison.Row]) -> [String] {
        [padded("client cost, SDK against Python cryptography/OpenSSL") + "        SDK         peer   SDK/peer"]
            + rows.map { row in
                padded(row.label) + "  " + format(row.sdk) + "  "
                    + format(.nanoseconds(Int64(row.peerMicroseconds * 1000)))
                    + String(format: "   %.2f", seconds(row.sdk) * 1e6 / row.peerMicroseconds)
            }
    }
}
