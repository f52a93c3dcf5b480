import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

@Suite("Protocol values as types")
struct ProtocolValueTests {
    @Test("a transaction status keeps its letter, known or not, and decodes from an ARes field")
    func transactionStatus() throws {
        #expect(TransactionStatus.authenticated.rawValue == "Y" && "\(TransactionStatus.decoupled)" == "D")
        let unknown = TransactionStatus(rawValue: "Z")
        #expect(unknown.rawValue == "Z" && unknown != .authenticated)
        let statuses = [
            TransactionStatus.authenticated, .notAuthenticated, .unableToAuthenticate, .attempted,
            .challengeRequired, .decoupled, .rejected, .informational,
        ]
        #expect(statuses.map(\.rawValue).joined() == "YNUACDRI")
        struct ARes: Decodable { let transStatus: TransactionStatus }
        let decoded = try JSONDecoder().decode(ARes.self, from: Data(#"{"transStatus":"C"}"#.utf8))
        #expect(decoded.transStatus == .challengeRequired)
    }
}
