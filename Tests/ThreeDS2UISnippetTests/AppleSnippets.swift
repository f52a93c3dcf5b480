// The DocC articles' Apple-only snippets (SwiftUI, UIKit), compiled by the Apple workflow: pasted here unchanged
// with the names they take from the text around them (`Backend`). `DocSnippetTests` (in ThreeDS2SDKTests) checks that
// every snippet of the README and the articles appears in a compiled file; this target is declared only when the
// manifest is evaluated on an Apple host.
#if canImport(SwiftUI)
    import Foundation
    import SwiftUI
    import Testing
    import ThreeDS2SDK
    import ThreeDS2UI

    /// The app's backend call the snippets name. Compiled, not run: it never answers.
    enum Backend {
        static func authenticate(_ areq: AuthenticationRequest) async throws -> RequestorResult {
            throw CancellationError()
        }
    }

    /// How the app words a final `transStatus`: `Y` and `A` authenticate the cardholder, nothing else does.
    func verdict(_ transStatus: TransactionStatus) -> String {
        transStatus == .authenticated || transStatus == .attempted ? "authenticated" : "not authenticated"
    }

    struct CheckoutView: View {
        let service: ThreeDS2Service  // initialized once at launch
        @State private var presenter: SwiftUIChallengePresenter?
        @State private var status = ""

        var body: some View {
            VStack {
                Button("Pay") { Task { await pay() } }
                Text(status)
            }
            .sheet(
                isPresented: Binding(
                    get: { @MainActor in presenter != nil }, set: { @MainActor in if !$0 { presenter = nil } })
            ) {
                if let presenter { ChallengeView(model: presenter.model).interactiveDismissDisabled() }
            }
        }

        func pay() async {
            let challengePresenter = SwiftUIChallengePresenter()
            do {
                let transaction = try service.createTransaction(directoryServerID: "A000000004")
                defer { transaction.close() }
                let areq = try transaction.authenticationRequest(presenter: challengePresenter)
                switch try await Backend.authenticate(areq) {
                case .frictionless(let transStatus):
                    status = verdict(transStatus)
                case .challenge(let parameters):
                    presenter = challengePresenter  // shows the sheet
                    let outcome = try await transaction.challenge(parameters, presenter: challengePresenter)
                    presenter = nil
                    switch outcome {
                    case .completed(let transStatus): status = verdict(transStatus)  // Y or A: authenticated
                    case .cancelled: status = "cancelled"
                    case .timedOut: status = "timed out"
                    case .protocolError, .runtimeError: status = service.cardholderText(for: outcome)  // the SDK's text
                    }
                }
            } catch let error as ThreeDS2Error {
                presenter = nil
                status = service.cardholderText(for: .failed(error))  // `error.description` is for your logs
            } catch {
                presenter = nil
                status = "the payment server could not be reached; please try again"
            }
        }
    }

    // The one-call pattern (Integration.md): the sheet from the start of the payment, the presenter as the indicator.
    struct OneCallCheckoutView: View {
        let service: ThreeDS2Service  // initialized once at launch
        @State private var presenter: SwiftUIChallengePresenter?
        @State private var status = ""

        var body: some View {
            VStack {
                Button("Pay") { Task { await pay() } }
                Text(status)
            }
            .sheet(
                isPresented: Binding(
                    get: { @MainActor in presenter != nil }, set: { @MainActor in if !$0 { presenter = nil } })
            ) {
                if let presenter { ChallengeView(model: presenter.model).interactiveDismissDisabled() }
            }
        }

        func pay() async {
            let challengePresenter = SwiftUIChallengePresenter()
            presenter = challengePresenter  // the sheet: the processing indicator, then any challenge screen
            let outcome = await service.authenticate(
                directoryServerID: .mastercard, presenter: challengePresenter, progress: challengePresenter
            ) { areq in
                try await Backend.authenticate(areq)
            }
            presenter = nil  // every outcome arrives after the SDK dismissed its screen
            switch outcome {
            case .frictionless(let transStatus), .challenged(.completed(let transStatus)):
                status = verdict(transStatus)  // Y or A: authenticated
            default:
                status = service.cardholderText(for: outcome)  // the SDK's text, in the locale given to initialize
            }
        }
    }

    @Suite("The Apple snippets' wording of an outcome")
    struct AppleSnippetTests {
        @Test("Y and A read as authenticated, every other status not")
        func verdicts() {
            #expect(verdict(.authenticated) == "authenticated" && verdict(.attempted) == "authenticated")
            for status in [TransactionStatus.notAuthenticated, .unableToAuthenticate, .rejected, .decoupled] {
                #expect(verdict(status) == "not authenticated")
            }
        }
    }
#endif

#if canImport(UIKit)
    import UIKit

    final class CheckoutViewController: UIViewController {
        var service: ThreeDS2Service!  // initialized once at launch

        @objc func pay() {
            Task { @MainActor in
                let presenter = SwiftUIChallengePresenter()
                do throws(ThreeDS2Error) {
                    let transaction = try service.createTransaction(directoryServerID: "A000000004")
                    defer { transaction.close() }
                    let areq = try transaction.authenticationRequest(presenter: presenter)
                    let progress = transaction.getProgressView(indicator: presenter, clock: ContinuousClock())
                    await progress.start()
                    let answer = try? await Backend.authenticate(areq)
                    await progress.stop()  // shown at least two seconds
                    let parameters: ChallengeParameters
                    switch answer {
                    case nil: return show("the payment server could not be reached; please try again")
                    case .frictionless(let transStatus): return show(verdict(transStatus))
                    case .challenge(let challenge): parameters = challenge
                    }
                    let controller = ChallengeHostingController(presenter: presenter)
                    controller.isModalInPresentation = true
                    presenter.model.onFinish = { [weak controller] _ in controller?.dismiss(animated: true) }
                    present(controller, animated: true)
                    let outcome = try await transaction.challenge(parameters, presenter: presenter)
                    switch outcome {
                    case .completed(let transStatus): show(verdict(transStatus))  // Y or A: authenticated
                    case .cancelled: show("cancelled")
                    case .timedOut: show("timed out")
                    case .protocolError, .runtimeError: show(service.cardholderText(for: outcome))  // the SDK's text
                    }
                } catch {
                    show(service.cardholderText(for: .failed(error)))  // `error.description` is for your logs
                }
            }
        }

        func show(_ text: String) { title = text }
    }

#endif
