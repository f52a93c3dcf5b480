public import ThreeDS2JOSE

extension ConformanceFinding {
    /// What breaks when a CRes does not decrypt: the rule the JOSE failure falls under (a wrong `kid`, `enc` or
    /// `alg`, a header member the SDK does not process, a member named twice, a bad authentication tag, a malformed
    /// serialization), with the detail and explanation of the SDK's Erro (302, `Data Decryption Failure`).
    ///
    /// - Parameter error: Why the JWE did not decrypt.
    /// - Returns: The finding.
    public static func channel(_ error: JOSEError) -> ConformanceFinding {
        let rule: ConformanceRule =
            switch error.code {
            case .unexpectedKeyID: .channelKeyID
            case .unexpectedEncryption: .channelEncryption
            case .unsupportedAlgorithm, .unexpectedAlgorithm: .channelAlgorithm
            case .invalidHeader, .unsupportedHeaderParameter: .channelHeader
            case .duplicateMember: .channelDuplicateMember
            case .inputTooLarge, .malformedBase64, .malformedJSON, .malformedCompactSerialization: .channelFormat
            default: .channelTag
            }
        return ConformanceFinding(
            rule: rule, field: rule.field, value: nil, errorDetail: "Data Decryption Failure",
            explanation: "CRes could not be decrypted: \(error.message)")
    }

    /// A JSON object other than an Erro sent unencrypted (``ConformanceRule/channelPlaintext``).
    public static let plaintextResponse = ConformanceFinding(
        rule: .channelPlaintext, field: ConformanceRule.channelPlaintext.field, value: nil,
        errorDetail: "Data Decryption Failure",
        explanation: "the ACS answered in plaintext; only an Erro may be unencrypted")

    /// A decrypted CRes that is not JSON (`error`, from the parser) or, with no error, not a JSON object: a member
    /// named twice is 204, anything else 101.
    ///
    /// - Parameter error: The parser's error, or `nil` when the JSON is not an object.
    /// - Returns: The finding.
    public static func payload(_ error: (any Error)?) -> ConformanceFinding {
        guard let error else {
            return ConformanceFinding(
                rule: .payloadNotJSON, field: ConformanceRule.payloadNotJSON.field, value: nil,
                errorDetail: "Invalid Formatted Message", explanation: "CRes plaintext is not a JSON object")
        }
        let duplicate = (error as? JOSEError)?.code == .duplicateMember
        let rule: ConformanceRule = duplicate ? .payloadDuplicateMember : .payloadNotJSON
        let message = (error as? JOSEError)?.message ?? "not JSON"
        return ConformanceFinding(
            rule: rule, field: rule.field, value: nil,
            errorDetail: duplicate ? "duplicate data element" : "Invalid Formatted Message",
            explanation: "CRes plaintext is not valid JSON: \(message)")
    }

    /// The violation the SDK answers this finding with: its Erro code, detail and explanation.
    package func violation(file: String = #fileID, line: UInt = #line) -> ProtocolViolation {
        ProtocolViolation(
            errorCode ?? .messageReceivedInvalid, detail: rawDetail, explanation: rawExplanation, file: file,
            line: line)
    }
}
