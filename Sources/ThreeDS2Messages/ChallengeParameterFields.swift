public import ThreeDS2JOSE

/// The ARes fields the SDK reads to start a challenge (the app passes them as its challenge parameters), and the
/// rules the SDK holds them to before it sends anything to the ACS. The ACS signed content they carry is checked by
/// ``ACSSignedContent``; `threeDSRequestorAppURL` is the app's, not the ACS's, and is not audited here.
public struct ChallengeParameterFields: Sendable, Hashable {
    /// `threeDSServerTransID`.
    public let threeDSServerTransID: String
    /// `acsTransID`.
    public let acsTransID: String
    /// `acsReferenceNumber`.
    public let acsReferenceNumber: String
    /// `acsSignedContent` (a compact JWS).
    public let acsSignedContent: String

    /// Creates the fields.
    ///
    /// - Parameters:
    ///   - threeDSServerTransID: The 3DS Server transaction ID.
    ///   - acsTransID: The ACS transaction ID.
    ///   - acsReferenceNumber: The ACS reference number.
    ///   - acsSignedContent: The ACS signed content.
    public init(threeDSServerTransID: String, acsTransID: String, acsReferenceNumber: String, acsSignedContent: String)
    {
        self.threeDSServerTransID = threeDSServerTransID
        self.acsTransID = acsTransID
        self.acsReferenceNumber = acsReferenceNumber
        self.acsSignedContent = acsSignedContent
    }

    /// Audits an ARes asking for a challenge (`transStatus` `C`), or a backend answer in ARes field names: every rule
    /// its challenge fields break. The SDK sends no Erro for these (``ConformanceRule/errorCode`` is `nil`): it
    /// refuses the challenge parameters before any CReq.
    ///
    /// - Parameter object: The ARes.
    /// - Returns: The findings, and the fields when there are none.
    public static func audit(_ object: JSONObject) -> ConformanceAudit<ChallengeParameterFields> {
        let recorder = ViolationRecorder<FirstFinding>()
        var values: [String] = []
        for name in ["threeDSServerTransID", "acsTransID", "acsReferenceNumber", "acsSignedContent"] {
            guard case .string(let value)? = object[name] else {
                let finding = ConformanceFinding(
                    rule: .aresFieldMissing, field: name, value: object[name].map(ConformanceFinding.text),
                    explanation: "ARes field `\(name)` is missing or not a string")
                try? recorder.record(finding, file: #fileID, line: #line)
                values.append("")
                continue
            }
            values.append(value)
        }
        let fields = ChallengeParameterFields(
            threeDSServerTransID: values[0], acsTransID: values[1], acsReferenceNumber: values[2],
            acsSignedContent: values[3])
        try? fields.check(recorder, subject: { "ARes field `\($0)`" })
        return ConformanceAudit(findings: recorder.findings, reading: fields)
    }

    /// The first rule the fields break, as the SDK checks challenge parameters (naming them as the app's API does:
    /// `threeDSServerTransactionID`, `acsTransactionID`, `acsRefNumber`, `acsSignedContent`).
    ///
    /// - Returns: The first finding, or `nil` when the fields break no rule.
    package func firstViolationAsChallengeParameters() -> ConformanceFinding? {
        let names = [
            "threeDSServerTransID": "threeDSServerTransactionID", "acsTransID": "acsTransactionID",
            "acsReferenceNumber": "acsRefNumber",
        ]
        do {
            try check(ViolationRecorder { finding, _, _ in FirstFinding(finding) }) {
                "challenge parameter \(names[$0] ?? $0)"
            }
            return nil
        } catch {
            return error.finding
        }
    }

    /// The checks, in the order the SDK applies them; `subject` names a field in the explanations.
    private func check(_ recorder: ViolationRecorder<FirstFinding>, subject: (String) -> String)
        throws(FirstFinding)
    {
        for (name, value) in [("threeDSServerTransID", threeDSServerTransID), ("acsTransID", acsTransID)]
        where !TransactionIdentifiers.hasUUIDShape(value) {
            try recorder.record(
                ConformanceFinding(
                    rule: .aresTransactionIDNotUUID, field: name, value: value,
                    explanation: "\(subject(name)) must be a UUID, was \"\(value.prefix(40))\""),
                file: #fileID, line: #line)
        }
        if acsReferenceNumber.isEmpty || !PeerText.fits(acsReferenceNumber, max: 32) {
            try recorder.record(
                ConformanceFinding(
                    rule: .aresReferenceNumberLength, field: "acsReferenceNumber", value: acsReferenceNumber,
                    explanation: "\(subject("acsReferenceNumber")) must be 1–32 characters"),
                file: #fileID, line: #line)
        }
        if acsSignedContent.isEmpty {
            try recorder.record(
                ConformanceFinding(
                    rule: .aresSignedContentEmpty, field: "acsSignedContent", value: acsSignedContent,
                    explanation: "\(subject("acsSignedContent")) is empty"),
                file: #fileID, line: #line)
        }
    }
}
