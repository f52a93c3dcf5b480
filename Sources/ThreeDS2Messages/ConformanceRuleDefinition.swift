/// What the code declares about a ``ConformanceRule``: its field, Erro code, requirement and reference. A reference
/// names the public source a vendor can look up — a table of EMVCo's core specification (Table A.1, the data
/// elements; A.4, the error codes; the 2.3.1 tables by number), an RFC, or the Bridging Message Extension — then the
/// section of `docs/protocol-notes.md` that says the same in the project's words.
struct ConformanceRuleDefinition: Sendable {
    let code: ProtocolErrorCode?
    let field: String
    let requirement: String
    let reference: String
    /// Where the SDK is more tolerant than the specification's letter, and why; `nil` when it is not.
    let tolerance: String?

    init(
        _ code: ProtocolErrorCode?, _ field: String, _ requirement: String, _ reference: String,
        tolerance: String? = nil
    ) {
        self.code = code
        self.field = field
        self.requirement = requirement
        self.reference = reference
        self.tolerance = tolerance
    }

    /// What a rule without a definition reads as: empty text, which `ConformanceAuditTests` refuses for every rule.
    static let undefined = ConformanceRuleDefinition(nil, "", "", "")

    private static let fields31 = "EMV 3DS core spec Table A.1; protocol notes §2"
    private static let byUIType = "EMV 3DS core spec Table A.1; 2.3.1 Table A.20; protocol notes §3"
    private static let box = "2.3.1 Table A.26; protocol notes §9"
    private static let reserved = "2.3.1 Table A.4 (207); protocol notes §9"
    private static let signed =
        "RFC 7515; RFC 7518 §3.3–§3.5; EMV 3DS core spec Table A.1 (acsSignedContent); protocol notes §6"

    static let table: [ConformanceRule: ConformanceRuleDefinition] = envelope.merging(screen) { $1 }
        .merging(entryBox) { $1 }.merging(signedContent) { $1 }.merging(authenticationResponse) { $1 }
        .merging(presence) { $1 }.merging(channel) { $1 }

    private static let envelope: [ConformanceRule: ConformanceRuleDefinition] = [
        .requiredFieldMissing: .init(
            .requiredElementMissing,
            "messageType, threeDSServerTransID, acsTransID, sdkTransID, acsCounterAtoS, messageVersion, "
                + "challengeCompletionInd",
            "present and not empty in every CRes", fields31),
        .messageTypeNotCRes: .init(.messageReceivedInvalid, "messageType", "`CRes` (or an Erro)", fields31),
        .fieldNotString: .init(.invalidFormat, "any field read as text", "a JSON string", fields31),
        .transactionIDNotUUID: .init(
            .invalidFormat, "threeDSServerTransID, acsTransID, sdkTransID", "a UUID of 36 characters", fields31),
        .transactionIDMismatch: .init(
            .transactionIDNotRecognised, "threeDSServerTransID, acsTransID, sdkTransID",
            "the transaction's ID, byte for byte", fields31),
        .messageVersionMismatch: .init(
            .invalidFormat, "messageVersion", "the transaction's version",
            "EMV 3DS core spec Table A.1 (messageVersion); protocol notes §2"),
        .counterFormat: .init(
            .invalidFormat, "acsCounterAtoS", "three digits, 000–255",
            "EMV 3DS core spec Table A.1 (acsCounterAtoS); protocol notes §7"),
        .counterMismatch: .init(
            .decryptionFailure, "acsCounterAtoS", "the counter the SDK expects next",
            "EMV 3DS core spec Table A.1 (acsCounterAtoS); protocol notes §7"),
        .completionIndicatorValue: .init(.invalidFormat, "challengeCompletionInd", "`Y` or `N`", fields31),
        .extensionNotArray: .init(.invalidFormat, "messageExtension", "an array", fields31),
        .extensionTooMany: .init(
            .invalidFormat, "messageExtension", "at most 10 entries (15 from 2.3.1)",
            "EMV 3DS core spec Table A.1; protocol notes §2"),
        .extensionTooLong: .init(.invalidFormat, "messageExtension", "at most 81,920 characters", fields31),
        .extensionEntryMalformed: .init(
            .invalidFormat, "messageExtension",
            "entries with a name and id of 1–64 characters, a boolean criticalityIndicator and a data object of at "
                + "most 8,059 characters", fields31),
        .extensionCriticalUnrecognised: .init(
            .criticalExtensionNotRecognised, "messageExtension",
            "no critical extension the SDK does not recognise (Bridging is recognised in 2.2.0)",
            "EMV 3DS core spec Table A.1, Table A.4 (202); Bridging Message Extension; protocol notes §2, §10"),
        .transStatusMissing: .init(
            .requiredElementMissing, "transStatus", "present in a final CRes",
            "EMV 3DS core spec Table A.1 (transStatus); protocol notes §4"),
        .transStatusValue: .init(
            .invalidFormat, "transStatus", "`Y` or `N` in a final CRes (`D` too from 2.3.1)",
            "EMV 3DS core spec Table A.1 (transStatus); 2.3.1 Table A.17; protocol notes §4"),
    ]

