import Testing
import ThreeDS2SDK
import ThreeDS2TestLab

@Suite("The TestLab's transaction bound, end to end")
struct LabBoundTests {
    @Test("A lab bounded to two transactions forgets the oldest challenge and refuses its CReqs")
    func labBound() async throws {
        let options = TestLabOptions(maxTransactions: 2)
        let first = try await run(.text, answers: [.text("123456")], options: options)
        #expect(first.record != nil)
        let acsTransID = try #require(first.authentication.challengeParameters?.acsTransactionID)
        for _ in 0..<2 { _ = try await run(.text, answers: [.text("123456")], options: options) }
        #expect(await first.lab.acsRecord(acsTransID: acsTransID) == nil)
        #expect(await first.lab.acsTransactionCount == 2)
        #expect(first.lab.authentications.count == 2)
    }
}
