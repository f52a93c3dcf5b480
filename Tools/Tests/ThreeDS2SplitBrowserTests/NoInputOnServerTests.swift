import Foundation
import Testing
import ThreeDS2BrowserSupport
import ThreeDS2JOSE
import ThreeDS2SDK
@_spi(ThreeDS2Tools) import ThreeDS2TestLab

/// The cardholder's inputs and the channel keys never reach the Split-SDK Server: a code unique to the run is typed in
/// the frame, every byte between the browser and the server is recorded (a TCP relay between them), the server's logs
/// are captured (every level) and its stored state is read, and all of it is searched for the code, the right code
/// and the channel key (whole and halves, from the TestLab's ACS, which derived it too) in raw, hex, base64,
/// base64url, URL-encoded and JSON-escaped forms. The same test with the test-only leaking client build must find the
/// code: so a search that finds nothing is a search that could have found something.
@Suite("Split-SDK: no input and no channel key on the server", .serialized)
struct NoInputOnServerTests {
    /// What one challenge left on the server's side, searched.
    struct Evidence {
        var findings: [LeakSearch.Finding]
        var recordedBytes: Int
        var code: String
    }

    /// A six-digit code (the lab's entry box takes six digits) unique to the run, never the lab's right code.
    static func uniqueCode() -> String {
        var code = ""
        repeat { code = String(format: "%06d", Int.random(in: 0..<1_000_000)) } while code == "123456"
        return code
    }

    /// A challenge with a unique wrong code, then the right one; everything the server saw, searched.
    static func challenge(leakingClient: Bool) async throws -> Evidence {
        let code = uniqueCode()
        return try await SplitRig.run(leakingClient: leakingClient) { rig, frame in
            let challenge = try await rig.startChallenge(frame)
            try await frame.waitForScreen()
            try await frame.enter(code)
            try await frame.submit()
            if leakingClient {
                // The leaking build's answer carries an extra member; whether or not the server goes on, the bytes
                // crossed the relay.
                try await frame.waitForAnswerHandled(note: "The code was not correct.")
            } else {
                try await frame.waitForText("The code was not correct. 2 attempts left.")
                try await frame.enter(SplitBrowserTests.rightCode)
                try await frame.submit()
                let finished = try await frame.page.event("finished")
                #expect(finished["outcome"]?.objectValue?["transStatus"]?.stringValue == "Y")
                let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
                // The code did cross: encrypted, to the ACS, which read it.
                #expect(record.requests.contains { $0["challengeDataEntry"]?.stringValue == code })
            }
            let key = try #require(await rig.lab.channelKeyForTests(acsTransID: challenge.acsTransactionID))
            let secrets: [LeakSearch.Secret] = [
                .init("the unique code \(code)", Array(code.utf8), wordBounded: true),
                .init("the right code", Array(SplitBrowserTests.rightCode.utf8), wordBounded: true),
                .init("the channel key", key), .init("the channel key's first half", Array(key[0..<16])),
                .init("the channel key's second half", Array(key[16..<32])),
            ]
            let haystacks = try await rig.everythingTheServerSaw()
            return Evidence(
                findings: LeakSearch.search(secrets, in: haystacks),
                recordedBytes: haystacks.map(\.bytes.count)
                    .reduce(0, +), code: code)
        }
    }

    @Test("the honest client: the code and the channel keys are nowhere in the traffic, the logs or the state")
    func honestClientLeaksNothing() async throws {
        let evidence = try await Self.challenge(leakingClient: false)
        #expect(evidence.recordedBytes > 10_000, "too little was recorded to search: \(evidence.recordedBytes) bytes")
        #expect(evidence.findings.isEmpty, "\(evidence.findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("an HTML page (UI 05): a code typed into the page's own form is nowhere on the server's side either")
    func htmlFormDataLeaksNothing() async throws {
        let code = Self.uniqueCode()
        let (findings, recorded) = try await SplitRig.run { rig, frame in
            let challenge = try await rig.startChallenge(frame, scenario: .html)
            try await frame.page.event("challengeShown")
            try await frame.enterPage()
            try await frame.browser.type(code, into: frame.browser.element("#otp"))
            try await frame.browser.click(frame.browser.element("button[value='verify']"))
            try await frame.page.enterFrame()
            try await frame.browser.waitUntil(
                "document.querySelector('.html iframe[data-ready]')?.contentDocument?.body?.innerText"
                    + ".includes('The code was not correct')")
            let record = try #require(await rig.lab.acsRecord(acsTransID: challenge.acsTransactionID))
            #expect(
                record.requests.contains { $0["challengeHTMLDataEntry"]?.stringValue?.contains("otp=\(code)") == true })
            let key = try #require(await rig.lab.channelKeyForTests(acsTransID: challenge.acsTransactionID))
            let secrets: [LeakSearch.Secret] = [
                .init("the unique code \(code)", Array(code.utf8), wordBounded: true), .init("the channel key", key),
            ]
            let haystacks = try await rig.everythingTheServerSaw()
            return (LeakSearch.search(secrets, in: haystacks), haystacks.map(\.bytes.count).reduce(0, +))
        }
        #expect(recorded > 10_000, "too little was recorded to search: \(recorded) bytes")
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("the test-only leaking client build is caught: the same search finds the code")
    func leakingClientIsCaught() async throws {
        let evidence = try await Self.challenge(leakingClient: true)
        let code = evidence.findings.filter { $0.secret.hasPrefix("the unique code") }
        #expect(!code.isEmpty, "the search did not find the code the leaking build sent")
        #expect(code.contains { $0.haystack.hasPrefix("client → server") })
    }
}
