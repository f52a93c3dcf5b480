import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

@Suite("Web view policy for HTML challenges")
struct WebViewPolicyTests {
    @Test("only the SDK's own load is allowed; every other navigation is refused")
    func refusals() {
        #expect(WebViewPolicy.decide(url: URL(string: "about:blank"), isInitialLoad: true) == .allow)
        #expect(WebViewPolicy.decide(url: URL(string: "about:blank"), isInitialLoad: false) == .refuse)
        for url in [
            "https://acs.example/next", "http://emv3ds/challenge?a=1", "https://emv3ds.evil.example/challenge?a=1",
            "https://emv3ds/other", "javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi",
        ] {
            #expect(WebViewPolicy.decide(url: URL(string: url), isInitialLoad: false) == .refuse, "\(url)")
            #expect(WebViewPolicy.decide(url: URL(string: url), isInitialLoad: true) == .refuse, "\(url)")
        }
        #expect(WebViewPolicy.decide(url: nil, isInitialLoad: true) == .refuse)
    }

    @Test("the reserved URL becomes challengeHTMLDataEntry: the query of a GET, the body of a POST, bounded")
    func submissions() {
        #expect(
            WebViewPolicy.decide(
                url: URL(string: "HTTPS://EMV3DS/challenge?otp=1234&action=verify"), isInitialLoad: false)
                == .submit("otp=1234&action=verify"))
        #expect(WebViewPolicy.decide(url: URL(string: "https://emv3ds/challenge"), isInitialLoad: false) == .submit(""))
        #expect(
            WebViewPolicy.decide(
                url: URL(string: "https://emv3ds/challenge"), method: "POST", body: Array("otp=42&x=%20y".utf8),
                isInitialLoad: false) == .submit("otp=42&x=%20y"))
        let long = Array(("otp=" + String(repeating: "9", count: 253)).utf8)
        #expect(
            WebViewPolicy.decide(
                url: URL(string: "https://emv3ds/challenge"), method: "POST", body: long, isInitialLoad: false)
                == .refuse, "over 256 characters is never sent")
        #expect(
            WebViewPolicy.decide(
                url: URL(string: "https://emv3ds/challenge"), method: "POST", body: [0xFF], isInitialLoad: false)
                == .refuse)
        // The same as the native reader's link rule.
        #expect(HTMLForm.challengeQuery("https://emv3ds/challenge?a=1") == "a=1")
    }

    @Test("HTTPS://EMV3DS/openoobApp opens the bank's app (UI 06)")
    func openApp() {
        #expect(WebViewPolicy.decide(url: URL(string: "HTTPS://EMV3DS/openoobApp"), isInitialLoad: false) == .openApp)
    }

    @Test("the loaded document starts with a policy that allows no script and no network, images only inline")
    func lockedDown() {
        let document = WebViewPolicy.lockedDownDocument("<html><body><script>x()</script></body></html>")
        #expect(document.hasPrefix("<meta http-equiv=\"Content-Security-Policy\""))
        #expect(document.contains("script-src 'none'") && document.contains("default-src 'none'"))
        #expect(document.contains("img-src data:;") && document.contains("form-action https://emv3ds"))
        // No network source at all: an https image would be a tracking beacon.
        #expect(
            !WebViewPolicy.contentSecurityPolicy.replacingOccurrences(of: "form-action https://emv3ds", with: "")
                .contains("https:"))
        #expect(document.hasSuffix("<html><body><script>x()</script></body></html>"))
    }

    @Test("a web view's submission answers an HTML screen through the form state, bounded; UI 06 adds oobContinue")
    func webFormSubmission() throws {
        let html: [String: JSONValue] = ["acsHTML": .string(Base64.urlEncode(Array("<p>x</p>".utf8)))]
        var state = ChallengeFormState(screen: try formScreen("05", html))
        #expect(state.perform(.submitWebForm("otp=1"))?.answer == ChallengeAnswer(.submitHTML("otp=1")))
        var long = ChallengeFormState(screen: try formScreen("05", html))
        #expect(long.perform(.submitWebForm(String(repeating: "x", count: 257)))?.answer == nil && long.note != nil)
        var text = ChallengeFormState(screen: try formScreen("01"))
        #expect(text.perform(.submitWebForm("a=1"))?.answer == nil && text.note != nil)
        var oob = ChallengeFormState(screen: try formScreen("06", html, version: .v2_3_1))
        #expect(oob.perform(.submitWebForm("a=1"))?.answer == ChallengeAnswer(.submitHTML("a=1")))
    }
}
