#if canImport(SwiftUI) && canImport(WebKit)
    import Foundation
    import SwiftUI
    import ThreeDS2SDK
    import WebKit

    /// An HTML challenge page in a locked-down web view: JavaScript off, no persistent data, nothing loaded but the
    /// page (``WebViewPolicy/lockedDownDocument(_:)`` allows images only as `data:` URLs), no link previews, and
    /// every navigation decided by ``WebViewPolicy``: a submission or link to the SDK's reserved URL becomes
    /// `challengeHTMLDataEntry`, the open-app link opens the bank's app, anything else is refused. Main-actor
    /// isolated as the representable protocols it conforms to in the extensions below are.
    @MainActor
    struct ChallengeWebView {
        let html: String
        let decided: @MainActor (WebViewPolicy.Decision) -> Void

        func makeCoordinator() -> Coordinator { Coordinator(decided: decided) }

        func makeWebView(_ coordinator: Coordinator) -> WKWebView {
            let configuration = WKWebViewConfiguration()
            configuration.defaultWebpagePreferences.allowsContentJavaScript = false
            configuration.websiteDataStore = .nonPersistent()
            let view = WKWebView(frame: .zero, configuration: configuration)
            // A long press must not preview (load) a link's target outside the navigation policy.
            view.allowsLinkPreview = false
            view.navigationDelegate = coordinator
            coordinator.load(html, into: view)
            return view
        }

        /// Decides each navigation with the platform-neutral policy.
        @MainActor
        final class Coordinator: NSObject, WKNavigationDelegate {
            let decided: @MainActor (WebViewPolicy.Decision) -> Void
            private var loaded: String?
            private var loading = false

            init(decided: @escaping @MainActor (WebViewPolicy.Decision) -> Void) {
                self.decided = decided
            }

            func load(_ html: String, into view: WKWebView) {
                guard html != loaded else { return }
                loaded = html
                loading = true
                view.loadHTMLString(WebViewPolicy.lockedDownDocument(html), baseURL: nil)
            }

            func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
                -> WKNavigationActionPolicy
            {
                let request = navigationAction.request
                let decision = WebViewPolicy.decide(
                    url: request.url, method: request.httpMethod ?? "GET", body: request.httpBody.map { Array($0) },
                    isInitialLoad: loading && navigationAction.navigationType == .other)
                switch decision {
                case .allow:
                    loading = false
                    return .allow
                case .refuse:
                    return .cancel
                case .submit, .openApp:
                    decided(decision)
                    return .cancel
                }
            }
        }
    }

    #if canImport(UIKit)
        extension ChallengeWebView: UIViewRepresentable {
            func makeUIView(context: Context) -> WKWebView { makeWebView(context.coordinator) }
            func updateUIView(_ view: WKWebView, context: Context) { context.coordinator.load(html, into: view) }
        }
    #else
        extension ChallengeWebView: NSViewRepresentable {
            func makeNSView(context: Context) -> WKWebView { makeWebView(context.coordinator) }
            func updateNSView(_ view: WKWebView, context: Context) { context.coordinator.load(html, into: view) }
        }
    #endif
#endif
