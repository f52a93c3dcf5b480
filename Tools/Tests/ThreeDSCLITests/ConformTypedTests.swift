import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2TestLab

@testable import threeds

@Suite("conform typed: the plan's kind a UI type, the flow an enum, CRes and Erros read by the messages layer")
struct ConformTypedTests {
    static let card = ConformPlan.Card(
        name: "code", number: Scenario.text.cardNumber, version: .v2_2_0, kind: .challenge(.text),
        answers: [.text("123456")], wrongAnswer: .text("000000"), expectedStatus: .authenticated,
        suites: ConformPlan.Suite.allCases)

    /// An exchange whose CRes the messages layer read as `reading`; its JSON object is left empty, so a check that
    /// read fields by name would see nothing.
    static func exchange(_ number: Int, _ reading: ChallengeResponse) -> ConformExchange {
        ConformExchange(
            number: number, request: [:], response: .cres([:], ConformanceAudit(findings: [], reading: reading)))
    }

    static func screen(_ uiType: UIType, text: String = "Enter the code") -> ChallengeResponse {
        var screen = ChallengeScreen(uiType: uiType, messageVersion: .v2_2_0)
        screen.infoText = text
        screen.resendLabel = "Send again"
        return .screen(screen)
    }

    @Test("a plan names frictionless or a UI type's kind, each UI type once; the name round-trips")
    func kinds() {
        #expect(ConformPlan.Kind.all.count == UIType.allCases.count + 1)
        for kind in ConformPlan.Kind.all { #expect(ConformPlan.Kind(name: kind.name) == kind, "\(kind.name)") }
        #expect(ConformPlan.Kind(name: "htmlOutOfBand")?.uiType == .htmlOutOfBand)
        #expect(ConformPlan.Kind(name: "frictionless")?.uiType == nil)
        #expect(ConformPlan.Kind(name: "06") == nil && ConformPlan.Kind(name: "sms") == nil)
    }

    @Test("the flow is an enum; --json writes its name")
    func flow() {
        let payment = PaymentResult(flow: .frictionless, outcome: .frictionless, sdkTransID: "x")
        #expect(payment.json["flow"] == .string("frictionless"))
        #expect(PaymentResult.Flow(rawValue: "challenge") == .challenge)
    }

    @Test("the behaviour checks read the CRes the messages layer read: UI type, resend screen, final status")
    func typedReads() {
        var payment = PaymentResult(flow: .challenge, outcome: .completed, sdkTransID: "x")
        payment.challengeOutcome = .completed(transStatus: .authenticated)
        let exchanges = [
            Self.exchange(1, Self.screen(.text)), Self.exchange(2, Self.screen(.text, text: "Code sent again")),
            Self.exchange(3, .final(transStatus: .authenticated)),
        ]
        let checks = ConformChecks(card: Self.card, payment: payment, exchanges: exchanges, problems: [])
        let right = checks.checks(.right)
        #expect(right.first?.status == .passed, "\(right.map(\.message))")
        let resend = checks.checks(.resend)
        #expect(resend.first?.status == .passed, "\(resend.map(\.message))")
        let other = ConformChecks(
            card: Self.card, payment: payment, exchanges: [Self.exchange(1, Self.screen(.singleSelect))], problems: [])
        let wrongType = other.checks(.right)
        #expect(wrongType.first?.status == .failed)
        #expect(wrongType.first?.message == "a screen, acsUiType 02")
        #expect(ConformRunner.firstScreen(exchanges[0])?.offersResend == true)
        #expect(ConformRunner.firstScreen(exchanges[2]) == nil)
    }
}
