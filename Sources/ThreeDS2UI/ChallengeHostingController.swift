#if canImport(UIKit) && canImport(SwiftUI)
    public import SwiftUI
    import UIKit

    /// The challenge UI for UIKit apps: present it modally with a ``SwiftUIChallengePresenter``'s model, run the
    /// challenge with that presenter, and dismiss it from the model's `onFinish`.
    public final class ChallengeHostingController: UIHostingController<ChallengeView> {
        /// Creates the controller.
        ///
        /// - Parameter presenter: The presenter the challenge runs with.
        public init(presenter: SwiftUIChallengePresenter) {
            super.init(rootView: ChallengeView(model: presenter.model))
            isModalInPresentation = true
        }

        /// Not available: the controller is made in code.
        @available(*, unavailable)
        @MainActor required dynamic init?(coder: NSCoder) {
            fatalError("ChallengeHostingController is created in code")
        }
    }
#endif
