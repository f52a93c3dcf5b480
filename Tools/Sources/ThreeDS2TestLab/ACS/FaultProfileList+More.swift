import Crypto
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

extension ACSFaultProfile {
    /// The profiles of issue 47: the rules no earlier profile planted, the rules the SDK tolerates (reported with
    /// `--strict`), the encrypted channel's failures, and the ARes and ACS signed content rules. With them every rule
    /// of docs/conformance-rules.md is planted by a profile.
    static let moreProfiles: [ACSFaultProfile] = cresProfiles + toleratedProfiles + channelProfiles + serverProfiles

    private static let cresProfiles: [ACSFaultProfile] = [
        ACSFaultProfile(
            15, "conform-field-types", .text,
            [
                .v2_1_0: [first(.set("challengeInfoTextIndicator", .bool(true)), .fieldNotString)],
                .v2_3_1: [
                    first(
                        .set(
                            "messageExtension",
                            .array(Array(repeating: longExtension, count: 11))), .extensionTooLong)
                ],
            ]),
        ACSFaultProfile(
            16, "conform-html-length", .html,
            [.v2_2_0: [first(.set("acsHTML", .string(String(repeating: "A", count: 140_001))), .htmlTooLong)]]),
        ACSFaultProfile(
            17, "conform-oob-app-url-missing", .outOfBand, [.v2_3_1: [first(.remove("oobAppURL"), .oobAppURLMissing)]]),
        ACSFaultProfile(
            18, "conform-oob-app-unoffered", .outOfBand,
            [.v2_3_1: [first(.set("oobAppURL", .string("https://bank.testlab.example/approve")), .oobAppNotOffered)]],
            withoutAppOpener: true),
        ACSFaultProfile(
            19, "conform-entry-box-values", .twoEntryBoxes,
            [
                .v2_3_1: [
                    first(
                        .set(
                            "challengeEntryBox",
                            .object([
                                "challengeDataEntryLabel": .string("One-time code"),
                                "challengeDataEntryKeyboardType": .string(""),
                                "challengeDataEntryAutofill": .string("Y"),
                            ])), .entryBoxEmptyValue, .autofillTypeMissing),
                    first(
                        .set(
                            "challengeEntryBoxTwo",
                            .object([
                                "challengeDataEntryLabel": .string("Year of birth"),
                                "challengeDataEntryAutofill": .string("Y"),
                                "challengeDataEntryAutofillType": .string("07"),
                                "challengeDataEntryMasking": .string("Y"), "challengeDataEntryToggle": .string("maybe"),
                            ])), .autofillTypeReserved, .toggleValue),
                ]
            ]),
        ACSFaultProfile(
            20, "conform-entry-box-shapes", .twoEntryBoxes,
            [
                .v2_3_1: [
                    first(.set("challengeEntryBoxTwo", .string("Year of birth")), .entryBoxNotObject),
                    first(
                        .set(
                            "challengeEntryBox",
                            .object([
                                "challengeDataEntryLabel": .string("One-time code"),
                                "challengeDataEntryAutofill": .string("Y"),
                                "challengeDataEntryAutofillType": .string("AB"),
                            ])), .autofillTypeValue),
                    first(.set("togglePositionInd", .string("1A")), .togglePositionValue),
                ]
            ]),
    ]

