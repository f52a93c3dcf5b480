// Apple-only: compiled and run by `.github/workflows/apple.yml` (`xcodebuild test` on an iOS Simulator).
#if os(iOS)
    import Foundation
    import Testing
    import ThreeDS2SDK
    import UIKit
    import WebKit

    @testable import ThreeDS2UI

    /// Waits for the coordinator's first decision, or gives up after a bound (WebKit works in another process).
    @MainActor
    private final class DecisionWaiter {
        private(set) var decisions: [WebViewPolicy.Decision] = []
        /// The coordinator: the web view holds its navigation delegate weakly (SwiftUI's context holds it in an app).
        var coordinator: ChallengeWebView.Coordinator?

        func record(_ decision: WebViewPolicy.Decision) { decisions.append(decision) }

        /// Polls until a decision came or the bound passed; WebKit's own work needs real time here.
        func first(within seconds: Double = 20) async throws -> WebViewPolicy.Decision? {
            let deadline = Date().addingTimeInterval(seconds)
            while decisions.isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
            return decisions.first
        }
    }

    /// The web-view coordinator in WebKit: the page is loaded locked down and rewritten, a form submitted by
    /// pressing its button reaches the policy with its data, for a GET and a POST form alike.
    @MainActor
    @Suite("The HTML challenge web view on iOS")
    struct ChallengeWebViewAppleTests {
        static func page(method: String) -> String {
            """
            <html><body><form method="\(method)" action="HTTPS://EMV3DS/challenge">
            <input type="hidden" name="txid" value="8a1f"><input id="otp" name="otp" value="1234">
            <button id="verify" type="submit" name="action" value="verify">Verify</button>
            <button type="submit" name="action" value="cancel">Cancel</button>
            </form></body></html>
            """
        }

        @Test(
            "a GET and a POST form submit their data, the pressed button's value included", arguments: ["get", "post"])
        func submits(method: String) async throws {
            let waiter = DecisionWaiter()
            let webView = ChallengeWebView(html: Self.page(method: method)) { waiter.record($0) }
            let coordinator = webView.makeCoordinator()
            waiter.coordinator = coordinator
            let view = webView.makeWebView(coordinator)
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            window.addSubview(view)
            view.frame = window.bounds
            window.isHidden = false
            defer { window.isHidden = true }
            // The page's own scripts are off; the test presses the button from the app's content world.
            let deadline = Date().addingTimeInterval(20)
            var ready = false
            while !ready, Date() < deadline {
                let count = try? await view.callAsyncJavaScript(
                    "return document.forms.length", arguments: [:], in: nil, contentWorld: .defaultClient)
                ready = (count as? Int) == 1
                if !ready { try await Task.sleep(nanoseconds: 50_000_000) }
            }
            #expect(ready, "the page loaded")
            _ = try await view.callAsyncJavaScript(
                "document.getElementById('verify').click(); return 1", arguments: [:], in: nil,
                contentWorld: .defaultClient)
            let decision = try await waiter.first()
            #expect(decision == .submit("txid=8a1f&otp=1234&action=verify"), "\(method)")
        }

        @Test("a link elsewhere is refused and the reserved open-app link opens the app")
        func links() async throws {
            let waiter = DecisionWaiter()
            let html = """
                <a id="away" href="https://example.com/">Away</a> <a id="app" href="https://emv3ds/openoobApp">App</a>
                """
            let webView = ChallengeWebView(html: html) { waiter.record($0) }
            let coordinator = webView.makeCoordinator()
            waiter.coordinator = coordinator
            let view = webView.makeWebView(coordinator)
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            window.addSubview(view)
            window.isHidden = false
            defer { window.isHidden = true }
            let deadline = Date().addingTimeInterval(20)
            var ready = false
            while !ready, Date() < deadline {
                let count = try? await view.callAsyncJavaScript(
                    "return document.links.length", arguments: [:], in: nil, contentWorld: .defaultClient)
                ready = (count as? Int) == 2
                if !ready { try await Task.sleep(nanoseconds: 50_000_000) }
            }
            #expect(ready)
            _ = try await view.callAsyncJavaScript(
                "document.getElementById('away').click(); document.getElementById('app').click(); return 1",
                arguments: [:], in: nil, contentWorld: .defaultClient)
            #expect(try await waiter.first() == .openApp, "the refused link is not reported; the open-app one is")
        }
    }
#endif
