import Foundation
import Testing
import ThreeDS2SDK
import ThreeDS2TestLab

@Suite("The tools manual")
struct ReadmeTests {
    /// The tools manual's scenario table, as the TestLab describes its scenarios.
    static var expectedTable: String {
        (["| card | scenario |", "| --- | --- |"] + Scenario.allCases.map { "| \($0.cardNumber) | \($0.summary) |" })
            .joined(separator: "\n")
    }

    @Test("the tools manual's TestLab table lists every scenario exactly as the TestLab describes it")
    func scenarioTable() throws {
        // This file is in Tools/Tests/ThreeDS2TestLabTests/; the manual is Tools/README.md.
        let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: tools.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(Self.expectedTable + "\n"), "expected the table:\n\(Self.expectedTable)")
    }

    @Test("the root README pays through directory servers the TestLab configures (DocSnippetRunTests runs it)")
    func readmeNamesTheLabsDirectoryServers() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lab: Set<DirectoryServerID> = [TestLab.rsaDirectoryServerID, TestLab.ecDirectoryServerID]
        #expect(TestLab.rsaDirectoryServerID == .testRSA, "the README's snippet names .testRSA for the lab")
        #expect(readme.contains(".testRSA against the TestLab"))
        let named = readme.components(separatedBy: "--ds-id ").dropFirst().map {
            DirectoryServerID(String($0.prefix { !$0.isWhitespace }))
        }
        #expect(!named.isEmpty && named.allSatisfy(lab.contains), "README --ds-id values: \(named)")
    }
}
