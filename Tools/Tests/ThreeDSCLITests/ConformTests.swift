import Foundation
import FoundationXML
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@testable import threeds

/// `threeds conform` against the TestLab: nothing on the conformant lab, exactly the planted rules on each fault
/// profile, usage errors exit 2 (issue 38).
@Suite("threeds conform: an ACS conformance run")
struct ConformTests {
    /// The conform command line against a lab, with a plan file and a new output folder.
    static func command(_ lab: TestLab, _ pki: String, plan: String, output: String, _ extra: [String] = [])
        -> [String]
    {
        [
            "conform", "--server", lab.baseURL.absoluteString, "--ds-id", TestLab.rsaDirectoryServerID.rawValue,
            "--trust-bundle", pki, "--tls-root", pki + "/tls-root.pem", "--plan", plan, "--output", output,
        ] + extra
    }

    /// The JSON report a run wrote.
    static func report(_ output: String) throws -> JSONObject {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: output + "/conform.json")))
        return try #require(try JSONParser(limits: .init(maxBytes: 1 << 24, maxDepth: 16)).parse(bytes).objectValue)
    }

    /// Writes a plan and returns its path.
    static func writePlan(_ cards: [JSONValue], in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/plan.json"
        try Data(JSONObject([("cards", .array(cards))]).serializedBytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The plan's card entry for a fault profile in a version: the right answer of its scenario, that suite only.
    static func card(_ profile: ACSFaultProfile, _ version: MessageVersion) -> JSONValue {
        let (kind, answer): (String, JSONObject) =
            switch profile.scenario {
            case .singleSelect: ("singleSelect", ["action": .string("submit"), "select": .array([.string("sms")])])
            case .multiSelect:
                ("multiSelect", ["action": .string("submit"), "select": .array([.string("q1"), .string("q3")])])
            case .outOfBand: ("outOfBand", ["action": .string("continue")])
            case .html:
                (
                    "html",
                    [
                        "action": .string("submit"),
                        "html": .object([
                            "fields": .object(["otp": .string("123456")]), "button": .string("verify"),
                        ]),
                    ]
                )
            case .twoEntryBoxes:
                ("text", ["action": .string("submit"), "text": .string("123456"), "text2": .string("1990")])
            default: ("text", ["action": .string("submit"), "text": .string("123456")])
            }
        return .object(
            JSONObject([
                ("name", .string(profile.name)), ("card", .string(profile.cardNumber)),
                ("version", .string(version.rawValue)), ("kind", .string(kind)),
                ("answers", .array([.object(answer)])), ("suites", .array([.string("right")])),
            ]))
    }

    @Test("the worked example's plan on the conformant lab: 0 findings, every check passed or not offered, exit 0")
    func conformantLab() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let output = scratchDirectory("conform-ok") + "/report"
        let plan = ReadmeCommands.root.appendingPathComponent("Tools/scripts/conform-plan.json").path
        let run = try await runThreeds(Self.command(lab, pki, plan: plan, output: output))
        #expect(run.status == 0, "\(run.output)")
        #expect(WidthTests.overflowing(run.output, columns: 80).isEmpty, "\(run.output)")
        #expect(run.output.contains("PASS text code 2.2.0 wrong answers"), "\(run.output)")
        #expect(flattened(run.output).contains("0 failed"), "\(run.output)")
        let report = try Self.report(output)
        #expect(report["broken"] == .bool(false) && report["rules"] == .array([]), "\(report.serialized)")
        let cases = report["cases"]?.arrayValue ?? []
        // text: right, wrong, resend, cancel, appSwitch (not offered); out of band: right, cancel, appSwitch;
        // frictionless: right.
        #expect(cases.count == 9, "\(cases.count)")
        // The timeout suite is opt-in (--slow): without it, neither run nor listed.
        #expect(!cases.contains { $0.objectValue?["suite"] == .string("timeout") })
        let checks = cases.flatMap { $0.objectValue?["checks"]?.arrayValue ?? [] }.compactMap(\.objectValue)
        #expect(checks.allSatisfy { $0["status"] != .string("failed") })
        #expect(checks.filter { $0["status"] == .string("passed") }.count >= 20)
        let markdown = try String(contentsOfFile: output + "/conform.md", encoding: .utf8)
        #expect(markdown.contains("**Nothing broken.**") && markdown.contains("## Rules broken\n\nNone."))
        // Every exchange saved as --save-messages saves it; no channel key without the opt-in.
        let saved = try FileManager.default.subpathsOfDirectory(atPath: output + "/messages")
        #expect(saved.contains { $0.hasSuffix("cres-3.jwe") } && saved.contains { $0.hasSuffix("ares.json") })
        #expect(!saved.contains { $0.hasSuffix("keys.json") })
        // The JUnit file: one test case per check, read by an XML parser.
        let junit = try XMLDocument(contentsOf: URL(fileURLWithPath: output + "/conform-junit.xml"))
        #expect(try junit.nodes(forXPath: "//testcase").count == checks.count)
    }

    /// The lab's own conformant cards in `version`: each challenge scenario whose first screen is of the same UI type
    /// in every version, with its right answer (the UI types 2.3.1 added, in 2.3.1).
    static func labCards(_ version: MessageVersion) -> [JSONValue] {
        let submit: (String, JSONValue) -> JSONValue = { name, value in
            .object(JSONObject([("action", .string("submit")), (name, value)]))
        }
        var cards: [(Scenario, String, [JSONValue])] = [
            (.text, "text", [submit("text", .string("123456"))]),
            (.singleSelect, "singleSelect", [submit("select", .array([.string("sms")]))]),
            (.multiSelect, "multiSelect", [submit("select", .array([.string("q1"), .string("q3")]))]),
            (.outOfBand, "outOfBand", [.object(["action": .string("continue")])]),
            (
                .html, "html",
                [
                    submit(
                        "html",
                        .object(["fields": .object(["otp": .string("123456")]), "button": .string("verify")]))
                ]
            ),
        ]
        if version.defines(.information) {
            cards.append(
                (
                    .information, "information",
                    [.object(["action": .string("continue")]), submit("text", .string("123456"))]
                ))
        }
        return cards.map { scenario, kind, answers in
            .object(
                JSONObject([
                    ("name", .string("\(scenario.rawValue) \(version)")), ("card", .string(scenario.cardNumber)),
                    ("version", .string(version.rawValue)), ("kind", .string(kind)), ("answers", .array(answers)),
                    ("suites", .array([.string("right"), .string("cancel")])),
                ]))
        }
    }

    @Test(
        "conform --strict on the lab's own conformant cards, in each version: no finding (2.3.1's select limits kept)",
        arguments: MessageVersion.supported)
    func strictLab(version: MessageVersion) async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-strict-lab-\(version)")
        let plan = try Self.writePlan(Self.labCards(version), in: directory)
        let output = directory + "/report"
        let run = try await runThreeds(
            Self.command(
                lab, pki, plan: plan, output: output,
                ["--strict", "--requestor-app-url", "https://merchant.testlab.example/return"]))
        let report = try Self.report(output)
        #expect(run.status == 0, "\(version): \(run.output)")
        #expect(report["rules"] == .array([]), "\(version): \(report["rules"]?.serialized ?? "")")
        let checks = (report["cases"]?.arrayValue ?? []).compactMap(\.objectValue)
            .flatMap { $0["checks"]?.arrayValue ?? [] }.compactMap(\.objectValue)
        #expect(checks.contains { $0["status"] == .string("passed") })
        for check in checks where check["status"] == .string("failed") {
            Issue.record("\(version): \(check.serialized)")
        }
    }

    /// The options a profile's run needs: `--strict` for a rule the SDK tolerates (with the app URL the 2.2.0 Bridging
    /// link needs announced), `--no-app-opener` for a profile run without one.
    static func options(_ profile: ACSFaultProfile) -> [String] {
        if profile.withoutAppOpener { return ["--no-app-opener"] }
        return profile.needsStrict
            ? ["--strict", "--requestor-app-url", "https://merchant.testlab.example/return"] : []
    }

    @Test("each fault profile: exactly its planted rules, nothing else broken; every rule of the table planted")
    func faultProfiles() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-faults")
        var groups: [[String]: (cards: [JSONValue], planted: [String: Set<String>])] = [:]
        for profile in ACSFaultProfile.all {
            for version in MessageVersion.supported where !profile.plantedRules(version).isEmpty {
                let key = Self.options(profile)
                groups[key, default: ([], [:])].cards.append(Self.card(profile, version))
                groups[key, default: ([], [:])].planted["\(profile.name) \(version)"] = Set(
                    profile.plantedRules(version).map(\.rawValue))
            }
        }
        var all = Set<String>()
        for (index, (options, group)) in groups.sorted(by: { $0.key.count < $1.key.count }).enumerated() {
            let rules = group.planted.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            all.formUnion(rules)
            let output = directory + "/report-\(index)"
            let plan = try Self.writePlan(group.cards, in: directory + "/\(index)")
            let run = try await runThreeds(Self.command(lab, pki, plan: plan, output: output, options))
            #expect(run.status == 1, "\(options): \(run.output)")
            try Self.expectPlanted(group.planted, rules: rules, cards: group.cards.count, output: output)
        }
        // Every rule of docs/conformance-rules.md is planted by a profile, and reported as planted.
        let unplanted = ConformanceRule.allCases.map(\.rawValue).filter { !all.contains($0) }
        #expect(unplanted.isEmpty, "no fault profile plants \(unplanted)")
    }

    /// One run's report: each case reports exactly its profile's rules, nothing else fails, every rule is in the
    /// Markdown and each card has a JUnit failure.
    static func expectPlanted(_ planted: [String: Set<String>], rules: Set<String>, cards: Int, output: String) throws {
        let report = try Self.report(output)
        let cases = (report["cases"]?.arrayValue ?? []).compactMap(\.objectValue)
        #expect(cases.count == cards)
        for item in cases {
            let name = "\(item["card"]?.stringValue ?? "") \(item["version"]?.stringValue ?? "")"
            let reported = Set((item["rules"]?.arrayValue ?? []).compactMap(\.stringValue))
            #expect(reported == planted[name], "\(name): reported \(reported.sorted()), planted \(planted[name] ?? [])")
            // Nothing else: every failed check is an audit with findings (behaviour checks are blocked).
            for check in (item["checks"]?.arrayValue ?? []).compactMap(\.objectValue)
            where check["status"] == .string("failed") {
                #expect(check["findings"] != nil, "\(name): \(check.serialized)")
            }
        }
        #expect(Set((report["rules"]?.arrayValue ?? []).compactMap(\.stringValue)) == rules)
        let markdown = try String(contentsOfFile: output + "/conform.md", encoding: .utf8)
        for rule in rules { #expect(markdown.contains("### `\(rule)`"), "\(rule)") }
        let junit = try XMLDocument(contentsOf: URL(fileURLWithPath: output + "/conform-junit.xml"))
        #expect(try junit.nodes(forXPath: "//testcase/failure").count >= cards)
    }

    @Test("one fault profile alone exits 1; its channel keys saved only for the host named, and they open the CRes")
    func oneProfileWithKeys() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-one")
        let profile = try #require(ACSFaultProfile.all.first { $0.name == "conform-texts" })
        let output = directory + "/report"
        let plan = try Self.writePlan([Self.card(profile, .v2_2_0)], in: directory)
        let run = try await runThreeds(
            Self.command(lab, pki, plan: plan, output: output, ["--save-channel-keys-for", "127.0.0.1"]))
        #expect(run.status == 1, "\(run.output)")
        #expect(flattened(run.output).contains("warning: --save-channel-keys-for writes the channel key"))
        #expect(WidthTests.overflowing(run.output, columns: 80).isEmpty, "\(run.output)")
        #expect(
            flattened(run.output).contains("cres.challengeInfoTextIndicator.value, cres.resendInformationLabel.empty"))
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: output + "/messages").first)
        let inspect = try await runThreeds([
            "inspect", "cres", "\(output)/messages/\(folder)/cres-1.jwe", "--transaction-keys",
            "\(output)/messages/\(folder)/keys.json",
        ])
        #expect(inspect.status == 1 && inspect.output.contains("Verdict: INVALID"), "\(inspect.output)")
        let other = directory + "/other"
        let elsewhere = try await runThreeds(
            Self.command(lab, pki, plan: plan, output: other, ["--save-channel-keys-for", "acs.example"]))
        #expect(elsewhere.status == 1)
        let saved = try FileManager.default.subpathsOfDirectory(atPath: other + "/messages")
        #expect(!saved.contains { $0.hasSuffix("keys.json") }, "\(saved)")
    }

    @Test(
        "a CRes that does not decrypt is its channel rule (bad tag); an ACS Erro fails as a behaviour; no server: error"
    )
    func otherFailures() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-other")
        func card(_ scenario: Scenario, _ name: String) -> JSONValue {
            .object(
                JSONObject([
                    ("name", .string(name)), ("card", .string(scenario.cardNumber)), ("version", .string("2.2.0")),
                    ("kind", .string("text")),
                    ("answers", .array([.object(["action": .string("submit"), "text": .string("123456")])])),
                    ("suites", .array([.string("right")])),
                ]))
        }
        let plan = try Self.writePlan(
            [card(.faultBadTag, "bad tag"), card(.faultErro, "acs erro")], in: directory)
        let run = try await runThreeds(Self.command(lab, pki, plan: plan, output: directory + "/r1"))
        #expect(run.status == 1, "\(run.output)")
        let cases = (try Self.report(directory + "/r1")["cases"]?.arrayValue ?? []).compactMap(\.objectValue)
        let messages = cases.map { item in
            (item["checks"]?.arrayValue ?? []).compactMap(\.objectValue).filter { $0["status"] == .string("failed") }
                .compactMap { $0["message"]?.stringValue }
        }
        #expect(
            messages.first?.contains { $0.contains("could not be read: cres.jwe.tag: CRes could not be decrypted") }
                == true, "\(messages)")
        #expect(messages.last?.contains { $0.contains("Protocol error 305 from the ACS") } == true, "\(messages)")
        #expect(cases.map { $0["rules"] } == [.array([.string("cres.jwe.tag")]), .array([])])
        // No 3DS Server there: every case is a setup failure, not the ACS's (exit 3); the reports are still written.
        let nothing = try await runThreeds(
            Self.command(lab, pki, plan: plan, output: directory + "/r2")
                .map { $0 == lab.baseURL.absoluteString ? "https://127.0.0.1:1" : $0 })
        #expect(
            nothing.status == ExitStatus.setup && nothing.output.contains("ERROR bad tag 2.2.0 right answer"),
            "\(nothing.output)")
        #expect(FileManager.default.fileExists(atPath: directory + "/r2/conform-junit.xml"))
    }

    @Test("--requestor-exec instead of --server, as pay takes it")
    func requestorExec() async throws {
        let (lab, pki) = try await SharedLab.cli.get()
        let directory = scratchDirectory("conform-exec")
        let script = ReadmeCommands.root.appendingPathComponent("Tools/scripts/testlab-requestor.sh").path
        let plan = ReadmeCommands.root.appendingPathComponent("Tools/scripts/conform-plan.json").path
        let run = try await runThreeds([
            "conform", "--requestor-exec", "sh \(script) \(lab.baseURL.absoluteString) \(pki)/tls-root.pem",
            "--ds-id", TestLab.rsaDirectoryServerID.rawValue, "--trust-bundle", pki, "--tls-root",
            pki + "/tls-root.pem",
            "--plan", plan, "--output", directory + "/report",
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(try Self.report(directory + "/report")["server"] == .string("--requestor-exec"))
    }

    @Test("the manual's fault-profile table is the profiles' own: card, scenario, version and planted rules")
    func profileTable() throws {
        let manual = try String(
            contentsOf: ReadmeCommands.root.appendingPathComponent("Tools/README.md"), encoding: .utf8)
        let documented = manual.split(separator: "\n").filter { $0.hasPrefix("| `conform-") }.map(String.init)
        var rows: [String] = []
        for profile in ACSFaultProfile.all {
            for version in MessageVersion.supported where !profile.plantedRules(version).isEmpty {
                let rules = profile.plantedRules(version).map { "`\($0.rawValue)`" }.joined(separator: ", ")
                rows.append(
                    "| `\(profile.name)` | \(profile.cardNumber) | \(profile.scenario.rawValue) | \(version) | \(rules) |"
                )
            }
        }
        #expect(documented == rows, "expected:\n\(rows.joined(separator: "\n"))")
        #expect(Set(ACSFaultProfile.all.map(\.cardNumber)).count == ACSFaultProfile.all.count)
        #expect(ACSFaultProfile.all.allSatisfy { Scenario(cardNumber: $0.cardNumber) == nil })
    }

    @Test("usage errors exit 2: no plan, a missing or malformed plan, a used output folder, a bad key host")
    func usageErrors() async throws {
        let directory = scratchDirectory("conform-usage")
        let server = ["--server", "https://127.0.0.1:1", "--ds-id", "X", "--trust-bundle", directory]
        let bad = directory + "/bad.json"
        try Data(#"{"cards":[{"card":"4000000000002000","version":"2.2.0","kind":"sms"}]}"#.utf8).write(
            to: URL(fileURLWithPath: bad))
        let unknown = directory + "/unknown.json"
        try Data(#"{"cardz":[]}"#.utf8).write(to: URL(fileURLWithPath: unknown))
        let noAnswers = directory + "/no-answers.json"
        try Data(#"{"cards":[{"card":"4000000000002000","version":"2.2.0","kind":"html"}]}"#.utf8).write(
            to: URL(fileURLWithPath: noAnswers))
        let good = ReadmeCommands.root.appendingPathComponent("Tools/scripts/conform-plan.json").path
        try FileManager.default.createDirectory(atPath: directory + "/used/x", withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["conform"] + server, "--plan"),
            (["conform", "--plan", directory + "/none.json"] + server, "no such file"),
            (["conform", "--plan", bad, "--output", directory + "/o1"] + server, "\"kind\" must be one of"),
            (["conform", "--plan", unknown, "--output", directory + "/o2"] + server, "unknown member \"cardz\""),
            (["conform", "--plan", noAnswers, "--output", directory + "/o3"] + server, "\"answers\" is missing"),
            (["conform", "--plan", good, "--output", directory + "/used"] + server, "holds an earlier run"),
            (["conform", "--plan", good, "--save-channel-keys-for", "https://x/"] + server, "host name"),
            (
                ["conform", "--plan", good, "--requestor-exec", "true"] + server,
                "exactly one of --server URL or --requestor-exec CMD"
            ),
        ]
        for (arguments, message) in cases {
            let run = try await runThreeds(arguments)
            #expect(run.status == 2, "\(arguments): \(run.output)")
            #expect(flattened(run.output).contains(message), "\(arguments): \(run.output)")
        }
    }
}