    /// What the SDK tolerates: `threeds conform` reports these only with `--strict`.
    private static let toleratedProfiles: [ACSFaultProfile] = [
        ACSFaultProfile(
            21, "conform-select-limits", .singleSelect,
            [
                .v2_2_0: [first(.set("resendInformationLabel", .string("Send again")), .screenFieldNotAllowed)],
                .v2_3_1: [
                    first(
                        .set(
                            "challengeSelectInfo",
                            .array([option("sms", "SMS")] + (1...8).map { option("o\($0)", "Option \($0)") })),
                        .selectInfoTooMany)
                ],
            ]),
        ACSFaultProfile(
            22, "conform-select-keys", .singleSelect,
            [
                .v2_3_1: [
                    first(
                        .set("challengeSelectInfo", .array([option("sms", "SMS"), option("email", "Email")])),
                        .selectInfoKeyTooLong)
                ]
            ]),
        ACSFaultProfile(
            23, "conform-version-fields", .text,
            [
                .v2_1_0: [first(.set("challengeAddInfo", .string("More about this payment")), .fieldNotInVersion)],
                .v2_2_0: [
                    first(
                        .set("challengeEntryBox", .object(["challengeDataEntryLabel": .string("Code")])),
                        .fieldNotInVersion)
                ],
                .v2_3_1: [first(.set("whitelistingInfoText", .string("Trust this merchant?")), .fieldNotInVersion)],
            ]),
        ACSFaultProfile(
            24, "conform-final-screen", .text,
            [.v2_2_0: [ACSFaultPatch(.final, .set("challengeInfoHeader", .string("Done")), breaks: .finalScreenField)]]),
        ACSFaultProfile(
            25, "conform-bridging-link", .outOfBand,
            [.v2_2_0: [first(.set("messageExtension", .array([plainBridgingLink])), .bridgingAppURLNotHTTPS)]]),
    ]