    private static let screen: [ConformanceRule: ConformanceRuleDefinition] = [
        .uiTypeMissing: .init(.requiredElementMissing, "acsUiType", "present in a CRes that is not final", fields31),
        .uiTypeReserved: .init(
            .reservedValueNotRecognised, "acsUiType", "not a reserved value (08–99) in 2.3.1", reserved),
        .uiTypeUnknown: .init(
            .invalidFormat, "acsUiType", "`01`–`05` (`01`–`07` from 2.3.1)",
            "EMV 3DS core spec Table A.1; protocol notes §2"),
        .textTooLong: .init(
            .invalidFormat, "display texts and labels",
            "within the field's length in characters (45 for headers and labels, 350 for challengeInfoText, 256 "
                + "for other texts, 64 for trust and device-binding texts)", fields31),
        .textControlCharacter: .init(
            .invalidFormat, "display texts, labels and select options",
            "no control character other than line breaks, and no bidirectional control",
            "EMV 3DS core spec Table A.1; protocol notes §2"),
        .infoTextIndicatorValue: .init(.invalidFormat, "challengeInfoTextIndicator", "`Y` or `N`", fields31),
        .resendLabelEmpty: .init(.invalidFormat, "resendInformationLabel", "not an empty string", fields31),
        .togglePositionReserved: .init(.reservedValueNotRecognised, "togglePositionInd", "not 02–99", reserved),
        .togglePositionValue: .init(.invalidFormat, "togglePositionInd", "`01`", "2.3.1 Table A.1; protocol notes §9"),
        .screenFieldMissing: .init(
            .requiredElementMissing, "the fields the UI type requires",
            "present as the version's table requires for the UI type", byUIType),
        .selectInfoNotArray: .init(.invalidFormat, "challengeSelectInfo", "an array", fields31),
        .selectInfoEntry: .init(
            .invalidFormat, "challengeSelectInfo", "entries of one name/value pair of 1–45 characters each", fields31),
        .selectInfoComma: .init(.invalidFormat, "challengeSelectInfo", "keys without a comma", fields31),
        .selectInfoRepeatedKey: .init(
            .invalidFormat, "challengeSelectInfo", "each key once (2.1.0, 2.2.0)", fields31),
        .selectInfoDuplicateKey: .init(
            .duplicateElement, "challengeSelectInfo", "each key once (2.3.1)",
            "2.3.1 Table A.4 (204); protocol notes §9"),
        .htmlTooLong: .init(
            .invalidFormat, "acsHTML, acsHTMLRefresh", "at most 140,000 characters (300,000 from 2.3.1)", fields31),
        .htmlNotBase64URL: .init(
            .invalidFormat, "acsHTML, acsHTMLRefresh", "strict base64url: no padding, `+`, `/` or white space",
            "RFC 4648 §5; EMV 3DS core spec Table A.1 (acsHTML); protocol notes §5"),
        .htmlNotUTF8: .init(
            .invalidFormat, "acsHTML, acsHTMLRefresh", "decodes to UTF-8",
            "RFC 4648 §5; EMV 3DS core spec Table A.1 (acsHTML); protocol notes §5"),
        .oobAppNotOffered: .init(
            .invalidFormat, "oobAppURL, oobAppLabel", "only when the CReq's oobAppURLInd was `01` (2.3.1)",
            "2.3.1 Table A.1; protocol notes §9"),
        .oobAppURLMissing: .init(
            .requiredElementMissing, "oobAppURL", "present when oobAppLabel is (2.3.1)",
            "2.3.1 Table A.1; protocol notes §9"),
        .oobAppURLNotHTTPS: .init(
            .invalidFormat, "oobAppURL", "an https universal or app link with a host",
            "2.3.1 Table A.1; protocol notes §9"),
        .oobAppLabelMissing: .init(
            .requiredElementMissing, "oobAppLabel", "present on an out-of-band screen when oobAppURL is (2.3.1)",
            "2.3.1 Table A.1; protocol notes §9"),
        .imageNotHTTPS: .init(
            .invalidFormat, "issuerImage, psImage", "https URLs with a host of at most 2,048 characters", fields31),
        .imageTooLong: .init(.invalidFormat, "issuerImage, psImage", "at most 6,144 characters", fields31),
        .imageEmpty: .init(.invalidFormat, "issuerImage, psImage", "at least one image URL", fields31),
        .imageNotObject: .init(
            .invalidFormat, "issuerImage, psImage", "an object of image URLs (or one URL)",
            "EMV 3DS core spec Table A.1; 2.3.1 Tables A.21, A.22; protocol notes §2, §9"),
    ]

