import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2TestLab

/// What `threeds conform` runs (`--plan FILE`): the test cards, each with its version, the kind of challenge the ACS
/// should give, the right answer and optionally a wrong one. The format is documented in Tools/README.md.
struct ConformPlan {
    /// The kind of authentication a card should get: none, or a challenge whose first screen is of a UI type.
    enum Kind: Hashable {
        /// The ARes ends the payment.
        case frictionless
        /// A challenge whose first CRes shows a screen of this UI type.
        case challenge(UIType)

        /// Every kind a plan can name: frictionless, and a challenge of each UI type.
        static let all: [Kind] = [.frictionless] + UIType.allCases.map(Kind.challenge)

        /// The kind a plan names, if it names one.
        init?(name: String) {
            guard let kind = Self.all.first(where: { $0.name == name }) else { return nil }
            self = kind
        }

        /// The plan file's word for it: `frictionless`, or the UI type's (`text`, `singleSelect`, `multiSelect`,
        /// `outOfBand`, `html`, `htmlOutOfBand`, `information`).
        var name: String {
            switch self {
            case .frictionless: "frictionless"
            case .challenge(.text): "text"
            case .challenge(.singleSelect): "singleSelect"
            case .challenge(.multiSelect): "multiSelect"
            case .challenge(.outOfBand): "outOfBand"
            case .challenge(.html): "html"
            case .challenge(.htmlOutOfBand): "htmlOutOfBand"
            case .challenge(.information): "information"
            }
        }

        /// The `acsUiType` of the first screen.
        var uiType: UIType? {
            guard case .challenge(let uiType) = self else { return nil }
            return uiType
        }
    }

    /// A suite of cases run per card. `timeout` waits out the SDK's challenge timeout (five minutes) and runs only
    /// with `--slow`.
    enum Suite: String, CaseIterable {
        case right, wrong, resend, cancel, appSwitch, timeout

        /// How the terminal and the reports name it.
        var title: String {
            switch self {
            case .right: "right answer"
            case .wrong: "wrong answers"
            case .resend: "resend"
            case .cancel: "cancel"
            case .appSwitch: "app switch"
            case .timeout: "timeout"
            }
        }
    }

    /// One card of the plan.
    struct Card {
        var name: String
        var number: String
        var version: MessageVersion
        var kind: Kind
        var answers: [ScriptedAnswer]
        var wrongAnswer: ScriptedAnswer?
        var expectedStatus: TransactionStatus
        var suites: [Suite]
    }

    var amount = "1999"
    var currency = "978"
    var cards: [Card]

    /// The most wrong answers given before a case reports that the ACS sets no limit.
    static let maxWrongAnswers = 10

