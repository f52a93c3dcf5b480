import Clocks
import Foundation
import Testing
import ThreeDS2ACSKit
@_spi(ThreeDS2Tools) import ThreeDS2SDK
import ThreeDS2SDKTesting

@Suite("ScriptedACS on the one ACS channel: counters checked, raw patches reach the SDK")
struct ScriptedACSTests {
    /// Types the code and submits.
    struct CodeEntry: ChallengePresenter {
        func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
            var form = form
            _ = form.perform(.type("123456"))
            return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
        }
    }

    private func authenticate(
        _ acs: ScriptedACS, _ pki: DirectoryServerPKI, transport: ScriptedTransport, _ name: String
    )
        async throws -> AuthenticationOutcome
    {
        let service = try pki.initializedService(dataDirectory: scratchDirectory(name))
        return await service.authenticate(
            directoryServerID: "A000000004", messageVersion: .v2_2_0, presenter: CodeEntry(), transport: transport,
            clock: TestClock()
        ) { areq in .challenge(try acs.challengeParameters(for: areq)) }
    }

    @Test("the transport answers CReqs in counter order and refuses one sent again")
    func replayRefused() async throws {
        let pki = try DirectoryServerPKI.make()
        let acs = ScriptedACS(pki: pki)
        let transport = acs.transport(
            screens: [ScriptedACS.textScreen(for: .v2_2_0)], finalStatus: TransactionStatus.authenticated)
        let outcome = try await authenticate(acs, pki, transport: transport, "scripted-replay")
        guard case .challenged(.completed(.authenticated)) = outcome else {
            Issue.record("expected a completed challenge, got \(outcome)")
            return
        }
        let first = try #require(transport.log.requests.first)
        // The CReq decrypts again (the counters do not move for a reader) …
        #expect(try acs.challengeRequest(in: first)["sdkCounterStoA"] == .string("000"))
        // … but the ACS end has taken counter 000 already.
        await #expect(throws: TransportError.self) { try await transport.send(first) }
    }

    @Test("a screen sent with a raw patch is the CRes the SDK refuses, with the rule's Erro code")
    func patchedScreen() async throws {
        let pki = try DirectoryServerPKI.make()
        let acs = ScriptedACS(pki: pki)
        let transport = ScriptedTransport { request in
            if acs.errorMessage(in: request) != nil {
                return .respond(TransportResponse(status: 200, contentType: nil, body: []))
            }
            guard
                let response = try? acs.challengeResponse(
                    showing: ScriptedACS.textScreen(for: .v2_2_0), patched: .remove("challengeInfoHeader"))
            else { return .fail(TransportError(.other, "the CRes could not be made")) }
            return .respond(response)
        }
        let outcome = try await authenticate(acs, pki, transport: transport, "scripted-patch")
        guard case .challenged(.protocolError(let erro)) = outcome else {
            Issue.record("expected a protocol error, got \(outcome)")
            return
        }
        #expect(erro.errorCode == .requiredElementMissing && erro.errorDetail == "challengeInfoHeader")
        let sent = try #require(transport.log.requests.last.flatMap(acs.errorMessage(in:)))
        #expect(sent["errorCode"] == .string("201"))
    }

    @Test("without challenge parameters there is no channel: a CReq or a CRes is an error, not a crash")
    func noChannel() throws {
        let acs = ScriptedACS(pki: try DirectoryServerPKI.make())
        #expect(throws: (any Error).self) { try acs.finalResponse(transactionStatus: .authenticated) }
        #expect(throws: (any Error).self) {
            try acs.challengeRequest(
                in: TransportRequest(
                    method: .post, url: acs.acsURL, body: Array("a.b.c.d.e".utf8), timeout: .seconds(10),
                    maxResponseBytes: 1024))
        }
    }
}
