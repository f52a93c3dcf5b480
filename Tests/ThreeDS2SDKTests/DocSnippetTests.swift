import Foundation
import Testing

@Suite("Documentation snippets")
struct DocSnippetTests {
    /// The repository's root, from this file's path.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The files the snippets are compiled in: here, in the tools package's run test, and in the Apple-only target.
    static let compiledFiles = [
        "Tests/ThreeDS2SDKTests/DocSnippets.swift",
        "Tools/Tests/ThreeDS2EndToEndTests/DocSnippetRunTests.swift",
        "Tests/ThreeDS2UISnippetTests/AppleSnippets.swift",
    ]

    /// The Markdown files whose Swift snippets an integrator copies: the README and every DocC article.
    static func documents() throws -> [String] {
        let catalogues = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Sources").path
        )
        .map { "Sources/\($0)" }
        .filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0 + "/Docs.docc").path) }
        var documents = ["README.md"]
        for catalogue in catalogues.sorted() {
            let articles = try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent(catalogue + "/Docs.docc").path)
            documents += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalogue)/Docs.docc/\($0)" }
        }
        return documents
    }

    /// The code without imports and without any white space, so formatting (indentation, wrapping, aligned
    /// comments) does not matter.
    static func normalized(_ text: String) -> String {
        text.split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("import ") }
            .joined()
            .filter { !$0.isWhitespace }
    }

    /// The ```swift blocks of a Markdown text.
    static func swiftBlocks(_ text: String) -> [String] {
        text.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("every Swift snippet of the README and the DocC articles is compiled, unchanged, in a compiled file")
    func snippetsCompiled() throws {
        let compiled = try Self.compiledFiles.map { Self.normalized(try read($0)) }.joined(separator: "|")
        var checked: [String: Int] = [:]
        for document in try Self.documents() {
            for snippet in Self.swiftBlocks(try read(document)) {
                // A package manifest's lines; AdoptionTests (tools package) holds them against the manifest's products.
                if snippet.hasPrefix("// Package.swift") { continue }
                #expect(compiled.contains(Self.normalized(snippet)), "\(document) snippet not compiled:\n\(snippet)")
                checked[document, default: 0] += 1
            }
        }
        // The README's one-call snippet, the integration article's and the challenge article's.
        #expect(checked["README.md"] == 1)
        #expect(checked["Sources/ThreeDS2SDK/Docs.docc/Integration.md", default: 0] >= 12, "\(checked)")
        #expect(checked["Sources/ThreeDS2SDK/Docs.docc/Challenge.md", default: 0] >= 3, "\(checked)")
    }

    @Test("the snippets show only Y and A as authenticated and put error messages, never descriptions, on screen")
    func honestOutcomes() throws {
        for document in try Self.documents() {
            for snippet in Self.swiftBlocks(try read(document)) {
                #expect(!snippet.contains("\"\\(error)\""), "\(document): an error's description shown:\n\(snippet)")
                #expect(!snippet.contains("authenticated: \\("), "\(document): every status called authenticated")
                if snippet.contains("\"authenticated\"") {
                    #expect(snippet.contains(".authenticated") && snippet.contains(".attempted"), "\(document)")
                }
            }
        }
    }
}