    /// The encrypted channel: the first CRes's JWE, or what it encrypts.
    private static let channelProfiles: [ACSFaultProfile] = [
        ACSFaultProfile(
            26, "conform-channel-body", .text, [:],
            raw: [.v2_1_0: .plaintext, .v2_2_0: .truncated, .v2_3_1: .flippedTag]),
        ACSFaultProfile(
            27, "conform-channel-header", .text, [:],
            raw: [
                .v2_1_0: .header(#"{"alg":"RSA-OAEP-256","enc":"A128CBC-HS256"}"#),
                .v2_2_0: .header(#"{"alg":"dir","enc":"A256GCM"}"#),
                .v2_3_1: .header(#"{"alg":"dir","enc":"A128CBC-HS256","kid":"another-transaction"}"#),
            ]),
        ACSFaultProfile(
            28, "conform-channel-members", .text, [:],
            raw: [
                .v2_1_0: .header(#"{"alg":"dir","enc":"A128CBC-HS256","kid":"a","kid":"b"}"#),
                .v2_2_0: .header(#"{"alg":"dir","enc":"A128CBC-HS256","zip":"DEF"}"#),
                .v2_3_1: .payload(Array(#"{"messageType":"CRes","messageType":"CRes"}"#.utf8)),
            ]),
        ACSFaultProfile(29, "conform-channel-payload", .text, [:], raw: [.v2_2_0: .payload(Array("[1]".utf8))]),
    ]

    /// The ARes the TestLab 3DS Server answers with, and the ACS signed content it carries.
    private static let serverProfiles: [ACSFaultProfile] = [
        ACSFaultProfile(
            30, "conform-ares-status", .text,
            [
                .v2_1_0: [ares(.remove("transStatus"), .aresTransStatusMissing)],
                .v2_2_0: [ares(.set("transStatus", .string("X")), .aresTransStatusInvalid)],
                .v2_3_1: [ares(.remove("acsReferenceNumber"), .aresFieldMissing)],
            ]),
        ACSFaultProfile(
            31, "conform-ares-fields", .text,
            [
                .v2_1_0: [ares(.set("acsTransID", .string("not-a-transaction-id")), .aresTransactionIDNotUUID)],
                .v2_2_0: [
                    ares(
                        .set("acsReferenceNumber", .string(String(repeating: "R", count: 33))),
                        .aresReferenceNumberLength)
                ],
                .v2_3_1: [ares(.set("acsSignedContent", .string("")), .aresSignedContentEmpty)],
            ]),
        ACSFaultProfile(
            32, "conform-signed-payload", .text,
            [.v2_3_1: [signed(.remove("acsURL"), .signedContentACSURL)]],
            raw: [.v2_1_0: .signedPayload(Array("not JSON".utf8)), .v2_2_0: .signedPayload(Array("[1]".utf8))]),
        ACSFaultProfile(
            33, "conform-signed-keys", .text,
            [
                .v2_1_0: [signed(.remove("acsEphemPubKey"), .signedContentACSKeyMissing)],
                .v2_2_0: [signed(.set("acsEphemPubKey", .string("not a key")), .signedContentACSKeyInvalid)],
                .v2_3_1: [signed(.remove("sdkEphemPubKey"), .signedContentSDKKeyMissing)],
            ]),
        ACSFaultProfile(
            34, "conform-signed-urls", .text,
            [
                .v2_1_0: [signed(.set("sdkEphemPubKey", .string("not a key")), .signedContentSDKKeyInvalid)],
                .v2_2_0: [signed(.set("acsURL", .string("acs/challenge")), .signedContentACSURLNotAbsolute)],
                .v2_3_1: [
                    signed(
                        .set("acsURL", .string("http://acs.testlab.example/challenge")), .signedContentACSURLNotHTTPS)
                ],
            ]),
        ACSFaultProfile(
            35, "conform-signed-foreign-key", .text,
            [.v2_2_0: [signed(.set("sdkEphemPubKey", .object(foreignKey)), .signedContentSDKKeyMismatch)]]),
        // No rule: the cancel suite's behaviour check (a cancel answered with transStatus Y).
        ACSFaultProfile(
            36, "conform-cancel-authenticates", .text,
            [.v2_2_0: [ACSFaultPatch(.final, .set("transStatus", .string("Y")))]]),
        // The results leg (no CRes rule: what the 3DS Server answers, and what `threeds conform` and `pay` compare).
        // 37: the RReq of a Y lacks authenticationValue, so the 3DS Server refuses it (Erro 201) and holds no result.
        ACSFaultProfile(
            37, "results-missing-value", .text,
            Dictionary(
                uniqueKeysWithValues: MessageVersion.supported.map { ($0, [results(.remove("authenticationValue"))]) })),
        // 38: the RReq says N although the final CRes says Y.
        ACSFaultProfile(
            38, "results-contradicting", .text,
            Dictionary(
                uniqueKeysWithValues: MessageVersion.supported.map { version in
                    (
                        version,
                        [
                            results(.set("transStatus", .string("N"))),
                            results(.set("transStatusReason", .string("01"))),
                            results(.remove("authenticationValue")), results(.remove("eci")),
                        ]
                    )
                })),
        // 39: the ACS sends its RReq twice; the second is refused (312 in 2.3.1, 301 before).
        ACSFaultProfile(39, "results-duplicate", .text, [:], duplicatesResults: true),
        // The DS on a Split-SDK AReq (2.3.1): Erro 308 as if the signature failed, or the server were unknown.
        ACSFaultProfile(40, "split-bad-signature", .text, [:], splitFault: .badSignature),
        ACSFaultProfile(41, "split-unknown-server", .text, [:], splitFault: .unknownServer),
    ]

    private static func results(_ patch: RawPatch) -> ACSFaultPatch {
        ACSFaultPatch(target: .resultsRequest, patch: patch, rules: [])
    }

    private static func ares(_ patch: RawPatch, _ rule: ConformanceRule) -> ACSFaultPatch {
        ACSFaultPatch(.authenticationResponse, patch, breaks: rule)
    }

    private static func signed(_ patch: RawPatch, _ rule: ConformanceRule) -> ACSFaultPatch {
        ACSFaultPatch(.signedContent, patch, breaks: rule)
    }

    /// A message extension entry of almost the longest data object (8,059 characters): 11 make the array longer than
    /// 81,920 characters.
    private static let longExtension: JSONValue = .object([
        "name": .string("TestLabExtension"), "id": .string("A999999999-003"), "criticalityIndicator": .bool(false),
        "data": .object(["filler": .string(String(repeating: "x", count: 7_900))]),
    ])

    /// A Bridging extension whose app link is plain http.
    private static let plainBridgingLink: JSONValue = .object([
        "name": .string(Bridging.name), "id": .string(Bridging.id), "criticalityIndicator": .bool(false),
        "data": .object([
            "version": .string(Bridging.Version.v1_0.rawValue),
            "challengeData": .object([
                "oobAppURL": .string("http://bank.testlab.example/approve"), "oobAppLabel": .string("Open banking app"),
            ]),
        ]),
    ])

    /// A P-256 public key that is not the SDK's.
    private static let foreignKey = P256PublicJWK(P256.KeyAgreement.PrivateKey().publicKey).jsonObject
}