    /// Reads a plan file; every problem names the card and member at fault.
    static func read(_ path: String) throws -> ConformPlan {
        let text = try readInputFile(path, option: "--plan")
        func fail(_ message: String) -> CLIError { CLIError("--plan \(path): \(message)") }
        let root: JSONObject
        do {
            let value = try JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 12)).parse(Array(text.utf8))
            guard case .object(let object) = value else {
                let start = text.utf8.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? text.utf8.startIndex
                let offset = text.utf8.distance(from: text.utf8.startIndex, to: start)
                throw fail("not a JSON object: the top level is \(value.typeName) at \(position(offset, in: text))")
            }
            root = object
        } catch let error as CLIError {
            throw error
        } catch {
            throw fail("not JSON: \(parseProblem(error, in: text))")
        }
        if let unknown = root.names.first(where: { !["amount", "currency", "cards"].contains($0) }) {
            throw fail("unknown member \"\(unknown)\" (it takes \"amount\", \"currency\", \"cards\")")
        }
        var plan = ConformPlan(cards: [])
        if let amount = root["amount"] {
            guard let value = amount.stringValue, (try? InputCheck.amount(value)) != nil else {
                throw fail("\"amount\" must be a string of digits (minor units)")
            }
            plan.amount = value
        }
        if let currency = root["currency"] {
            guard let value = currency.stringValue, (try? InputCheck.currency(value)) != nil else {
                throw fail("\"currency\" must be an ISO 4217 numeric code as a string")
            }
            plan.currency = value
        }
        guard case .array(let entries)? = root["cards"], !entries.isEmpty else {
            throw fail("\"cards\" must be a non-empty array")
        }
        for (index, entry) in entries.enumerated() {
            guard case .object(let object) = entry else { throw fail("cards[\(index)] is not an object") }
            do {
                plan.cards.append(try card(object))
            } catch let error as PlanError {
                throw fail("cards[\(index)]: \(error.message)")
            }
        }
        return plan
    }

    /// Where a byte offset is in a text, as an editor shows it: `line 3, column 7` (columns in characters).
    static func position(_ offset: Int, in text: String) -> String {
        let bytes = text.utf8
        let end = bytes.index(bytes.startIndex, offsetBy: min(max(offset, 0), bytes.count))
        let before = text[..<(end.samePosition(in: text) ?? text.endIndex)]
        let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        let column = before.split(separator: "\n", omittingEmptySubsequences: false).last.map(\.count) ?? 0
        return "line \(line), column \(column + 1) (offset \(offset))"
    }

    /// The parser's problem with its place given as a line and column: it names a byte offset (`… at offset 42`).
    private static func parseProblem(_ error: any Error, in text: String) -> String {
        let message = (error as? JOSEError)?.message ?? "not JSON"
        guard let range = message.range(of: " at offset "), let offset = Int(message[range.upperBound...]) else {
            return message
        }
        return "\(message[..<range.lowerBound]) at \(position(offset, in: text))"
    }

    private struct PlanError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static let members = [
        "name", "card", "version", "kind", "answers", "wrongAnswer", "expectedStatus", "suites",
    ]

    private static func card(_ object: JSONObject) throws -> Card {
        if let unknown = object.names.first(where: { !members.contains($0) }) {
            throw PlanError("unknown member \"\(unknown)\"")
        }
        guard let number = object["card"]?.stringValue, (try? InputCheck.card(number)) != nil else {
            throw PlanError("\"card\" must be a card number of 12–19 digits, as a string")
        }
        guard let versionText = object["version"]?.stringValue, let version = MessageVersion(versionText),
            version.isSupported
        else { throw PlanError("\"version\" must be 2.1.0, 2.2.0 or 2.3.1") }
        let kinds = Kind.all.map(\.name).joined(separator: ", ")
        guard let kindText = object["kind"]?.stringValue, let kind = Kind(name: kindText) else {
            throw PlanError("\"kind\" must be one of \(kinds)")
        }
        if case .challenge(let uiType) = kind, !version.defines(uiType) {
            throw PlanError(
                "\"kind\" \(kind.name) needs version 2.3.1 (UI type \(uiType.rawValue) is not in \(versionText))")
        }
        let answers = try answerList(object["answers"], kind: kind)
        var wrong: ScriptedAnswer?
        if let value = object["wrongAnswer"] {
            guard case .object(let answer) = value else { throw PlanError("\"wrongAnswer\" must be one answer object") }
            do {
                wrong = try ScriptedAnswer(json: answer)
            } catch {
                throw PlanError("\"wrongAnswer\": \(error.message)")
            }
        } else if kind == .challenge(.text) {
            wrong = .text("000000")
        }
        var status = TransactionStatus.authenticated
        if let value = object["expectedStatus"] {
            guard let text = value.stringValue, text.count == 1 else {
                throw PlanError("\"expectedStatus\" must be one letter (Y, N, A, …)")
            }
            status = TransactionStatus(rawValue: text)
        }
        var suites = Suite.allCases
        if let value = object["suites"] {
            guard case .array(let names) = value, !names.isEmpty else {
                throw PlanError("\"suites\" must be a non-empty array")
            }
            suites = try names.map {
                guard let suite = $0.stringValue.flatMap(Suite.init(rawValue:)) else {
                    throw PlanError(
                        "\"suites\" entries must be " + Suite.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return suite
            }
        }
        let name = object["name"]?.stringValue ?? "card …" + number.suffix(4)
        return Card(
            name: name, number: number, version: version, kind: kind, answers: answers, wrongAnswer: wrong,
            expectedStatus: status, suites: suites)
    }

    private static func answerList(_ value: JSONValue?, kind: Kind) throws -> [ScriptedAnswer] {
        guard let value else {
            if kind == .frictionless { return [] }
            if kind == .challenge(.outOfBand) { return [.continue()] }
            throw PlanError("\"answers\" is missing (the right answer, in the --answers format)")
        }
        do {
            return try ScriptedAnswer.list(json: value.serializedBytes)
        } catch {
            throw PlanError("\"answers\": \(error.message)")
        }
    }
}
