import Clocks
import Foundation
import Logging
import Testing
import ThreeDS2BrowserSupport
import ThreeDS2JOSE
import ThreeDS2SDK
import ThreeDS2SDKTesting
@_spi(ThreeDS2Tools) import ThreeDS2TestLab

/// Everything one browser test stands on: the TestLab (DS, 3DS Server, ACS), the Split-SDK Server on a test clock with
/// its log captured, a recording relay between the browser and the server, the merchant's page on another site, and
/// the merchant's backend played by the test.
final class SplitRig {
    let lab: TestLab
    let merchant: MerchantBackend
    let server: SplitServerUnderTest
    let proxy: RecordingProxy
    let site: StaticSite
    /// The session of the running challenge (set by ``startChallenge(_:)``).
    private(set) var session = MerchantBackend.Session(id: "", clientToken: "", clientURL: "")

    private init(
        lab: TestLab, merchant: MerchantBackend, server: SplitServerUnderTest, proxy: RecordingProxy, site: StaticSite
    ) {
        self.lab = lab
        self.merchant = merchant
        self.server = server
        self.proxy = proxy
        self.site = site
    }

    /// Starts everything, runs `body` with a browser on the merchant's page, and stops everything.
    ///
    /// - Parameters:
    ///   - leakingClient: Whether the server serves the test-only leaking client build instead of the web client.
    ///   - body: The test.
    static func run<T>(leakingClient: Bool = false, _ body: (SplitRig, ChallengeFrame) async throws -> T)
        async throws -> T
    {
        let lab = try await SharedLab.shared.lab()
        let proxy = try await RecordingProxy.start()
        let site = try await StaticSite.start(host: "127.0.0.2", pages: MerchantPage.pages(serverURL: proxy.baseURL))
        let folder = try WebClientFolder.make(leaking: leakingClient)
        let server: SplitServerUnderTest
        do {
            server = try await SplitServerUnderTest.start(
                lab: lab, publicURL: proxy.baseURL, merchantOrigin: site.baseURL, webClient: folder)
        } catch {
            await proxy.stop()
            await site.stop()
            throw error
        }
        proxy.forward(to: server.port)
        let rig = SplitRig(
            lab: lab, merchant: MerchantBackend(serverURL: server.baseURL, apiKey: server.apiKey, lab: lab),
            server: server, proxy: proxy, site: site)
        defer { WebClientFolder.remove(folder, leaking: leakingClient) }
        do {
            let result = try await Browser.run(windowSize: (480, 900)) { browser in
                let page = ChallengeBrowser(browser: browser)
                return try await body(rig, ChallengeFrame(browser: browser, page: page))
            }
            await rig.stop()
            return result
        } catch {
            await rig.stop()
            throw error
        }
    }

    private func stop() async {
        await server.stop()
        await proxy.stop()
        await site.stop()
    }

    /// The merchant's side of a challenge up to the first screen: a session, the page opening the frame with its
    /// token, the AReq (once the client has started) and the ARes's challenge parameters posted to the server.
    func startChallenge(
        _ frame: ChallengeFrame, scenario: Scenario = .text, locale: String? = nil, host: String? = nil
    ) async throws -> ChallengeParameters {
        session = try await merchant.createSession(locale: locale, host: host)
        #expect(!session.clientURL.contains(session.clientToken), "the client URL carries the token")
        try await frame.page.open(
            checkoutURL: site.baseURL + "/checkout.html", clientURL: session.clientURL,
            clientToken: session.clientToken)
        try await frame.page.event("started")
        return try await merchant.authenticate(session, scenario: scenario)
    }

    /// Moves the server's clock.
    func advanceClock(by duration: Duration) async {
        await server.clock.advance(by: duration)
    }

    /// Every byte between the browser and the server (each connection, each way), the server's log and its stored
    /// state.
    func everythingTheServerSaw() async throws -> [LeakSearch.Haystack] {
        var haystacks: [LeakSearch.Haystack] = []
        for connection in proxy.connections {
            haystacks.append(.init("client → server, connection \(connection.number)", connection.sent))
            haystacks.append(.init("server → client, connection \(connection.number)", connection.received))
        }
        haystacks.append(.init("the server's log", Array(server.log.text.utf8)))
        haystacks.append(.init("the server's stored state", Array(try await server.storedState().utf8)))
        return haystacks
    }
}

/// The lab the browser tests share (a lab makes its keys at start).
actor SharedLab {
    static let shared = SharedLab()
    private var lab: TestLab?

    func lab() async throws -> TestLab {
        if let lab { return lab }
        let lab = try await TestLab.start(options: TestLabOptions())
        self.lab = lab
        return lab
    }
}

/// The web client's folder: the served one, or a temporary copy with the test-only leaking build in place of
/// `steps.js` (as the fixture's header says).
enum WebClientFolder {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let served = repository.appendingPathComponent("SplitSDK/Sources/ThreeDS2SplitServer/WebClient")
    static let leakyFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/leaky-client.js")

    static func make(leaking: Bool) throws -> URL {
        guard leaking else { return served }
        let folder = URL(fileURLWithPath: scratchDirectory("leaky-web-client")).appendingPathComponent("WebClient")
        try FileManager.default.copyItem(at: served, to: folder)
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("steps.js"), to: folder.appendingPathComponent("steps-honest.js"))
        try FileManager.default.copyItem(at: leakyFixture, to: folder.appendingPathComponent("steps.js"))
        return folder
    }

    static func remove(_ folder: URL, leaking: Bool) {
        if leaking { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    }
}
