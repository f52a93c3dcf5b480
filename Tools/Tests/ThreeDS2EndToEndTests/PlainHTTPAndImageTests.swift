import Clocks
import Foundation
import Testing
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

// The challenge's timers, cancellation and failures run on a test clock against a scripted ACS in
// ThreeDS2SDKTests (ChallengeTimerTests); what needs the lab's real HTTP(S) stays here.

@Suite("Plain http to the ACS (TestLab)")
struct PlainHTTPTests {
    @Test("plain http to the ACS is refused unless the configuration allows loopback http")
    func plainHTTP() async throws {
        let lab = try await LabPool.shared.lab(TestLabOptions(useTLS: false))
        let (_, refused, parameters, transport) = try await prepare(.text, lab: lab) {
            $0.allowsPlainHTTPLoopback = false
        }
        let outcome = try await refused.challenge(
            parameters, presenter: ScriptedPresenter(answers: []), timeout: .seconds(300), transport: transport,
            clock: TestClock())
        #expect(outcome.name == "runtimeError")
        let (_, allowed, allowedParameters, transport2) = try await prepare(.text, lab: lab)
        #expect(
            try await allowed.challenge(
                allowedParameters, presenter: ScriptedPresenter(answers: [.text("123456")]), timeout: .seconds(300),
                transport: transport2,
                clock: TestClock())
                == .completed(transStatus: .authenticated))
        try await transport.shutdown()
        try await transport2.shutdown()
    }
}

@Suite("Challenge images")
struct ImageTests {
    @Test("https only, bounded in size, fetched once per transaction")
    func loading() async throws {
        let lab = try await LabPool.shared.lab()
        let transport = try lab.makeTransport()
        let loader = ChallengeImageLoader(transport: transport)
        let base = lab.baseURL.absoluteString + "/images/"
        let issuer = ImageReference(url: base + "issuer-high.png", alternativeText: "issuer")
        let first = try #require(await loader.image(for: issuer))
        #expect(first.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(await loader.image(for: issuer) == first && loader.cachedCount == 1)
        #expect(await loader.image(for: ImageReference(url: base + "large.png", alternativeText: "big")) == nil)
        #expect(await loader.image(for: ImageReference(url: base + "missing.png", alternativeText: "none")) == nil)
        #expect(
            await loader.image(for: ImageReference(url: "http://127.0.0.1:1/x.png", alternativeText: "plain")) == nil)
        #expect(loader.cachedCount == 1)
        try await transport.shutdown()
    }
}
