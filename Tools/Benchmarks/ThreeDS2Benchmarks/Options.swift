import Foundation

/// The command line: `[--quick] [--only TEXT] [--peer PYTHON]`.
struct Options: Sendable {
    /// `--quick`: three rounds of a twentieth of the calls, for a check that the measurements run, not for figures.
    let quick: Bool
    /// `--only TEXT`: only the measurements whose name contains TEXT (case-insensitive).
    let only: String?
    /// `--peer PYTHON`: the Python that runs the independent peer (`Interop/client_cost_peer.py`).
    let peerPython: String?

    init(arguments: [String]) {
        func value(after option: String) -> String? {
            arguments.firstIndex(of: option).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        }
        quick = arguments.contains("--quick")
        only = value(after: "--only")
        peerPython = value(after: "--peer")
    }

    /// How many rounds each measurement takes; the median round counts.
    var rounds: Int { quick ? 3 : 15 }

    /// The calls per round: `iterations` in a full run, a twentieth of them with `--quick`.
    func scaled(_ iterations: Int) -> Int { quick ? max(1, iterations / 20) : iterations }

    /// Whether `--only` selects the section `name` (the whole challenges, the TestLab under load).
    func includes(_ name: String) -> Bool {
        guard let only else { return true }
        return name.localizedCaseInsensitiveContains(only)
    }
}
