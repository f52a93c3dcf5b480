import Foundation
import ThreeDS2HTML
public import ThreeDS2JOSE
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

    /// Reads one answer object: `{"action":"submit","text":"123456"}` (2.3.1 may add `"text2"`),
    /// `{"action":"submit","select":["a"]}`, `{"action":"submit","html":{"fields":{…},"button":"…"}}`,
    /// `{"action":"continue"}`, `{"action":"additional"}`, `{"action":"openApp"}` (optionally with
    /// `"result":"returned"|"opened"|"failed"`), `{"action":"resend"}`, `{"action":"cancel"}`; any may add
    /// `"whitelist": true|false` (the 2.2.0 whitelisting or 2.3.1 trust-list question) and
    /// `"deviceBinding": true|false`.
    ///
    /// - Throws: ``TestLabError`` with code `malformedAnswers` describing what is wrong.
    public init(json object: JSONObject) throws(TestLabError) {
        // A misspelt member ("txt") would otherwise be ignored and the answer sent without it.
        let action = object["action"]?.stringValue ?? ""
        let allowed: [String] =
            ["action", "whitelist", "deviceBinding"]
            + (action == "submit" ? ["text", "text2", "select", "html"] : action == "openApp" ? ["result"] : [])
        let actions = ["submit", "continue", "additional", "openApp", "resend", "cancel"]
        if actions.contains(action), let unknown = object.names.first(where: { !allowed.contains($0) }) {
            throw TestLabError(
                .malformedAnswers,
                "answer \"\(action)\" has an unknown member \"\(unknown)\" (it takes "
                    + allowed.map { "\"\($0)\"" }.joined(separator: ", ") + ")")
        }
        let whitelist = try Self.flag(object, "whitelist")
        let binding = try Self.flag(object, "deviceBinding")
        switch object["action"]?.stringValue {
        case "submit":
            if let text = object["text"] {
                guard case .string(let value) = text else {
                    throw TestLabError(.malformedAnswers, "answer \"text\" must be a string")
                }
                var second: String?
                if let text2 = object["text2"] {
                    guard case .string(let value) = text2 else {
                        throw TestLabError(.malformedAnswers, "answer \"text2\" must be a string")
                    }
                    second = value
                }
                self = .text(value, second: second, whitelist: whitelist, deviceBinding: binding)
            } else if let select = object["select"] {
                guard case .array(let keys) = select, keys.allSatisfy({ $0.stringValue != nil }) else {
                    throw TestLabError(.malformedAnswers, "answer \"select\" must be an array of strings")
                }
                self = .select(keys.compactMap(\.stringValue), whitelist: whitelist, deviceBinding: binding)
            } else if let html = object["html"] {
                guard case .object(let form) = html else {
                    throw TestLabError(.malformedAnswers, "answer \"html\" must be an object")
                }
                var fields: [String: String] = [:]
                for member in form["fields"]?.objectValue?.members ?? [] {
                    guard case .string(let value) = member.value else {
                        throw TestLabError(.malformedAnswers, "html field \(member.name) must be a string")
                    }
                    fields[member.name] = value
                }
                self = .html(
                    fields: fields, button: form["button"]?.stringValue, whitelist: whitelist, deviceBinding: binding)
            } else {
                self = .text("", whitelist: whitelist, deviceBinding: binding)
            }
        case "continue": self = .continue(whitelist: whitelist, deviceBinding: binding)
        case "additional": self = .additional(whitelist: whitelist, deviceBinding: binding)
        case "openApp":
            switch object["result"]?.stringValue {
            case nil, "returned": self = .openApp(result: .returned)
            case "opened": self = .openApp(result: .opened)
            case "failed": self = .openApp(result: .failed)
            default: throw TestLabError(.malformedAnswers, "answer \"result\" must be returned, opened or failed")
            }
        case "resend": self = .resend
        case "cancel": self = .cancel
        default:
            throw TestLabError(
                .malformedAnswers, "answer \"action\" must be submit, continue, additional, openApp, resend or cancel")
        }
    }

    private static func flag(_ object: JSONObject, _ name: String) throws(TestLabError) -> Bool? {
        guard let value = object[name] else { return nil }
        guard case .bool(let flag) = value else {
            throw TestLabError(.malformedAnswers, "answer \"\(name)\" must be true or false")
        }
        return flag
    }

    /// Reads an answers file: a JSON array of answer objects.
    ///
    /// - Throws: ``TestLabError`` with code `malformedAnswers` for malformed JSON or answers (the JSON parser's
    ///   error as its cause).
    public static func list(json data: [UInt8]) throws(TestLabError) -> [ScriptedAnswer] {
        let root: JSONValue
        do {
            root = try JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 8)).parse(data)
        } catch {
            throw TestLabError(.malformedAnswers, error.message, underlying: error)
        }
        guard case .array(let entries) = root else {
            throw TestLabError(.malformedAnswers, "the answers file must be a JSON array")
        }
        var answers: [ScriptedAnswer] = []
        for entry in entries {
            guard case .object(let object) = entry else {
                throw TestLabError(.malformedAnswers, "each answer must be a JSON object")
            }
            answers.append(try ScriptedAnswer(json: object))
        }
        return answers
    }
}

/// A headless presenter that answers each screen from a script, in order, and records what it was shown. When
/// the script runs out, or an answer does not fit the screen, it cancels (and records why). An `openApp` answer
/// whose app does not come back keeps the screen, and the next answer applies to it.
public final class ScriptedPresenter: ChallengePresenter {
    private struct State {
        var remaining: [ScriptedAnswer]
        var screens: [ChallengeScreen] = []
        var problems: [String] = []
        var outcome: ChallengeOutcome?
    }

    private let state: Locked<State>
    /// Present when the script may open the bank's app (then 2.3.1 CReqs say `oobAppURLInd` `01`).
    public let oobAppOpener: (any OOBAppOpener)?

    /// Creates a presenter with a script.
    ///
    /// - Parameters:
    ///   - answers: One answer per screen (two where an app does not come back).
    ///   - opensApps: Whether the presenter says it can open the bank's app.
    public init(answers: [ScriptedAnswer], opensApps: Bool = true) {
        state = Locked(State(remaining: answers))
        oobAppOpener = opensApps ? FixedOOBAppOpener(result: .returned) : nil
    }

    /// The screens shown so far.
    public var screens: [ChallengeScreen] { state.withLock { $0.screens } }
    /// Why the presenter had to cancel, if it did.
    public var problems: [String] { state.withLock { $0.problems } }
    /// The outcome it was dismissed with.
    public var outcome: ChallengeOutcome? { state.withLock { $0.outcome } }

    /// Answers from the script.
    public func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
        let number = state.withLock { state in
            state.screens.append(screen)
            return state.screens.count
        }
        var form = ChallengeFormState(screen: screen, htmlReader: LibXML2FormReader())
        while true {
            let next: ScriptedAnswer? = state.withLock { $0.remaining.isEmpty ? nil : $0.remaining.removeFirst() }
            guard let next else { return refuse("no scripted answer for screen \(number) (\(screen.uiType))") }
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
            switch await state.perform(.openApp, opener: FixedOOBAppOpener(result: result)) {
            case .send(let answer): return .success(answer)
            case .showNote where !state.openedApp && !state.appOpenFailed, nil:
                return .failure(Mismatch(description: state.note ?? SDKStrings.english[.noteNoApp]))
            case .showNote, .openApp: return .success(nil)
            }
        }
        for action in answer.formActions {
            if let result = state.apply(action) { return .success(result) }
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
    /// `openApp` answer is the ``FormAction/openApp`` action; the opener decides what the app does). Every
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
