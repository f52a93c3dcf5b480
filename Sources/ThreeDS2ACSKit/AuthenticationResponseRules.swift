public import ThreeDS2JOSE
public import ThreeDS2Messages

extension TransactionStatus {
    /// The statuses an ARes of `version` may carry (protocol reference §3.3): `Y`, `N`, `U`, `A`, `C` and `R` in every
    /// version, and `D` (decoupled) and `I` (informational only) from 2.2.0, where they were introduced.
    ///
    /// - Parameter version: The message version of the transaction.
    /// - Returns: The statuses.
    public static func authenticationResponseStatuses(for version: MessageVersion) -> Set<TransactionStatus> {
        var statuses: Set<TransactionStatus> = [
            .authenticated, .notAuthenticated, .unableToAuthenticate, .attempted, .challengeRequired, .rejected,
        ]
        if version != .v2_1_0 { statuses.formUnion([.decoupled, .informational]) }
        return statuses
    }
}

/// The rules for an ARes as an app's SDK reads it (from the 3DS Server, or the app's backend answering in ARes field
/// names): a `transStatus` the version allows, and for a challenge (`C`) the fields `ChallengeParameterFields`
/// audits. `threeds pay`, `load` and `--requestor-exec` hold the 3DS Server to them, as a strict SDK client would; the
/// conformance audit reuses them.
public enum AuthenticationResponseRules {
    /// Audits an ARes: every rule it breaks, in the order a client checks them.
    ///
    /// - Parameters:
    ///   - object: The ARes (or a backend answer in ARes field names).
    ///   - version: The transaction's message version (the AReq's).
    /// - Returns: The findings, and the status when there are none.
    public static func audit(_ object: JSONObject, version: MessageVersion) -> ConformanceAudit<TransactionStatus> {
        guard case .string(let letter)? = object["transStatus"], !letter.isEmpty else {
            let finding = ConformanceFinding(
                rule: .aresTransStatusMissing, field: "transStatus",
                value: object["transStatus"].map(ConformanceFinding.text),
                explanation: "ARes field `transStatus` is missing or not a string")
            return ConformanceAudit(findings: [finding], reading: nil)
        }
        let status = TransactionStatus(rawValue: letter)
        let allowed = TransactionStatus.authenticationResponseStatuses(for: version)
        guard allowed.contains(status) else {
            let letters = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            let finding = ConformanceFinding(
                rule: .aresTransStatusInvalid, field: "transStatus", value: letter,
                requirement: "one of \(letters) in \(version)",
                explanation: "ARes field `transStatus` is not a status an ARes of \(version) carries (\(letters))")
            return ConformanceAudit(findings: [finding], reading: nil)
        }
        guard status == .challengeRequired else { return ConformanceAudit(findings: [], reading: status) }
        return ConformanceAudit(findings: ChallengeParameterFields.audit(object).findings, reading: status)
    }
}
