import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

extension ACSFaultProfile {
    /// Every fault profile, in card-number order (the first is `4000000000080004`). Each patch names the one rule it
    /// breaks; a profile's patches for one version touch different fields, so an audit reports each once.
    public static let all: [ACSFaultProfile] =
        [
            ACSFaultProfile(
                0, "conform-identifiers", .text,
                [
                    .v2_1_0: [
                        first(.set("messageType", .string("CReq")), .messageTypeNotCRes),
                        first(.set("acsTransID", .string("not-a-transaction-id")), .transactionIDNotUUID),
                        first(.set("sdkTransID", .string(otherTransactionID)), .transactionIDMismatch),
                    ],
                    .v2_2_0: [first(.remove("acsCounterAtoS"), .requiredFieldMissing)],
                    .v2_3_1: [first(.set("messageVersion", .string("2.2.0")), .messageVersionMismatch)],
                ]),
            ACSFaultProfile(
                1, "conform-counter", .text,
                [
                    .v2_1_0: [first(.set("acsCounterAtoS", .string("7")), .counterFormat)],
                    .v2_2_0: [first(.set("acsCounterAtoS", .string("005")), .counterMismatch)],
                    .v2_3_1: [first(.set("challengeCompletionInd", .string("n")), .completionIndicatorValue)],
                ]),
            ACSFaultProfile(
                2, "conform-extensions", .text,
                [
                    .v2_1_0: [first(.set("messageExtension", .object(["name": .string("x")])), .extensionNotArray)],
                    .v2_2_0: [
                        first(
                            .set("messageExtension", .array([.object(["name": .string("x")])])),
                            .extensionEntryMalformed)
                    ],
                    .v2_3_1: [
                        first(
                            .set(
                                "messageExtension", .array(Array(repeating: extensionEntry(critical: false), count: 16))
                            ),
                            .extensionTooMany)
                    ],
                ]),
            ACSFaultProfile(
                3, "conform-critical-extension", .singleSelect,
                [
                    .v2_3_1: [
                        first(
                            .set("messageExtension", .array([extensionEntry(critical: true)])),
                            .extensionCriticalUnrecognised)
                    ]
                ]),
            ACSFaultProfile(
                4, "conform-final-status", .text,
                [
                    .v2_1_0: [ACSFaultPatch(.final, .remove("transStatus"), breaks: .transStatusMissing)],
                    .v2_2_0: [ACSFaultPatch(.final, .set("transStatus", .string("D")), breaks: .transStatusValue)],
                    .v2_3_1: [ACSFaultPatch(.final, .set("transStatus", .string("A")), breaks: .transStatusValue)],
                ]),
            ACSFaultProfile(
                5, "conform-ui-type", .text,
                [
                    .v2_1_0: [first(.set("acsUiType", .string("06")), .uiTypeUnknown)],
                    .v2_2_0: [first(.remove("acsUiType"), .uiTypeMissing)],
                    .v2_3_1: [first(.set("acsUiType", .string("42")), .uiTypeReserved)],
                ]),
            ACSFaultProfile(
                6, "conform-texts", .text,
                [
                    .v2_1_0: [
                        first(
                            .set("whyInfoText", .string(String(repeating: "Your bank checks it is you. ", count: 10))),
                            .textTooLong),
                        first(
                            .set("challengeInfoText", .string("Enter the code\u{202E}21 ni gnidne")),
                            .textControlCharacter),
                    ],
                    .v2_2_0: [
                        first(.set("challengeInfoTextIndicator", .string("yes")), .infoTextIndicatorValue),
                        first(.set("resendInformationLabel", .string("")), .resendLabelEmpty),
                    ],
                    .v2_3_1: [
                        first(
                            .set("challengeInfoHeader", .string(String(repeating: "Confirm your payment ", count: 3))),
                            .textTooLong),
                        first(.remove("submitAuthenticationLabel"), .screenFieldMissing),
                    ],
                ]),
            ACSFaultProfile(
                7, "conform-images", .text,
                [
                    .v2_1_0: [first(.set("psImage", .number("42")), .imageNotObject)],
                    .v2_2_0: [
                        first(
                            .set("issuerImage", .object(["medium": .string("http://bank.testlab.example/logo.png")])),
                            .imageNotHTTPS),
                        first(.set("psImage", .object([:])), .imageEmpty),
                    ],
                    .v2_3_1: [
                        first(
                            .set(
                                "issuerImage",
                                .object([
                                    "default": .string(
                                        "https://bank.testlab.example/" + String(repeating: "l", count: 7000))
                                ])), .imageTooLong)
                    ],
                ]),
            ACSFaultProfile(
                8, "conform-select", .singleSelect,
                [
                    .v2_1_0: [
                        first(
                            .set("challengeSelectInfo", .array([option("mobile", "SMS"), option("mobile", "Call")])),
                            .selectInfoRepeatedKey)
                    ],
                    .v2_2_0: [first(.set("challengeSelectInfo", .string("mobile")), .selectInfoNotArray)],
                    .v2_3_1: [
                        first(
                            .set("challengeSelectInfo", .array([option("email", "Email"), option("email", "Post")])),
                            .selectInfoDuplicateKey)
                    ],
                ]),
            ACSFaultProfile(
                9, "conform-select-entries", .multiSelect,
                [
                    .v2_1_0: [
                        first(
                            .set(
                                "challengeSelectInfo",
                                .array([.object(["q1": .string("Train"), "q2": .string("Piano")])])),
                            .selectInfoEntry)
                    ],
                    .v2_2_0: [first(.set("challengeSelectInfo", .array([option("q1,q2", "Both")])), .selectInfoComma)],
                ]),
            ACSFaultProfile(
                10, "conform-html", .html,
                [
                    .v2_1_0: [first(.set("acsHTML", .string("PGh0bWw+PC9odG1sPg==")), .htmlNotBase64URL)],
                    .v2_2_0: [first(.set("acsHTML", .string("__79")), .htmlNotUTF8)],
                    .v2_3_1: [first(.set("acsHTML", .string("PGh0bWw+PC9odG1s+g")), .htmlNotBase64URL)],
                ]),
            ACSFaultProfile(
                11, "conform-oob-app", .outOfBand,
                [
                    .v2_3_1: [
                        first(.set("oobAppURL", .string("http://bank.testlab.example/approve")), .oobAppURLNotHTTPS)
                    ]
                ]),
            ACSFaultProfile(
                12, "conform-oob-app-label", .outOfBand,
                [.v2_3_1: [first(.remove("oobAppLabel"), .oobAppLabelMissing)]]),
            ACSFaultProfile(
                13, "conform-entry-boxes", .twoEntryBoxes,
                [
                    .v2_3_1: [
                        first(
                            .set(
                                "challengeEntryBox",
                                .object([
                                    "challengeDataEntryLabel": .string("One-time code"),
                                    "challengeDataEntryKeyboardType": .string("05"),
                                    "challengeDataEntryAutofill": .string("N"),
                                    "challengeDataEntryLengthMax": .string("99"),
                                    "challengeDataEntryMasking": .string("Y"),
                                ])), .keyboardTypeReserved, .autofillValue, .lengthMaxValue, .toggleMissing),
                        first(
                            .set(
                                "challengeEntryBoxTwo",
                                .object([
                                    "challengeDataEntryKeyboardType": .string("AB"),
                                    "challengeDataEntryMasking": .string("maybe"),
                                ])), .entryBoxLabelMissing, .keyboardTypeValue, .maskingValue),
                    ]
                ]),
            ACSFaultProfile(
                14, "conform-toggle", .consents,
                [.v2_3_1: [first(.set("togglePositionInd", .string("05")), .togglePositionReserved)]]),
        ] + moreProfiles

    /// A sdkTransID that is not the transaction's.
    static let otherTransactionID = "00000000-0000-4000-8000-000000000000"

    static func first(_ patch: RawPatch, _ rules: ConformanceRule...) -> ACSFaultPatch {
        ACSFaultPatch(target: .first, patch: patch, rules: rules)
    }

    static func option(_ key: String, _ label: String) -> JSONValue {
        .object(JSONObject([(key, .string(label))]))
    }

    static func extensionEntry(critical: Bool) -> JSONValue {
        .object([
            "name": .string("TestLabExtension"), "id": .string(critical ? "A999999999-002" : "A999999999-003"),
            "criticalityIndicator": .bool(critical), "data": .object([:]),
        ])
    }
}
