import Foundation
public import ThreeDS2Messages
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

/// One scripted answer, in the format of the `threeds pay --answers` file.
public enum ScriptedAnswer: Sendable, Hashable {
    /// Submit a text entry, and in 2.3.1 a second one for the second entry box (empty texts submit nothing,
    /// `challengeNoEntry`).
    case text(String, second: String? = nil, whitelist: Bool? = nil, deviceBinding: Bool? = nil)
    /// Submit these option keys.
    case select([String], whitelist: Bool? = nil, deviceBinding: Bool? = nil)
    /// Submit the HTML form with these field values, pressing this button (value, name or label; the first
    /// submit button when `nil`).
    case html(fields: [String: String], button: String?, whitelist: Bool? = nil, deviceBinding: Bool? = nil)
    /// Continue (out of band, information screens).
    case `continue`(whitelist: Bool? = nil, deviceBinding: Bool? = nil)
    /// Press the additional-code button (2.3.1 `challengeAddLabel`).
    case additional(whitelist: Bool? = nil, deviceBinding: Bool? = nil)
    /// Press the open-app button; the bank's app then does `result`: `returned` continues on its own, `opened` and
    /// `failed` keep the screen for the next answer (a failure is reported in the next CReq).
    case openApp(result: OOBAppOpenResult = .returned)
    /// Ask for a new code.
    case resend
    /// Cancel.
    case cancel
}

/// A headless presenter that answers each screen from a script, in order, and records what it was shown. When
/// the script runs out, or an answer does not fit the screen, it cancels (and records why). An `openApp` answer
/// whose app does not come back keeps the screen, and the next answer applies to it.
public final class ScriptedPresenter: ChallengePresenter {
    private struct State {
        var remaining: [ScriptedAnswer]
        var forms: [ChallengeFormState] = []
        var problems: [String] = []
        var outcome: ChallengeOutcome?
    }

    private let state: Locked<State>
    /// Present when the script may open the bank's app (then 2.3.1 CReqs say `oobAppURLInd` `01`).
    public let oobAppOpener: (any OOBAppOpener)?
    /// The HTML reader the screens are built with, so scripted HTML answers fill the page's form.
    public let presentationOverrides: PresentationOverrides
    /// What the presenter says it draws (the AReq's `deviceRenderOptions`); every UI type of the version when `nil`.
    private let announcedRenderOptions: DeviceRenderOptions?

    /// Creates a presenter with a script.
    ///
    /// - Parameters:
    ///   - answers: One answer per screen (two where an app does not come back).
    ///   - opensApps: Whether the presenter says it can open the bank's app.
    ///   - htmlReader: Reads HTML screens into fields a scripted `html` answer fills (the tools pass
    ///     `LibXML2FormReader`); without one, an `html` answer does not fit and the presenter cancels.
    ///   - renderOptions: What the presenter says it draws, for an app that leaves out an interface or UI type
    ///     (the SDK then refuses a screen of another type with Erro 203); every UI type of the version when `nil`.
    public init(
        answers: [ScriptedAnswer], opensApps: Bool = true, htmlReader: (any HTMLFormReader)? = nil,
        renderOptions: DeviceRenderOptions? = nil
    ) {
        announcedRenderOptions = renderOptions
        state = Locked(State(remaining: answers))
        oobAppOpener = opensApps ? FixedOOBAppOpener(result: .returned) : nil
        presentationOverrides = PresentationOverrides(htmlReader: htmlReader)
    }

    /// The render options given at creation, else every interface and UI type of the version.
    ///
    /// - Parameter version: The transaction's message version.
    /// - Returns: The options.
    public func renderOptions(for version: MessageVersion) -> DeviceRenderOptions {
        announcedRenderOptions ?? .all(for: version)
    }

    /// The screens shown so far.
    public var screens: [ChallengeScreen] { state.withLock { $0.forms.map(\.screen) } }
    /// The form states the SDK handed over so far, as they were first drawn (the texts and look they carry).
    public var forms: [ChallengeFormState] { state.withLock { $0.forms } }
    /// Why the presenter had to cancel, if it did.
    public var problems: [String] { state.withLock { $0.problems } }
    /// The outcome it was dismissed with.
    public var outcome: ChallengeOutcome? { state.withLock { $0.outcome } }

