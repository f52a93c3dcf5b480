#if canImport(SwiftUI) && canImport(WebKit)
    import Foundation
    public import SwiftUI
    public import ThreeDS2SDK
    import WebKit

    /// A minimal host for the Split-SDK's web client in an app (the Shell variant, docs/split-sdk.md, "Web-view
    /// hosts"): a web view on the merchant's host page, which opens the challenge frame with `merchant.js`
    /// (`appHost: true`). Every decision is ``SplitShellHost``'s: what may load, what the page's messages mean, when
    /// the cardholder is back from the bank's app. The view loads nothing but the page's and the Split-SDK Server's
    /// origins, keeps no website data, and opens the bank's app only through `opener` when the page asks.
    @MainActor
    public struct SplitShellView: View {
        let host: SplitShellHost
        let opener: (any OOBAppOpener)?
        let onMessage: @MainActor (SplitShellHost.Message) -> Void
        @Environment(\.scenePhase) private var scenePhase
        @State private var model = SplitShellModel()

        /// A host view.
        ///
        /// - Parameters:
        ///   - host: The page and the Split-SDK Server.
        ///   - opener: Opens the bank's app (``SystemOOBAppOpener`` in an app; `nil`: every open fails, and the page
        ///     is told so).
        ///   - onMessage: Each message of the page, for the app (the end of the challenge, say).
        public init(
            host: SplitShellHost, opener: (any OOBAppOpener)?,
            onMessage: @escaping @MainActor (SplitShellHost.Message) -> Void
        ) {
            self.host = host
            self.opener = opener
            self.onMessage = onMessage
        }

        /// The web view, following the app's lifecycle for the return from the bank's app.
        public var body: some View {
            SplitShellWebView(host: host, model: model, opener: opener, onMessage: onMessage)
                .onNewValue(of: scenePhase) { phase in
                    if let phase = ChallengeScreenModel.AppPhase(phase) { model.phaseChanged(phase) }
                }
        }
    }

    /// What the host view keeps between updates: the web view it answers and the app switch in progress (nothing
    /// it draws: the view never updates for it).
    @MainActor
    final class SplitShellModel {
        weak var webView: WKWebView?
        private var appSwitch = SplitShellHost.AppSwitch()

        /// Whether the bank's app is open and the cardholder not back yet: another `openApp` is ignored then.
        var awaitingReturn: Bool { appSwitch.awaitingReturn }

        /// The opener's report on the page's `openApp`.
        func opened(_ result: OOBAppOpenResult) { tell(appSwitch.opened(result)) }

        /// The app's lifecycle.
        func phaseChanged(_ phase: ChallengeScreenModel.AppPhase) { tell(appSwitch.phaseChanged(phase)) }

        private func tell(_ result: OOBAppOpenResult?) {
            guard let result, let webView else { return }
            Task {
                _ = try? await webView.callAsyncJavaScript(
                    SplitShellHost.appResultScript(result), arguments: [:], in: nil, contentWorld: .page)
            }
        }
    }

    /// The platform web view of ``SplitShellView``.
    @MainActor
    struct SplitShellWebView {
        let host: SplitShellHost
        let model: SplitShellModel
        let opener: (any OOBAppOpener)?
        let onMessage: @MainActor (SplitShellHost.Message) -> Void

        func makeCoordinator() -> Coordinator {
            Coordinator(host: host, model: model, opener: opener, onMessage: onMessage)
        }

        func makeWebView(_ coordinator: Coordinator) -> WKWebView {
            let configuration = WKWebViewConfiguration()
            configuration.websiteDataStore = .nonPersistent()
            configuration.userContentController.add(coordinator, name: SplitShellHost.messageHandlerName)
            let view = WKWebView(frame: .zero, configuration: configuration)
            view.allowsLinkPreview = false
            view.navigationDelegate = coordinator
            model.webView = view
            view.load(URLRequest(url: host.pageURL))
            return view
        }

        /// Decides each load and reads each message with ``SplitShellHost``.
        @MainActor
        final class Coordinator: NSObject, WKNavigationDelegate, WKScriptMessageHandler {
            let host: SplitShellHost
            let model: SplitShellModel
            let opener: (any OOBAppOpener)?
            let onMessage: @MainActor (SplitShellHost.Message) -> Void

            init(
                host: SplitShellHost, model: SplitShellModel, opener: (any OOBAppOpener)?,
                onMessage: @escaping @MainActor (SplitShellHost.Message) -> Void
            ) {
                self.host = host
                self.model = model
                self.opener = opener
                self.onMessage = onMessage
            }

            func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
                -> WKNavigationActionPolicy
            {
                let isMainFrame = navigationAction.targetFrame?.isMainFrame ?? true
                return host.decide(url: navigationAction.request.url, isMainFrame: isMainFrame) == .allow
                    ? .allow : .cancel
            }

            func userContentController(
                _ userContentController: WKUserContentController, didReceive message: WKScriptMessage
            ) {
                // Only the host page itself speaks for the app, never a frame in it.
                guard message.frameInfo.isMainFrame, let text = message.body as? String,
                    let parsed = SplitShellHost.message(fromJSON: text)
                else { return }
                onMessage(parsed)
                guard case .openApp(let url) = parsed, !model.awaitingReturn else { return }
                let opener = opener
                let model = model
                Task {
                    let result = await opener?.open(url) ?? .failed
                    model.opened(result)
                }
            }
        }
    }

    #if canImport(UIKit)
        extension SplitShellWebView: UIViewRepresentable {
            func makeUIView(context: Context) -> WKWebView { makeWebView(context.coordinator) }
            func updateUIView(_ view: WKWebView, context: Context) {}
            // The user content controller keeps its handler: let go of it with the view.
            static func dismantleUIView(_ view: WKWebView, coordinator: Coordinator) {
                view.configuration.userContentController.removeScriptMessageHandler(
                    forName: SplitShellHost.messageHandlerName)
            }
        }
    #else
        extension SplitShellWebView: NSViewRepresentable {
            func makeNSView(context: Context) -> WKWebView { makeWebView(context.coordinator) }
            func updateNSView(_ view: WKWebView, context: Context) {}
            // The user content controller keeps its handler: let go of it with the view.
            static func dismantleNSView(_ view: WKWebView, coordinator: Coordinator) {
                view.configuration.userContentController.removeScriptMessageHandler(
                    forName: SplitShellHost.messageHandlerName)
            }
        }
    #endif
#endif