    private static let entryBox: [ConformanceRule: ConformanceRuleDefinition] = [
        .entryBoxNotObject: .init(.invalidFormat, "challengeEntryBox, challengeEntryBoxTwo", "an object", box),
        .entryBoxEmptyValue: .init(.invalidFormat, "entry-box keys", "not an empty string", box),
        .entryBoxLabelMissing: .init(
            .requiredElementMissing, "challengeDataEntryLabel", "present in every entry box", box),
        .keyboardTypeReserved: .init(
            .reservedValueNotRecognised, "challengeDataEntryKeyboardType", "not 03–99", reserved),
        .keyboardTypeValue: .init(.invalidFormat, "challengeDataEntryKeyboardType", "`01` or `02`", box),
        .autofillValue: .init(.invalidFormat, "challengeDataEntryAutofill", "`Y` when present", box),
        .autofillTypeMissing: .init(
            .requiredElementMissing, "challengeDataEntryAutofillType", "present when autofill is on", box),
        .autofillTypeReserved: .init(
            .reservedValueNotRecognised, "challengeDataEntryAutofillType", "not 03–99", reserved),
        .autofillTypeValue: .init(.invalidFormat, "challengeDataEntryAutofillType", "`01` or `02`", box),
        .lengthMaxValue: .init(.invalidFormat, "challengeDataEntryLengthMax", "two digits, 01–45", box),
        .maskingValue: .init(.invalidFormat, "challengeDataEntryMasking", "`Y` or `N`", box),
        .toggleValue: .init(.invalidFormat, "challengeDataEntryToggle", "`Y` or `N`", box),
        .toggleMissing: .init(
            .requiredElementMissing, "challengeDataEntryToggle", "present when the entry is masked", box),
    ]

    private static let signedContent: [ConformanceRule: ConformanceRuleDefinition] = [
        .signedContentNotJSON: .init(nil, "payload", "JSON of at most 16 KiB and depth 8", signed),
        .signedContentNotObject: .init(nil, "payload", "a JSON object", signed),
        .signedContentACSURL: .init(nil, "acsURL", "a string of 1–2,048 characters", signed),
        .signedContentACSKeyMissing: .init(nil, "acsEphemPubKey", "present", signed),
        .signedContentACSKeyInvalid: .init(
            nil, "acsEphemPubKey", "a P-256 public JWK (an object, or a string holding one)", signed),
        .signedContentSDKKeyMissing: .init(nil, "sdkEphemPubKey", "present", signed),
        .signedContentSDKKeyInvalid: .init(
            nil, "sdkEphemPubKey", "a P-256 public JWK (an object, or a string holding one)", signed),
        .signedContentACSURLNotAbsolute: .init(nil, "acsURL", "an absolute URL with a host", signed),
        .signedContentACSURLNotHTTPS: .init(
            nil, "acsURL", "https (plain http only to an ACS on loopback, when the SDK's configuration allows it)",
            "EMV 3DS core spec Table A.1 (acsURL); protocol notes §6"),
        .signedContentSDKKeyMismatch: .init(
            nil, "sdkEphemPubKey", "the SDK's own ephemeral public key for the transaction",
            "EMV 3DS core spec Table A.1 (acsSignedContent); protocol notes §6"),
    ]

    private static let ares = "EMV 3DS core spec Table A.1 (ARes); protocol notes §8"

