import Foundation
import Testing

/// What a newcomer meets first: the README as a front door, the documents beside it, the package line, the licence,
/// and no text that speaks of where the project was developed.
@Suite("The repository's front door")
struct FrontDoorTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("the README is at most 200 lines, with both commands and the approval status on its first screen")
    func readmeIsAFrontDoor() throws {
        let lines = try read("README.md").components(separatedBy: "\n")
        #expect(lines.count <= 200, "README.md has \(lines.count) lines")
        let firstScreen = lines.prefix(40).joined(separator: "\n")
        #expect(firstScreen.contains("swift run --package-path Tools threeds demo"))
        #expect(firstScreen.contains("scripts/test.sh"))
        #expect(firstScreen.contains("Not an EMVCo-approved SDK"))
        #expect(firstScreen.contains("0.x API"))
    }

    @Test("CONTRIBUTING, SECURITY, CHANGELOG and .spi.yml exist, and the README links them")
    func documentsBesideIt() throws {
        let readme = try read("README.md")
        for document in ["CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "Tools/README.md", "docs/choices.md"] {
            #expect(!(try read(document)).isEmpty)
            #expect(readme.contains("(\(document))"), "the README links \(document)")
        }
        #expect(try read(".spi.yml").contains("documentation_targets"))
        #expect(try read("CHANGELOG.md").contains("## 0.1.0"))
    }

    @Test("the package line works today (a path) and names the URL that stands in, with products the manifest declares")
    func packageLine() throws {
        let readme = try read("README.md")
        let article = try read("Sources/ThreeDS2SDK/Docs.docc/Integration.md")
        let manifest = try read("Package.swift")
        let block = try #require(
            readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
                .first { $0.hasPrefix("// Package.swift") })
        #expect(article.contains(block), "the README and the integration article show the same package line")
        #expect(block.contains(#".package(path: "../threeds2-swift")"#))
        #expect(block.contains(#"https://github.com/threeds2/threeds2-swift"#) && block.contains(#"from: "0.1.0""#))
        #expect(readme.contains("stands in until"))
        for product in ["ThreeDS2SDK", "ThreeDS2UI"] {
            #expect(block.contains(#".product(name: "\#(product)""#))
            #expect(manifest.contains(#"name: "\#(product)""#), "\(product) is a product of the package")
        }
        let licence = try read("LICENSE")
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        #expect(try read("NOTICE").contains("Apache License, Version 2.0"))
    }

    /// Every text file in git, with its contents.
    static func trackedTexts() throws -> [(path: String, text: String)] {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", root.path, "ls-files"]
        let pipe = Pipe()
        git.standardOutput = pipe
        try git.run()
        let listing = pipe.fileHandleForReading.readDataToEndOfFile()
        git.waitUntilExit()
        let kinds = [".md", ".swift", ".py", ".sh", ".yml", ".json"]
        return String(decoding: listing, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { path in kinds.contains { path.hasSuffix($0) } && !path.hasPrefix("Fuzz/Corpus/") }
            .compactMap { path in
                (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map { (path, $0) }
            }
    }

    @Test("no text speaks of where the project was developed or of files outside the repository")
    func noDevelopmentLore() throws {
        let files = try Self.trackedTexts()
        #expect(files.count > 100)
        // This file names the phrases it looks for.
        for (path, text) in files where path != "Tests/ThreeDS2SDKTests/FrontDoorTests.swift" {
            for phrase in ["development machine", "development image", "shared/docs", "seed 0", "seeds/"] {
                #expect(!text.contains(phrase), "\(path) mentions \"\(phrase)\"")
            }
        }
    }
}
