import Foundation
import Testing
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
}
