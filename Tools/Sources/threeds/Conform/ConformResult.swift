import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages

/// One check of a `conform` case: a CRes audited in full, or one behaviour of the ACS (the right answer's status,
/// the wrong answers' limit, …). A JUnit test case each.
struct ConformCheck {
    enum Status: String, CaseIterable {
        /// `error`: the case could not run for a reason of the run's own (TLS, an unreachable or failing 3DS Server
        /// or command), never the ACS's: no finding, a JUnit `<error>`, an exit status of its own.
        case passed, failed, skipped, error
    }

    /// What is checked (`CRes 1 conforms`, `right answer ends with transStatus Y`).
    let name: String
    var status: Status
    /// What was seen: why it failed or was skipped, or what passed.
    var message: String
    /// For a CRes check, every rule it broke, with the evidence.
    var findings: [ConformanceFinding] = []
    /// For a CRes check, its number in the challenge.
    var exchange: Int?
    /// For a message's audit, the message it audits (`ARes`, `ACS signed content`): what a check it blocks names.
    var subject: String?

    static func passed(_ name: String, _ message: String) -> ConformCheck {
        ConformCheck(name: name, status: .passed, message: message)
    }

    static func failed(_ name: String, _ message: String) -> ConformCheck {
        ConformCheck(name: name, status: .failed, message: message)
    }

    static func skipped(_ name: String, _ message: String) -> ConformCheck {
        ConformCheck(name: name, status: .skipped, message: message)
    }

    static func error(_ name: String, _ message: String) -> ConformCheck {
        ConformCheck(name: name, status: .error, message: message)
    }

    /// Passed when `condition` holds, failed otherwise; the message says what was seen either way.
    static func expect(_ condition: Bool, _ name: String, _ message: String) -> ConformCheck {
        ConformCheck(name: name, status: condition ? .passed : .failed, message: message)
    }
}

/// One case: one card, one suite, one payment.
struct ConformCase {
    let card: ConformPlan.Card
    let suite: ConformPlan.Suite
    var checks: [ConformCheck]
    /// Where the case's messages were saved, relative to the output folder.
    var messages: String?
    /// How the payment ended, in words.
    var outcome: String
    /// The 3DS Server's result after the challenge, in words (`Result (RReq): transStatus Y`), where it could tell.
    var result: String?

    /// `card …2000 2.2.0 right answer`.
    var title: String { "\(card.name) \(card.version) \(suite.title)" }

    var failed: [ConformCheck] { checks.filter { $0.status == .failed } }

    /// The rules broken in the case, each once.
    var rules: [ConformanceRule] {
        var seen: Set<ConformanceRule> = []
        return checks.flatMap(\.findings).map(\.rule).filter { seen.insert($0).inserted }
    }
}

/// A whole run's result, as the reports present it.
struct ConformResult {
    var server: String
    var cases: [ConformCase]

    var checks: [ConformCheck] { cases.flatMap(\.checks) }

    /// Whether something is broken (exit status 1).
    var broken: Bool { checks.contains { $0.status == .failed } }

    /// The setup failures, each reason once, in the order first seen.
    var setupFailures: [String] {
        var seen: Set<String> = []
        return checks.filter { $0.status == .error }.map(\.message).filter { seen.insert($0).inserted }
    }

    /// The exit status: 1 when the ACS broke something, ``ExitStatus/setup`` when nothing was found broken but a
    /// case could not run, 0 otherwise.
    var exitStatus: Int32 { broken ? 1 : setupFailures.isEmpty ? 0 : ExitStatus.setup }

    /// Every finding, grouped by rule in the rules' declared order, each with its case.
    var findingsByRule: [(rule: ConformanceRule, evidence: [(ConformCase, ConformCheck, ConformanceFinding)])] {
        var groups: [ConformanceRule: [(ConformCase, ConformCheck, ConformanceFinding)]] = [:]
        for item in cases {
            for check in item.checks {
                for finding in check.findings { groups[finding.rule, default: []].append((item, check, finding)) }
            }
        }
        return ConformanceRule.allCases.compactMap { rule in groups[rule].map { (rule, $0) } }
    }
}
