import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages

/// The reports of a `conform` run: one terminal line per case, and the Markdown, JUnit XML and JSON files.
enum ConformReport {
    /// The files written to the output folder.
    static let markdownFile = "conform.md"
    static let junitFile = "conform-junit.xml"
    static let jsonFile = "conform.json"

    /// `[ 3/12] FAIL card …2000 2.2.0 right answer: cres.text.tooLong`, wrapped to the terminal.
    static func line(_ item: ConformCase, _ index: Int, _ total: Int) -> String {
        let width = String(total).count
        let number = String(repeating: " ", count: width - String(index).count) + String(index)
        let failed = item.failed
        let verdict: String
        let detail: String
        if item.checks.contains(where: { $0.status == .error }) {
            // The run's own failure, not the ACS's: named once, at the end (``summary(_:output:)``).
            verdict = "ERROR"
            detail = "could not run (setup failure, named below)"
        } else if !failed.isEmpty {
            verdict = "FAIL"
            let rules = item.rules.map(\.rawValue)
            detail = rules.isEmpty ? failed.map(\.name).joined(separator: "; ") : rules.joined(separator: ", ")
        } else if item.checks.allSatisfy({ $0.status == .skipped }) {
            verdict = "SKIP"
            detail = item.checks.first?.message ?? ""
        } else {
            verdict = "PASS"
            let passed = item.checks.filter { $0.status == .passed }.count
            detail = "\(passed) check\(passed == 1 ? "" : "s")"
        }
        return TerminalWidth.wrap(
            "[\(number)/\(total)] \(verdict) \(ReportText.line(item.title)): \(ReportText.line(detail))", indent: "    "
        )
    }

    /// The closing summary.
    static func summary(_ result: ConformResult, output: String) -> String {
        let checks = result.checks
        let count = { (status: ConformCheck.Status) in checks.filter { $0.status == status }.count }
        let rules = result.findingsByRule.count
        let errors = count(.error) == 0 ? "" : ", \(count(.error)) could not run"
        let setup = result.setupFailures.map {
            TerminalWidth.wrap("setup failure (not the ACS's): " + ReportText.line($0), indent: "    ") + "\n"
        }
        return setup.joined()
            + TerminalWidth.wrap(
                "\(result.cases.count) cases, \(checks.count) checks: \(count(.passed)) passed, \(count(.failed)) "
                    + "failed, \(count(.skipped)) skipped\(errors); \(rules) rule\(rules == 1 ? "" : "s") broken. "
                    + "Reports: \(output)/\(markdownFile), \(output)/\(junitFile), \(output)/\(jsonFile); messages in "
                    + "\(output)/messages.")
    }

    // MARK: Markdown

    /// The Markdown report: the rules broken, each with its evidence, then the behaviour checks that failed, then
    /// every case.
    static func markdown(_ result: ConformResult) -> String {
        var text = "# `threeds conform` report\n\n3DS Server: \(cell(result.server))\n\n"
        let failed = result.checks.filter { $0.status == .failed }.count
        text += result.broken ? "**\(failed) check\(failed == 1 ? "" : "s") failed.**\n\n" : "**Nothing broken.**\n\n"
        let setup = result.setupFailures
        if !setup.isEmpty {
            text += "## Setup failures\n\nThese cases could not run for a reason of the run's own, not the ACS's:\n\n"
            text += setup.map { "- \(cell($0))\n" }.joined() + "\n"
        }
        text += "## Rules broken\n\n"
        let groups = result.findingsByRule
        if groups.isEmpty { text += "None.\n\n" }
        for (rule, evidence) in groups {
            let code = rule.errorCode.map { "the SDK answers Erro \($0.rawValue)" } ?? "the SDK sends no Erro"
            let tolerance = rule.tolerance.map { " The SDK tolerates it (reported under --strict): \($0)." } ?? ""
            text +=
                "### `\(rule.rawValue)`\n\nRequirement: \(rule.requirement); \(code); reference: \(rule.reference). "
                + "Seen \(evidence.count) time\(evidence.count == 1 ? "" : "s").\(tolerance)\n\n"
            text += "| Case | Message | Field | Value seen | Requirement |\n|---|---|---|---|---|\n"
            for (item, check, finding) in evidence {
                let message = check.exchange.map { "CRes \($0)" } ?? rule.message.rawValue
                text +=
                    "| \(cell(item.title)) | \(cell(message)) | \(cell(finding.field)) | "
                    + "\(finding.value.map(cell) ?? "missing") | \(cell(finding.requirement)) |\n"
            }
            text += "\n"
        }
        text += "## Behaviour checks that failed\n\n"
        let behaviour = result.cases.flatMap { item in
            item.checks.filter { $0.status == .failed && $0.findings.isEmpty }.map { (item, $0) }
        }
        if behaviour.isEmpty { text += "None.\n\n" }
        for (item, check) in behaviour {
            text += "- \(cell(item.title)): \(cell(check.name)): \(cell(check.message))\n"
        }
        if !behaviour.isEmpty { text += "\n" }
        text += "## Cases\n\n| Case | Outcome | Checks | Messages |\n|---|---|---|---|\n"
        for item in result.cases {
            let counts = ConformCheck.Status.allCases.map { status in
                "\(item.checks.filter { $0.status == status }.count) \(status.rawValue)"
            }
            text +=
                "| \(cell(item.title)) | \(cell(item.outcome)) | \(counts.joined(separator: ", ")) | "
                + "\(item.messages.map(cell) ?? "not saved") |\n"
        }
        return text
    }

