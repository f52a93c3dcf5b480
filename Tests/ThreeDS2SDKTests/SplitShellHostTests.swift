import Foundation
import Testing
import ThreeDS2SDK

/// The Shell variant's web-view host, platform-neutral: what it loads, what the page's messages mean, what it tells
/// the page, and when the cardholder is back from the bank's app. The WebKit host (ThreeDS2UI) calls exactly these.
@Suite("Split-SDK web-view host")
struct SplitShellHostTests {
    static let host = try! SplitShellHost(
        pageURL: URL(string: "https://shop.example/pay/host.html")!,
        serverURL: URL(string: "https://split.example:8443/client/v1/frame.html")!)

    @Test("the page's origin in the top document, the server's in a frame, srcdoc frames; nothing else")
    func navigation() {
        let host = Self.host
        #expect(host.decide(url: URL(string: "https://shop.example/pay/host.html"), isMainFrame: true) == .allow)
        #expect(host.decide(url: URL(string: "https://SHOP.example:443/other"), isMainFrame: true) == .allow)
        #expect(
            host.decide(url: URL(string: "https://split.example:8443/client/v1/frame.html"), isMainFrame: false)
                == .allow)
        #expect(host.decide(url: URL(string: "about:srcdoc"), isMainFrame: false) == .allow)
        #expect(host.decide(url: URL(string: "about:srcdoc"), isMainFrame: true) == .refuse)
        #expect(
            host.decide(url: URL(string: "https://split.example:8443/client/v1/frame.html"), isMainFrame: true)
                == .refuse)
        #expect(
            host.decide(url: URL(string: "https://split.example/client/v1/frame.html"), isMainFrame: false) == .refuse)
        #expect(host.decide(url: URL(string: "http://shop.example/pay/host.html"), isMainFrame: true) == .refuse)
        #expect(host.decide(url: URL(string: "https://evil.example/"), isMainFrame: false) == .refuse)
        #expect(host.decide(url: URL(string: "bankapp://approve"), isMainFrame: true) == .refuse)
        #expect(host.decide(url: URL(string: "https://user:pw@shop.example/"), isMainFrame: true) == .refuse)
        #expect(host.decide(url: nil, isMainFrame: true) == .refuse)
    }

    @Test("https addresses only, plain http on loopback for tests")
    func addresses() throws {
        #expect(throws: ThreeDS2Error.self) {
            try SplitShellHost(
                pageURL: URL(string: "http://shop.example/")!, serverURL: URL(string: "https://s.example/")!)
        }
        #expect(throws: ThreeDS2Error.self) {
            try SplitShellHost(
                pageURL: URL(string: "https://shop.example/")!, serverURL: URL(string: "ftp://s.example/")!)
        }
        let local = try SplitShellHost(
            pageURL: URL(string: "http://127.0.0.1:8080/host.html")!, serverURL: URL(string: "http://localhost:9090/")!)
        #expect(local.decide(url: URL(string: "http://127.0.0.1:8080/host.html"), isMainFrame: true) == .allow)
    }

    @Test("the page's messages: the frame's events, an https app link only, bounded")
    func messages() {
        typealias Host = SplitShellHost
        #expect(Host.message(fromJSON: #"{"event":"ready"}"#) == .progress("ready"))
        #expect(Host.message(fromJSON: #"{"event":"challengeShown"}"#) == .challengeShown)
        #expect(
            Host.message(fromJSON: #"{"event":"openApp","url":"https://bank.example/a?t=1"}"#)
                == .openApp(URL(string: "https://bank.example/a?t=1")!))
        #expect(Host.message(fromJSON: #"{"event":"openApp","url":"bankapp://a"}"#) == nil)
        #expect(Host.message(fromJSON: #"{"event":"openApp"}"#) == nil)
        #expect(
            Host.message(fromJSON: #"{"event":"finished","outcome":{"kind":"completed","transStatus":"Y"}}"#)
                == .finished(kind: "completed", transStatus: "Y"))
        #expect(Host.message(fromJSON: #"{"event":"failed","reason":"timeout"}"#) == .failed("timeout"))
        #expect(Host.message(fromJSON: #"{"event":"somethingElse"}"#) == nil)
        #expect(Host.message(fromJSON: "not json") == nil)
        #expect(
            Host.message(fromJSON: #"{"event":"failed","reason":""# + String(repeating: "x", count: 5_000) + #""}"#)
                == nil)
    }

    @Test("the answer to the page is one of three constants")
    func appResultScript() {
        #expect(
            SplitShellHost.appResultScript(.returned)
                == "window.threedsHost && window.threedsHost.appResult('returned')")
        #expect(SplitShellHost.appResultScript(.opened).hasSuffix("appResult('opened')"))
        #expect(SplitShellHost.appResultScript(.failed).hasSuffix("appResult('failed')"))
    }

    @Test("the return from the bank's app: back in front after the background, not after a system sheet")
    func appSwitch() {
        var appSwitch = SplitShellHost.AppSwitch()
        #expect(appSwitch.phaseChanged(.background) == nil)
        #expect(appSwitch.phaseChanged(.active) == nil, "nothing was opened")
        #expect(appSwitch.opened(.opened) == nil)
        #expect(appSwitch.awaitingReturn)
        #expect(appSwitch.phaseChanged(.inactive) == nil)
        #expect(appSwitch.phaseChanged(.active) == nil, "a system sheet is no return")
        #expect(appSwitch.phaseChanged(.background) == nil)
        #expect(appSwitch.phaseChanged(.active) == .returned)
        #expect(!appSwitch.awaitingReturn)
        #expect(appSwitch.phaseChanged(.background) == nil)
        #expect(appSwitch.phaseChanged(.active) == nil, "told once")
        #expect(appSwitch.opened(.failed) == .failed)
        #expect(appSwitch.opened(.returned) == .returned)
    }
}
