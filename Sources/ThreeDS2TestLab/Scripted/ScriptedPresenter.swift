import Foundation
import Synchronization
import ThreeDS2HTML
public import ThreeDS2JOSE
public import ThreeDS2Messages
public import ThreeDS2SDK

/// One scripted answer, in the format of the `threeds pay --answers` file.
public enum ScriptedAnswer: Sendable, Hashable {
    /// Submit a text entry (an empty text submits nothing, `challengeNoEntry`).
    case text(String, whitelist: Bool? = nil)
    /// Submit these option keys.
    case select([String], whitelist: Bool? = nil)
    /// Submit the HTML form with these field values, pressing this button (value, name or label; the first
    /// submit button when `nil`).
    case html(fields: [String: String], button: String?, whitelist: Bool? = nil)
    /// Continue (out of band, information screens).
    case `continue`(whitelist: Bool? = nil)
    /// Ask for a new code.
    case resend
    /// Cancel.
    case cancel

    /// Reads one answer object: `{"action":"submit","text":"123456"}`, `{"action":"submit","select":["a"]}`,
    /// `{"action":"submit","html":{"fields":{…},"button":"…"}}`, `{"action":"continue"}`, `{"action":"resend"}`,
    /// `{"action":"cancel"}`; any may add `"whitelist": true|false`.
    ///
    /// - Throws: ``JOSEError`` with code `invalidHeader` describing what is wrong.
    public init(json object: JSONObject) throws(JOSEError) {
        let whitelist = object["whitelist"]?.boolValue
        switch object["action"]?.stringValue {
        case "submit":
            if let text = object["text"] {
                guard case .string(let value) = text else {
                    throw JOSEError(.invalidHeader, "answer \"text\" must be a string")
                }
                self = .text(value, whitelist: whitelist)
            } else if let select = object["select"] {
                guard case .array(let keys) = select, keys.allSatisfy({ $0.stringValue != nil }) else {
                    throw JOSEError(.invalidHeader, "answer \"select\" must be an array of strings")
                }
                self = .select(keys.compactMap(\.stringValue), whitelist: whitelist)
            } else if let html = object["html"] {
                guard case .object(let form) = html else {
                    throw JOSEError(.invalidHeader, "answer \"html\" must be an object")
                }
                var fields: [String: String] = [:]
                for member in form["fields"]?.objectValue?.members ?? [] {
                    guard case .string(let value) = member.value else {
                        throw JOSEError(.invalidHeader, "html field \(member.name) must be a string")
                    }
                    fields[member.name] = value
                }
                self = .html(fields: fields, button: form["button"]?.stringValue, whitelist: whitelist)
            } else {
                self = .text("", whitelist: whitelist)
            }
        case "continue": self = .continue(whitelist: whitelist)
        case "resend": self = .resend
        case "cancel": self = .cancel
        default: throw JOSEError(.invalidHeader, "answer \"action\" must be submit, continue, resend or cancel")
        }
    }

    /// Reads an answers file: a JSON array of answer objects.
    ///
    /// - Throws: ``JOSEError`` for malformed JSON or answers.
    public static func list(json data: [UInt8]) throws(JOSEError) -> [ScriptedAnswer] {
        guard case .array(let entries) = try JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 8)).parse(data)
        else {
            throw JOSEError(.invalidHeader, "the answers file must be a JSON array")
        }
        var answers: [ScriptedAnswer] = []
        for entry in entries {
            guard case .object(let object) = entry else {
                throw JOSEError(.invalidHeader, "each answer must be a JSON object")
            }
            answers.append(try ScriptedAnswer(json: object))
        }
        return answers
    }
}

/// A headless presenter that answers each screen from a script, in order, and records what it was shown. When
/// the script runs out, or an answer does not fit the screen, it cancels (and records why).
public final class ScriptedPresenter: ChallengePresenter {
    private struct State {
        var remaining: [ScriptedAnswer]
        var screens: [ChallengeScreen] = []
        var problems: [String] = []
        var outcome: ChallengeOutcome?
    }

    private let state: Mutex<State>

    /// Creates a presenter with a script.
    public init(answers: [ScriptedAnswer]) {
        state = Mutex(State(remaining: answers))
    }

    /// The screens shown so far.
    public var screens: [ChallengeScreen] { state.withLock { $0.screens } }
    /// Why the presenter had to cancel, if it did.
    public var problems: [String] { state.withLock { $0.problems } }
    /// The outcome it was dismissed with.
    public var outcome: ChallengeOutcome? { state.withLock { $0.outcome } }

    /// Answers from the script.
    public func present(_ screen: ChallengeScreen) async -> ChallengeAnswer {
        state.withLock { state in
            state.screens.append(screen)
            guard !state.remaining.isEmpty else {
                state.problems.append("no scripted answer for screen \(state.screens.count) (\(screen.uiType))")
                return ChallengeAnswer(.cancel)
            }
            switch Self.answer(state.remaining.removeFirst(), for: screen) {
            case .success(let answer):
                return answer
            case .failure(let mismatch):
                state.problems.append("screen \(state.screens.count): \(mismatch)")
                return ChallengeAnswer(.cancel)
            }
        }
    }

    /// Records the outcome.
    public func dismiss(outcome: ChallengeOutcome) async {
        state.withLock { $0.outcome = outcome }
    }

    /// The answer a scripted entry gives on a screen, found by applying it to the screen's form state as a
    /// cardholder would act; `nil`, with the form state's note, when the entry does not fit the screen.
    static func answer(_ answer: ScriptedAnswer, for screen: ChallengeScreen) -> Result<ChallengeAnswer, Mismatch> {
        var state = ChallengeFormState(screen: screen, htmlReader: LibXML2FormReader())
        let actions: [FormAction]
        let trust: Bool?
        switch answer {
        case .text(let text, let whitelist):
            (actions, trust) = ([.setEntry(text), .submit()], whitelist)
        case .select(let keys, let whitelist):
            (actions, trust) = ([.select(keys), .submit()], whitelist)
        case .html(let fields, let button, let whitelist):
            (actions, trust) = ([.setHTMLFields(fields), .submit(button: button)], whitelist)
        case .continue(let whitelist):
            (actions, trust) = ([.continueChallenge], whitelist)
        case .resend:
            (actions, trust) = ([.resend], nil)
        case .cancel:
            (actions, trust) = ([.cancel], nil)
        }
        if let trust { _ = state.apply(.setTrust(trust)) }
        for action in actions {
            if let result = state.apply(action) { return .success(result) }
            if let note = state.note { return .failure(Mismatch(description: note)) }
        }
        return .failure(Mismatch(description: "the answer does not fit a \(screen.uiType) screen"))
    }

    /// Why a scripted answer did not fit its screen.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }
}
