import Foundation

/// What an app carries: the stripped size of the example app (core only) beside the CLI (core, NIO transport,
/// libxml2 reader, terminal UI, TestLab), built in the same mode as this executable.
enum BinarySizes {
    /// The root package's folder (this file is in `Tools/Benchmarks/ThreeDS2Benchmarks/`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The build configuration of this executable.
    #if DEBUG
        static let configuration = "debug"
    #else
        static let configuration = "release"
    #endif

    /// Where `name` is looked for: next to this executable (a shared scratch path), then in the tools package's own
    /// build folder (the example and the CLI are its products).
    static func candidates(_ name: String) -> [URL] {
        [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            root.appendingPathComponent("Tools/.build/\(configuration)/\(name)"),
        ]
    }

    /// One line per binary: its stripped size, or how to build it.
    static func report() throws -> [String] {
        var lines: [String] = []
        for name in ["minimal-checkout", "threeds"] {
            guard let binary = candidates(name).first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                lines.append(
                    "\(name): not built here (swift build --package-path Tools -c \(configuration) --product \(name))")
                continue
            }
            let stripped = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
            let strip = Process()
            strip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            strip.arguments = ["strip", "-o", stripped.path, binary.path]
            try strip.run()
            strip.waitUntilExit()
            let size = (try FileManager.default.attributesOfItem(atPath: stripped.path)[.size] as? Int) ?? 0
            try? FileManager.default.removeItem(at: stripped)
            lines.append("\(name) stripped: \(String(format: "%.1f", Double(size) / 1_048_576)) MB")
        }
        return lines
    }
}
