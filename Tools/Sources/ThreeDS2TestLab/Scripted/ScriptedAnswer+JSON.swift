public import ThreeDS2JOSE
import ThreeDS2SDK
public import ThreeDS2SDKTesting

/// Reading scripted answers from the `threeds pay --answers` file.
extension ScriptedAnswer {
    /// Reads one answer object: `{"action":"submit","text":"123456"}` (2.3.1 may add `"text2"`),
    /// `{"action":"submit","select":["a"]}`, `{"action":"submit","html":{"fields":{…},"button":"…"}}`,
    /// `{"action":"continue"}`, `{"action":"additional"}`, `{"action":"openApp"}` (optionally with
    /// `"result":"returned"|"opened"|"failed"`), `{"action":"resend"}`, `{"action":"cancel"}`; any may add
    /// `"whitelist": true|false` (the 2.2.0 whitelisting or 2.3.1 trust-list question) and
    /// `"deviceBinding": true|false`.
    ///
    /// - Throws: ``TestLabError`` with code `malformedAnswers` describing what is wrong.
    public init(json object: JSONObject) throws(TestLabError) {
        try Self.checkMembers(of: object)
        let whitelist = try Self.flag(object, "whitelist")
        let binding = try Self.flag(object, "deviceBinding")
        switch object["action"]?.stringValue {
        case "submit": self = try Self.submit(object, whitelist: whitelist, deviceBinding: binding)
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

    /// Rejects a member the answer's action does not take: a misspelt member ("txt") would otherwise be ignored and
    /// the answer sent without it. An unknown action is left to the caller.
    ///
    /// - Throws: ``TestLabError`` with code `malformedAnswers` naming the member and those the action takes.
    private static func checkMembers(of object: JSONObject) throws(TestLabError) {
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
    }

    /// Reads a `submit` answer: its `text` (and `text2`), `select` or `html` member, or an empty text when it has
    /// none.
    ///
    /// - Throws: ``TestLabError`` with code `malformedAnswers` when a member has the wrong type.
    private static func submit(
        _ object: JSONObject, whitelist: Bool?, deviceBinding binding: Bool?
    ) throws(TestLabError) -> ScriptedAnswer {
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
            return .text(value, second: second, whitelist: whitelist, deviceBinding: binding)
        } else if let select = object["select"] {
            guard case .array(let keys) = select, keys.allSatisfy({ $0.stringValue != nil }) else {
                throw TestLabError(.malformedAnswers, "answer \"select\" must be an array of strings")
            }
            return .select(keys.compactMap(\.stringValue), whitelist: whitelist, deviceBinding: binding)
        } else if let html = object["html"] {
            guard case .object(let form) = html else {
                throw TestLabError(.malformedAnswers, "answer \"html\" must be an object")
            }
            return .html(
                fields: try htmlFields(form), button: form["button"]?.stringValue, whitelist: whitelist,
                deviceBinding: binding)
        }
        return .text("", whitelist: whitelist, deviceBinding: binding)
    }

    /// The `fields` of an `html` answer: each name with its string value.
    ///
    /// - Throws: ``TestLabError`` with code `malformedAnswers` when a value is not a string.
    private static func htmlFields(_ form: JSONObject) throws(TestLabError) -> [String: String] {
        var fields: [String: String] = [:]
        for member in form["fields"]?.objectValue?.members ?? [] {
            guard case .string(let value) = member.value else {
                throw TestLabError(.malformedAnswers, "html field \(member.name) must be a string")
            }
            fields[member.name] = value
        }
        return fields
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
