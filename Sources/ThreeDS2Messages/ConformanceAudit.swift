package import ThreeDS2JOSE

/// One violation of a ``ConformanceRule`` found in what an ACS sent, with the evidence: the field, the value seen, the
/// requirement for the message's version, and the Erro code the SDK sends for it.
public struct ConformanceFinding: Sendable, Hashable, CustomStringConvertible {
    /// The most characters (Unicode scalars) of a value a finding keeps, after escaping; a longer value is cut there
    /// and ends with `…`.
    public static let maxValueLength = 120

    /// The rule broken.
    public let rule: ConformanceRule
    /// The field concerned (`challengeEntryBox.challengeDataEntryLabel` for a key of an object field).
    public let field: String
    /// The value seen, when the field was present: a string as sent, another JSON value as JSON text; control and
    /// bidirectional characters written as visible escapes (``PeerText/escapedForTerminal(_:keepingLineBreaks:)``),
    /// cut to ``maxValueLength`` characters. `nil` when the field was missing.
    public let value: String?
    /// What the message's version requires of the field, in words.
    public let requirement: String
    /// The Erro code the SDK sends for this violation; `nil` when it sends no Erro (``ConformanceRule/errorCode``).
    public let errorCode: ProtocolErrorCode?
    /// The `errorDetail` the SDK sends: the field, or for an unrecognised critical extension the extensions' IDs;
    /// made safe to show as ``ProtocolViolation/detail`` is.
    public let errorDetail: String
    /// A readable sentence about the violation, made safe to show as ``ProtocolViolation/explanation`` is (control
    /// and bidirectional characters escaped, at most 2,048 characters).
    public let explanation: String
    /// The detail as found, before it is made safe: what the SDK's own error is built from.
    package let rawDetail: String
    /// The explanation as written, before it is made safe: what the SDK's own error is built from.
    package let rawExplanation: String

    /// Creates a finding; the value is escaped and cut here.
    ///
    /// - Parameters:
    ///   - rule: The rule broken.
    ///   - field: The field concerned.
    ///   - value: The value seen as sent, or `nil` when the field was missing.
    ///   - requirement: The requirement for the version, in words; the rule's own when `nil`.
    ///   - errorDetail: The Erro's `errorDetail`; the field when `nil`.
    ///   - explanation: A readable sentence.
    public init(
        rule: ConformanceRule, field: String, value: String?, requirement: String? = nil, errorDetail: String? = nil,
        explanation: String
    ) {
        self.rule = rule
        self.field = field
        self.value = value.map(Self.shown)
        self.requirement = requirement ?? rule.requirement
        self.errorCode = rule.errorCode
        self.rawDetail = errorDetail ?? field
        self.rawExplanation = explanation
        self.errorDetail = ProtocolViolation.safe(errorDetail ?? field)
        self.explanation = ProtocolViolation.safe(explanation)
    }

    /// `rule field: explanation`.
    public var description: String { "\(rule) \(field): \(explanation)" }

    /// A JSON value as a finding shows it: a string as sent, anything else as JSON text.
    package static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.serialized
    }

    /// A value made safe to show and cut to ``maxValueLength``.
    static func shown(_ value: String) -> String {
        let head = String(String.UnicodeScalarView(value.unicodeScalars.prefix(maxValueLength + 1)))
        let escaped = PeerText.escapedForTerminal(head)
        guard !PeerText.fits(escaped, max: maxValueLength) else { return escaped }
        return String(String.UnicodeScalarView(escaped.unicodeScalars.prefix(maxValueLength - 1))) + "…"
    }
}

/// Every violation found in one message, in the order the SDK checks them, and what the SDK read when there was none.
///
/// The first finding is the one the SDK acts on: for a CRes, the Erro it sends has that finding's code and detail.
/// Each field is reported once, under the first rule it breaks; what follows only from an earlier finding (a field
/// of the wrong type then missing where required) is not reported again.
public struct ConformanceAudit<Reading: Sendable & Hashable>: Sendable, Hashable {
    /// The violations, in the order the SDK checks them.
    public let findings: [ConformanceFinding]
    /// What the SDK read, when the message broke no rule.
    public let reading: Reading?

    /// Creates an audit.
    ///
    /// - Parameters:
    ///   - findings: The violations found.
    ///   - reading: What was read; kept only when there are no findings.
    public init(findings: [ConformanceFinding], reading: Reading?) {
        self.findings = findings
        self.reading = findings.isEmpty ? reading : nil
    }