    private static let authenticationResponse: [ConformanceRule: ConformanceRuleDefinition] = [
        .aresTransStatusMissing: .init(
            nil, "transStatus", "present as a string in every ARes",
            "EMV 3DS core spec Table A.1 (transStatus); protocol notes §4"),
        .aresTransStatusInvalid: .init(
            nil, "transStatus", "Y, N, U, A, C or R; D and I from 2.2.0",
            "EMV 3DS core spec Table A.1 (transStatus); protocol notes §4"),
        .aresFieldMissing: .init(
            nil, "threeDSServerTransID, acsTransID, acsReferenceNumber, acsSignedContent",
            "present as strings in an ARes asking for a challenge", ares),
        .aresTransactionIDNotUUID: .init(nil, "threeDSServerTransID, acsTransID", "a UUID of 36 characters", ares),
        .aresReferenceNumberLength: .init(nil, "acsReferenceNumber", "1–32 characters", ares),
        .aresSignedContentEmpty: .init(nil, "acsSignedContent", "not empty", ares),
    ]

    private static let tablesA20 = "2.3.1 Table A.20, Table B.4; protocol notes §3, §9"
    private static let jwe = "RFC 7516; EMV 3DS core spec Table A.4 (302); protocol notes §7"

    /// The rules of what a CRes may not carry, and the 2.3.1.1 select limits: the SDK tolerates them all.
    private static let presence: [ConformanceRule: ConformanceRuleDefinition] = [
        .selectInfoTooMany: .init(
            .invalidFormat, "challengeSelectInfo", "at most 8 options (2.3.1)", "2.3.1 Table A.1; protocol notes §9",
            tolerance:
                "the limit came with 2.3.1.1, and a 2.3.1 ACS may be older; the SDK shows every option it is sent"),
        .selectInfoKeyTooLong: .init(
            .invalidFormat, "challengeSelectInfo", "keys of at most 4 characters (2.3.1)",
            "2.3.1 Table A.1; protocol notes §9",
            tolerance:
                "the limit came with 2.3.1.1, and a 2.3.1 ACS may be older; the SDK sends back any key of up to 45 "
                + "characters"),
        .fieldNotInVersion: .init(
            .invalidFormat, "fields of another version",
            "only the version's fields (no 2.3.1 field before 2.3.1, no 2.2.0 field in 2.1.0, no "
                + "whitelistingInfoText in 2.3.1)",
            "EMV 3DS core spec Table A.1; 2.3.1 Table B.4; protocol notes §2, §9",
            tolerance:
                "real ACSs carry fields of a neighbouring version; the SDK ignores a field its version does not "
                + "define, as it ignores any unknown field"),
        .screenFieldNotAllowed: .init(
            .invalidFormat, "resendInformationLabel", "only on a text screen (acsUiType 01)", tablesA20,
            tolerance: "the SDK shows the resend button the ACS offers on any native screen"),
        .finalScreenField: .init(
            .invalidFormat, "screen fields", "none in a final CRes (challengeCompletionInd Y)",
            "EMV 3DS core spec Table A.1; protocol notes §4",
            tolerance: "a final CRes ends the challenge; the SDK ignores any screen field it carries"),
        .bridgingAppURLNotHTTPS: .init(
            .invalidFormat, "messageExtension.Bridging.challengeData.oobAppURL",
            "an https universal or app link with a host (2.2.0 Bridging)",
            "Bridging Message Extension; protocol notes §10",
            tolerance: "the SDK offers no app button for such a link and shows the screen without it"),
    ]

    /// The encrypted channel: what breaks before a CRes can be read (the SDK answers 302, or 101 and 204 for its
    /// plaintext).
    private static let channel: [ConformanceRule: ConformanceRuleDefinition] = [
        .channelPlaintext: .init(
            .decryptionFailure, "the response body", "a compact JWE (only an Erro may be plaintext)", jwe),
        .channelFormat: .init(
            .decryptionFailure, "the JWE", "five base64url parts and a JSON header, within 512 KiB", jwe),
        .channelAlgorithm: .init(.decryptionFailure, "alg", "`dir`", jwe),
        .channelEncryption: .init(.decryptionFailure, "enc", "the content encryption of the channel", jwe),
        .channelKeyID: .init(.decryptionFailure, "kid", "the transaction's acsTransID", jwe),
        .channelHeader: .init(.decryptionFailure, "the JWE header", "no member the SDK does not process", jwe),
        .channelTag: .init(
            .decryptionFailure, "the JWE", "decrypts and authenticates under the channel key, with a valid IV", jwe),
        .channelDuplicateMember: .init(.decryptionFailure, "the JWE header", "each member once", jwe),
        .payloadNotJSON: .init(
            .messageReceivedInvalid, "the decrypted CRes", "a JSON object",
            "RFC 8259; EMV 3DS core spec Table A.4 (101)"),
        .payloadDuplicateMember: .init(
            .duplicateElement, "the decrypted CRes", "each member once", "RFC 8259; EMV 3DS core spec Table A.4 (204)"),
    ]
}
