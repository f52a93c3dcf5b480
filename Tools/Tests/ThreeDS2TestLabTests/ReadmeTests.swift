import Foundation
import Testing
import ThreeDS2TestLab

@Suite("README")
struct ReadmeTests {
    /// The README's scenario table, as the TestLab describes its scenarios.
    static var expectedTable: String {
        (["| card | scenario |", "| --- | --- |"] + Scenario.allCases.map { "| \($0.cardNumber) | \($0.summary) |" })
            .joined(separator: "\n")
    }

    @Test("the README's TestLab table lists every scenario exactly as the TestLab describes it")
    func scenarioTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(Self.expectedTable + "\n"), "expected the table:\n\(Self.expectedTable)")
    }
}
