import Foundation
import Testing

@Suite("DocC snippets")
struct DocSnippetTests {
    /// The package root, from this file's path.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The code without imports and without any white space, so formatting (indentation, wrapping, aligned
    /// comments) does not matter.
    private static func normalized(_ text: String) -> String {
        text.split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
            .joined()
            .filter { !$0.isWhitespace }
    }

    @Test("every Swift snippet of the Integration and Challenge articles is compiled in DocSnippets.swift")
    func snippetsCompiled() throws {
        let compiled = Self.normalized(
            try String(
                contentsOf: Self.root.appendingPathComponent("Tests/ThreeDS2SDKTests/DocSnippets.swift"),
                encoding: .utf8))
        var checked = 0
        for article in ["Integration", "Challenge"] {
            let text = try String(
                contentsOf: Self.root.appendingPathComponent("Sources/ThreeDS2SDK/Docs.docc/\(article).md"),
                encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst() {
                let snippet = block.components(separatedBy: "```").first ?? ""
                // The SwiftUI snippet is Apple-only; the Apple workflow compiles ThreeDS2UI.
                if snippet.contains("import ThreeDS2UI") { continue }
                // A package manifest's lines; AdoptionTests holds them against Package.swift's products.
                if snippet.hasPrefix("// Package.swift") { continue }
                let lines = Self.normalized(snippet)
                #expect(compiled.contains(lines), "\(article).md snippet not compiled:\n\(snippet)")
                checked += 1
            }
        }
        #expect(checked == 11)
    }
}