    /// Text in the Markdown report, a table cell or a line: one line, nothing in it that Markdown or HTML acts on
    /// (``ReportText/markdown(_:)``).
    static func cell(_ text: String) -> String { ReportText.markdown(text) }

    // MARK: JUnit

    /// The JUnit XML report: a test suite per case, a test case per check.
    static func junit(_ result: ConformResult) -> String {
        let all = result.checks
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"threeds conform\" tests=\"\(all.count)\" "
            + "failures=\"\(all.filter { $0.status == .failed }.count)\" "
            + "errors=\"\(all.filter { $0.status == .error }.count)\" "
            + "skipped=\"\(all.filter { $0.status == .skipped }.count)\">\n"
        for item in result.cases {
            let checks = item.checks
            xml +=
                "  <testsuite name=\"\(escape(item.title))\" tests=\"\(checks.count)\" "
                + "failures=\"\(checks.filter { $0.status == .failed }.count)\" "
                + "errors=\"\(checks.filter { $0.status == .error }.count)\" "
                + "skipped=\"\(checks.filter { $0.status == .skipped }.count)\">\n"
            let classname = escape("conform.\(item.card.name).\(item.card.version).\(item.suite.rawValue)")
            for check in checks {
                xml += "    <testcase classname=\"\(classname)\" name=\"\(escape(check.name))\""
                switch check.status {
                case .passed:
                    xml += "/>\n"
                case .skipped:
                    xml += ">\n      <skipped message=\"\(escape(check.message))\"/>\n    </testcase>\n"
                case .error:
                    xml += ">\n      <error message=\"\(escape(check.message))\" type=\"setup\"/>\n    </testcase>\n"
                case .failed:
                    let details = check.findings.map {
                        escape(
                            "\($0.rule.rawValue) \($0.field): \($0.explanation) (value: \($0.value ?? "missing"); "
                                + "required: \($0.requirement))")
                    }.joined(separator: "&#10;")
                    xml +=
                        ">\n      <failure message=\"\(escape(check.message))\" type=\"conformance\">"
                        + "\(details)</failure>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Text safe in XML content and attributes, on one line: controls and bidirectional controls written as `\u{…}`
    /// (``ReportText/line(_:)``), markup escaped, and the other characters XML 1.0 forbids written as `\u{…}`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in ReportText.line(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                let allowed = scalar.value >= 0x20 && !(0xFFFE...0xFFFF).contains(scalar.value)
                out += allowed ? String(scalar) : "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return out
    }

    // MARK: JSON

    /// The JSON report: every case with its checks and findings.
    static func json(_ result: ConformResult) -> JSONObject {
        JSONObject([
            ("server", text(result.server)), ("broken", .bool(result.broken)),
            ("rules", .array(result.findingsByRule.map { .string($0.rule.rawValue) })),
            ("cases", .array(result.cases.map { .object(caseJSON($0)) })),
        ])
    }

    private static func caseJSON(_ item: ConformCase) -> JSONObject {
        var object = JSONObject([
            ("card", text(item.card.name)), ("version", .string(item.card.version.rawValue)),
            ("kind", .string(item.card.kind.name)), ("suite", .string(item.suite.rawValue)),
            ("outcome", text(item.outcome)), ("rules", .array(item.rules.map { .string($0.rawValue) })),
        ])
        if let messages = item.messages { object["messages"] = .string(messages) }
        if let result = item.result { object["result"] = text(result) }
        object["checks"] = .array(
            item.checks.map { check in
                var entry = JSONObject([
                    ("name", text(check.name)), ("status", .string(check.status.rawValue)),
                    ("message", text(check.message)),
                ])
                if let exchange = check.exchange { entry["cres"] = .number(String(exchange)) }
                if !check.findings.isEmpty { entry["findings"] = .array(check.findings.map(findingJSON)) }
                return .object(entry)
            })
        return object
    }

    /// A string of the JSON report: one line, controls and bidirectional controls as visible escapes.
    private static func text(_ value: String) -> JSONValue { .string(ReportText.line(value)) }

    private static func findingJSON(_ finding: ConformanceFinding) -> JSONValue {
        var object = JSONObject([
            ("rule", .string(finding.rule.rawValue)), ("field", .string(finding.field)),
            ("requirement", .string(finding.requirement)), ("explanation", .string(finding.explanation)),
            ("errorDetail", .string(finding.errorDetail)),
        ])
        object["value"] = finding.value.map(JSONValue.string) ?? .null
        object["errorCode"] = finding.errorCode.map { .string($0.rawValue) } ?? .null
        return .object(object)
    }
}
