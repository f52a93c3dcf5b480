import Foundation
import Testing

@Suite("threeds without its resource folders: a copied binary pays in English, with one warning")
struct ResourceFolderCLITests {
    /// Runs the binary (the script's first argument) from a copy, in a mount namespace where an empty tmpfs covers
    /// the build folder; prints the exit status as `EXIT=<status>`.
    static let script = """
        set -e
        build=$(dirname "$(readlink -f "$1")")
        copy=$(mktemp -d)
        cp "$1" "$copy/threeds"
        shift
        status=0
        unshare --user --map-root-user --mount sh -c '
            mount -t tmpfs none "$1" || exit 90
            for found in "$1"/*.resources "$(dirname "$0")"/*.resources; do [ -e "$found" ] && exit 91; done
            shift
            cd / && exec "$0" "$@"' "$copy/threeds" "$build" "$@" || status=$?
        rm -rf "$copy"
        echo "EXIT=$status"
        """

    /// Copies the binary alone into a fresh folder and runs it in a mount namespace where an empty tmpfs covers the
    /// build folder, so neither the folder beside the copy nor the build path SwiftPM bakes into the binary holds a
    /// resource folder. SwiftPM's `Bundle.module` accessor stopped such a process on its first transaction (exit 132).
    @Test("demo --auto from a copy with no resource folder anywhere completes the challenge")
    func copiedBinary() async throws {
        let (_, output) = try await ThreedsRun(
            ["demo", "--auto", "--verbose", "--locale", "de"], launcher: .shell(Self.script)
        ).exit()
        #expect(output.contains("EXIT=0"), "\(output.suffix(2_000))")
        #expect(!output.contains("could not load resource bundle"))
        #expect(flattened(output).contains("ThreeDS2_ThreeDS2SDK.resources"), "one warning names the folder")
        #expect(output.components(separatedBy: "ThreeDS2_ThreeDS2SDK.resources on Linux").count == 2, "warned once")
    }

    /// The same copy, answering a challenge in line mode: the terminal presenter's own texts are missing too, so its
    /// questions are in English (compiled in) and it says once which folder it did not find.
    @Test("demo --line from a copy with no resource folder completes; one warning names the terminal's folder")
    func copiedBinaryTerminal() async throws {
        let (_, output) = try await ThreedsRun(
            ["demo", "--line", "--verbose", "--locale", "de"], input: "123456\n", launcher: .shell(Self.script)
        ).exit()
        #expect(output.contains("EXIT=0"), "\(output.suffix(2_000))")
        let named = flattened(output).components(separatedBy: "ThreeDS2Tools_ThreeDS2TerminalUI.resources on Linux")
        #expect(named.count == 2, "warned once: \(output.suffix(2_000))")
    }

    /// Without `--verbose` neither folder is named: the warnings go to the CLI's diagnostics logger, quiet by default,
    /// as the manual says (review L3); the challenge still completes in English.
    @Test("demo --line from a copy without --verbose completes and names no folder")
    func copiedBinaryQuiet() async throws {
        let (_, output) = try await ThreedsRun(
            ["demo", "--line", "--locale", "de"], input: "123456\n", launcher: .shell(Self.script)
        ).exit()
        #expect(output.contains("EXIT=0"), "\(output.suffix(2_000))")
        #expect(output.contains("Challenge completed"), "\(output.suffix(2_000))")
        #expect(!output.contains(".resources on Linux"), "\(output.suffix(2_000))")
    }
}
