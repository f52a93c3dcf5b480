import Clocks
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting

// Only the public API of ThreeDS2SDK and ThreeDS2SDKTesting, as an app's own test target imports them: no
// `@testable`, no tools SPI.

/// `authenticate` tested as an app tests its checkout: the shipped doubles only (a scripted ACS behind a scripted
/// transport, the requestor answering from the ACS with the AReq value it receives), no server (issue 35, point 5).
@Suite("authenticate tested as an app would, with the testing product's doubles", .timeLimit(.minutes(1)))
struct AuthenticateAsAnAppTests {
    /// The presenter an app might write: answers every screen with the code.
    struct CodePresenter: ChallengePresenter {
        let code: String
        func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
            var form = form
            _ = form.perform(.type(code))
            return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
        }
    }

    @Test("a code challenge completes Y: the requestor gets the AReq value, the ACS answers from it")
    func challengeCompletes() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("app-doubles"))
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(screens: [ScriptedACS.textScreen(for: .v2_2_0)], finalStatus: "Y")
        let indicator = RecordingProgressIndicator()
        let clock = TestClock()
        let payment = Task {
            await service.authenticate(
                directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: CodePresenter(code: "123456"),
                progress: indicator, transport: transport, clock: clock
            ) { areq in
                // What the app's backend receives: the SDK's part of the AReq, a JWK object as the key.
                #expect(areq.sdkEphemeralPublicKey["crv"] == "P-256" && areq.deviceChannel == .app)
                return .challenge(try acs.challengeParameters(for: areq))
            }
        }
        // The indicator stays its two seconds before the challenge screen: on the test clock, at once.
        await indicator.shown.wait()
        await clock.advance(by: .seconds(2))
        let outcome = await payment.value
        guard case .challenged(.completed(let status)) = outcome else {
            Issue.record("expected a completed challenge, got \(outcome)")
            return
        }
        #expect(status == .authenticated)
        #expect(
            indicator.events == [.show(ProcessingScheme(directoryServerID: "A000000004", name: "Test Scheme")), .hide])
        // Two CReqs: the first (no answer), then the code, as the ACS read them.
        let requests = transport.log.requests
        #expect(requests.count == 2)
        let last = try acs.challengeRequest(in: try #require(requests.last))
        #expect(last["challengeDataEntry"] == .string("123456"))
    }

    @Test("a frictionless answer ends the payment without a challenge and without a CReq")
    func frictionless() async throws {
        let pki = try DirectoryServerPKI.make()
        let service = try pki.initializedService(dataDirectory: scratchDirectory("app-frictionless"))
        let transport = ScriptedACS(pki: pki).transport(screens: [], finalStatus: "Y")
        let outcome = await service.authenticate(
            directoryServerID: "A000000004", presenter: CodePresenter(code: "0"), transport: transport,
            clock: TestClock()
        ) { _ in .frictionless(transStatus: .authenticated) }
        guard case .frictionless(let status) = outcome else {
            Issue.record("expected frictionless, got \(outcome)")
            return
        }
        #expect(status == .authenticated && transport.log.requests.isEmpty)
    }
}