    /// Answers from the script.
    ///
    /// - Parameter form: The screen's form state.
    /// - Returns: The scripted answer, or a cancel when the script has none that fits.
    public func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        let number = state.withLock { state in
            state.forms.append(form)
            return state.forms.count
        }
        var form = form
        while true {
            let next: ScriptedAnswer? = state.withLock { $0.remaining.isEmpty ? nil : $0.remaining.removeFirst() }
            guard let next else { return refuse("no scripted answer for screen \(number) (\(form.screen.uiType))") }
            switch await Self.apply(next, to: &form) {
            case .success(let answer?): return answer
            case .success(nil): continue
            case .failure(let mismatch): return refuse("screen \(number): \(mismatch)")
            }
        }
    }

    private func refuse(_ problem: String) -> ChallengeAnswer {
        state.withLock { $0.problems.append(problem) }
        return ChallengeAnswer(.cancel)
    }

    /// Records the outcome.
    public func dismiss(outcome: ChallengeOutcome) async {
        state.withLock { $0.outcome = outcome }
    }

    /// Applies a scripted entry to a screen's form state as a cardholder would act: the answer it gives, `nil` when
    /// the screen stays (an app that did not come back), or why it does not fit (the form state's note).
    static func apply(_ answer: ScriptedAnswer, to state: inout ChallengeFormState) async
        -> Result<ChallengeAnswer?, Mismatch>
    {
        if case .openApp(let result) = answer {
            var effect = state.perform(.openApp)
            if case .openApp(let url)? = effect {
                effect = state.perform(.appOpenResult(await FixedOOBAppOpener(result: result).open(url)))
            }
            switch effect {
            case .send(let answer): return .success(answer)
            case .showNote where !state.openedApp && !state.appOpenFailed, nil:
                return .failure(Mismatch(description: state.note ?? SDKStrings.english[.noteNoApp]))
            case .showNote, .openApp: return .success(nil)
            }
        }
        for action in answer.formActions {
            let effect = state.perform(action)
            if let answer = effect?.answer { return .success(answer) }
            if let note = state.note { return .failure(Mismatch(description: note)) }
        }
        return .failure(Mismatch(description: "the answer does not fit a \(state.screen.uiType) screen"))
    }

    /// Why a scripted answer did not fit its screen.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }
}

extension ScriptedAnswer {
    /// The cardholder's actions for this answer, in order: the consent answers, then what answers the screen (an
    /// `openApp` answer is the `FormAction.openApp` action; the opener decides what the app does). Every
    /// presenter that plays a script (the scripted presenter, the platform-neutral screen model of the SwiftUI view)
    /// sends the same actions.
    public var formActions: [FormAction] {
        var consents: [FormAction] = []
        func consent(_ trust: Bool?, _ binding: Bool?) {
            if let trust { consents.append(.setTrust(trust)) }
            if let binding { consents.append(.setDeviceBinding(binding)) }
        }
        let actions: [FormAction]
        switch self {
        case .text(let text, let second, let whitelist, let binding):
            consent(whitelist, binding)
            actions = [.setEntry(text)] + (second.map { [.setEntry($0, box: 1)] } ?? []) + [.submit()]
        case .select(let keys, let whitelist, let binding):
            consent(whitelist, binding)
            actions = [.select(keys), .submit()]
        case .html(let fields, let button, let whitelist, let binding):
            consent(whitelist, binding)
            actions = [.setHTMLFields(fields), .submit(button: button)]
        case .continue(let whitelist, let binding):
            consent(whitelist, binding)
            actions = [.continueChallenge]
        case .additional(let whitelist, let binding):
            consent(whitelist, binding)
            actions = [.additionalCode]
        case .openApp: actions = [.openApp]
        case .resend: actions = [.resend]
        case .cancel: actions = [.cancel]
        }
        return consents + actions
    }
}