    /// Whether the message broke no rule.
    public var isConformant: Bool { findings.isEmpty }

    /// The violation the SDK acts on (for a CRes, the one its Erro reports).
    public var first: ConformanceFinding? { findings.first }

    /// The rules broken, each once, in the order first found.
    public var rules: [ConformanceRule] {
        var seen: Set<ConformanceRule> = []
        return findings.map(\.rule).filter { seen.insert($0).inserted }
    }
}

/// Where the checks of one message put what they find: the SDK's path stops at the first violation (the recorder
/// throws it, as the message's reader always did); an audit collects every one. The checks are written once, against
/// this recorder, so the two cannot drift apart.
final class ViolationRecorder<Failure: Error> {
    private let stop: ((ConformanceFinding, String, UInt) -> Failure)?
    /// Whether the rules the SDK tolerates (``ConformanceRule/tolerance``) are recorded: only in a strict audit.
    let strict: Bool
    private(set) var findings: [ConformanceFinding] = []

    /// A recorder that throws the first violation, made into the error the reader throws; a tolerated rule is never
    /// one (the SDK accepts what it tolerates).
    init(stoppingWith stop: @escaping (ConformanceFinding, String, UInt) -> Failure) {
        self.stop = stop
        strict = false
    }

    /// A recorder that collects every violation; the tolerated rules too when `strict`.
    init(strict: Bool = false) {
        stop = nil
        self.strict = strict
    }

    /// Records a violation: throws it when stopping at the first, keeps it otherwise (once per field). A tolerated
    /// rule is dropped unless the recorder is strict.
    ///
    /// - Parameter failure: The error to throw instead of the one made from the finding (a cause to keep as is).
    func record(_ finding: ConformanceFinding, failure: Failure? = nil, file: String, line: UInt) throws(Failure) {
        guard strict || finding.rule.tolerance == nil else { return }
        if let stop { throw failure ?? stop(finding, file, line) }
        guard !hasFinding(for: finding.field) else { return }
        findings.append(finding)
    }

    /// Whether a violation was already kept for a field or one of its keys.
    func hasFinding(for field: String) -> Bool {
        findings.contains { $0.field == field || $0.field.hasPrefix(field + ".") }
    }
}

extension ViolationRecorder where Failure == ProtocolViolation {
    /// A recorder for a CRes that stops at the first violation, thrown as the ``ProtocolViolation`` the SDK sends.
    static func stoppingAtFirst() -> ViolationRecorder {
        ViolationRecorder { finding, file, line in
            ProtocolViolation(
                finding.errorCode ?? .messageReceivedInvalid, detail: finding.rawDetail,
                explanation: finding.rawExplanation, file: file, line: line)
        }
    }

    /// A CRes field that is missing.
    func missing(
        _ rule: ConformanceRule, _ field: String, requirement: String? = nil, file: String = #fileID,
        line: UInt = #line
    ) throws(ProtocolViolation) {
        try record(
            ConformanceFinding(
                rule: rule, field: field, value: nil, requirement: requirement,
                explanation: "CRes field `\(field)` is missing"), file: file, line: line)
    }

    /// A CRes field whose value breaks `rule`; `why` completes the sentence "CRes field `field` …".
    func invalid(
        _ rule: ConformanceRule, _ field: String, _ why: String, seen: JSONValue?, requirement: String? = nil,
        file: String = #fileID, line: UInt = #line
    ) throws(ProtocolViolation) {
        try record(
            ConformanceFinding(
                rule: rule, field: field, value: seen.map(ConformanceFinding.text), requirement: requirement,
                explanation: "CRes field `\(field)` \(why)"), file: file, line: line)
    }

    /// A CRes field with a reserved value the SDK does not recognise.
    func reserved(
        _ rule: ConformanceRule, _ field: String, _ value: String, file: String = #fileID, line: UInt = #line
    ) throws(ProtocolViolation) {
        try record(
            ConformanceFinding(
                rule: rule, field: field, value: value,
                explanation: "CRes field `\(field)` was \(value), a reserved value the SDK does not recognise"),
            file: file, line: line)
    }

}

/// The first finding, thrown to stop checking at it.
package struct FirstFinding: Error {
    /// The finding.
    package let finding: ConformanceFinding

    /// Wraps a finding.
    package init(_ finding: ConformanceFinding) { self.finding = finding }
}

extension Result where Failure == FirstFinding {
    /// The finding, when this is a failure.
    package var failure: ConformanceFinding? {
        if case .failure(let error) = self { return error.finding }
        return nil
    }
}
