// Apple-only: compiled and run by `.github/workflows/apple.yml` (`xcodebuild test` on an iOS Simulator).
#if os(iOS)
    import Foundation
    import SwiftUI
    import Testing
    import ThreeDS2JOSE
    import ThreeDS2Messages
    import ThreeDS2SDK
    import UIKit

    @testable import ThreeDS2UI

    /// ChallengeView laid out in a window for every UI type, as an app shows it.
    @MainActor
    @Suite("ChallengeView on iOS")
    struct ChallengeViewAppleTests {
        /// The previews' screens (01–05, 07) and an HTML out-of-band screen (06).
        static let screens: [(String, JSONObject)] =
            PreviewScreens.all + [
                (
                    "HTML out of band",
                    [
                        "acsUiType": .string("06"),
                        "acsHTML": .string(
                            Base64.urlEncode(
                                Array(
                                    #"<form method="post" action="HTTPS://EMV3DS/challenge"><button name="action" value="approved">Done</button></form>"#
                                        .utf8))),
                    ]
                )
            ]

        @Test("each UI type is drawn, then cancelled")
        func everyUIType() async throws {
            var uiTypes: Set<String> = []
            for (name, fields) in Self.screens {
                let screen = try #require(PreviewScreens.screen(fields), "\(name)")
                uiTypes.insert(screen.uiType.rawValue)
                let presenter = SwiftUIChallengePresenter(oobAppOpener: nil)
                let controller = UIHostingController(rootView: ChallengeView(model: presenter.model))
                let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
                window.rootViewController = controller
                window.isHidden = false
                let answer = Task { await presenter.present(ChallengeFormState(screen: screen)) }
                for _ in 0..<10_000 where presenter.model.form == nil { await Task.yield() }
                #expect(presenter.model.form != nil, "\(name)")
                controller.view.setNeedsLayout()
                controller.view.layoutIfNeeded()
                #expect(controller.view.intrinsicContentSize != .zero || !controller.view.subviews.isEmpty, "\(name)")
                presenter.model.perform(.cancel)
                #expect(await answer.value.action == .cancel, "\(name)")
                window.isHidden = true
            }
            #expect(uiTypes == ["01", "02", "03", "04", "05", "06", "07"])
        }

        @Test("the processing indicator is drawn")
        func processing() {
            let presenter = SwiftUIChallengePresenter(oobAppOpener: nil)
            presenter.show(
                scheme: ProcessingScheme(directoryServerID: "A000000004", name: "Test Scheme"),
                presentation: PresentationSettings())
            let controller = UIHostingController(rootView: ChallengeView(model: presenter.model))
            let window = UIWindow(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            window.rootViewController = controller
            window.isHidden = false
            controller.view.layoutIfNeeded()
            #expect(
                presenter.model.phase
                    == .processing(ProcessingScheme(directoryServerID: "A000000004", name: "Test Scheme")))
            presenter.hide()
            window.isHidden = true
        }
    }
#endif
