#if canImport(SwiftUI) && DEBUG
    import SwiftUI
    import ThreeDS2JOSE
    import ThreeDS2Messages
    @_spi(ThreeDS2Tools) import ThreeDS2SDK

    /// Sample screens as the TestLab's ACS sends them, validated as the SDK validates a CRes.
    @MainActor
    enum PreviewScreens {
        static let identifiers = TransactionIdentifiers(
            threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
            acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340", sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

        static func screen(_ fields: JSONObject) -> ChallengeScreen? {
            var object: JSONObject = [
                "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
                "acsTransID": .string(identifiers.acsTransID), "sdkTransID": .string(identifiers.sdkTransID),
                "acsCounterAtoS": .string("000"), "messageType": .string(MessageType.challengeResponse.rawValue),
                "messageVersion": .string("2.3.1"),
                "challengeCompletionInd": .string("N"), "challengeInfoHeader": .string("Confirm your payment"),
                "challengeInfoText": .string("We sent a **one-time code** to your phone ending in 12."),
                "trustListInfoText": .string("Trust this merchant?"),
                "whyInfoLabel": .string("Why am I asked this?"), "whyInfoText": .string("Your bank checks it is you."),
            ]
            for member in fields.members { object[member.name] = member.value }
            let expectation = ChallengeResponseExpectation(
                identifiers: identifiers, messageVersion: .v2_3_1, acsCounter: 0, opensOOBApps: true)
            guard case .screen(let screen)? = try? ChallengeResponseValidator.validate(object, expecting: expectation)
            else { return nil }
            return screen
        }

        static let all: [(String, JSONObject)] = [
            (
                "Text, two boxes",
                [
                    "acsUiType": .string("01"), "submitAuthenticationLabel": .string("Verify"),
                    "resendInformationLabel": .string("Send a new code"),
                    "challengeEntryBox": .object([
                        "challengeDataEntryLabel": .string("One-time code"), "challengeDataEntryMasking": .string("Y"),
                        "challengeDataEntryToggle": .string("Y"), "challengeDataEntryAutofill": .string("Y"),
                        "challengeDataEntryAutofillType": .string("01"),
                        "challengeDataEntryKeyboardType": .string("01"),
                    ]),
                    "challengeEntryBoxTwo": .object(["challengeDataEntryLabel": .string("Year of birth")]),
                ]
            ),
            (
                "Single select",
                [
                    "acsUiType": .string("02"), "challengeInfoLabel": .string("Send the code by"),
                    "submitAuthenticationLabel": .string("Continue"),
                    "challengeSelectInfo": .array([
                        .object(["mobile": .string("SMS to •••• 12")]), .object(["email": .string("Email")]),
                    ]),
                ]
            ),
            (
                "Multi select",
                [
                    "acsUiType": .string("03"), "challengeInfoLabel": .string("Choose all that apply"),
                    "submitAuthenticationLabel": .string("Submit"),
                    "challengeSelectInfo": .array([
                        .object(["q1": .string("Train ticket")]), .object(["q2": .string("Piano")]),
                    ]),
                ]
            ),
            (
                "Out of band",
                [
                    "acsUiType": .string("04"), "oobContinueLabel": .string("I have approved"),
                    "oobAppURL": .string("https://bank.example/approve"), "oobAppLabel": .string("Open banking app"),
                ]
            ),
            (
                "HTML",
                [
                    "acsUiType": .string("05"),
                    "acsHTML": .string(
                        Base64.urlEncode(
                            Array(
                                "<form action='https://emv3ds/challenge'><input name=otp><button>Verify</button></form>"
                                    .utf8))),
                ]
            ),
            ("Information", ["acsUiType": .string("07"), "infoContinueLabel": .string("Continue")]),
        ]
    }

    struct ChallengeViewPreviews: PreviewProvider {
        static var previews: some View {
            ForEach(PreviewScreens.all, id: \.0) { name, fields in
                PreviewHost(fields: fields).previewDisplayName(name)
            }
        }
    }

    /// Every sample screen pseudo-localized: the SDK's texts and the ACS's 40 % longer and accented
    /// (``SDKStrings/pseudoLocalized(growth:)``), on a 320-point-wide phone, to find what wraps or is cut before a
    /// translation does it.
    struct PseudoLocalizedPreviews: PreviewProvider {
        static var previews: some View {
            ForEach(PreviewScreens.all, id: \.0) { name, fields in
                PreviewHost(
                    fields: PreviewScreens.pseudoLocalized(fields), strings: SDKStrings.english.pseudoLocalized()
                )
                .frame(width: 320)
                .previewDisplayName("\(name), pseudo-localized, 320 pt")
            }
        }
    }

    extension PreviewScreens {
        /// The screen's texts pseudo-localized: every string member except the HTML page, URLs and option keys.
        static func pseudoLocalized(_ fields: JSONObject) -> JSONObject {
            var out: JSONObject = [:]
            for member in fields.members {
                out[member.name] = pseudoLocalized(member.value, name: member.name)
            }
            return out
        }

        private static func pseudoLocalized(_ value: JSONValue, name: String) -> JSONValue {
            switch value {
            case .string(let text)
            where !["acsHTML", "acsUiType", "oobAppURL"].contains(name) && !name.hasSuffix("Masking")
                && !name.hasSuffix("Toggle") && !name.contains("Autofill") && !name.hasSuffix("KeyboardType"):
                return .string(SDKStrings.pseudoLocalized(text))
            case .object(let object):
                return .object(pseudoLocalized(object))
            case .array(let items):
                return .array(items.map { pseudoLocalized($0, name: name) })
            default:
                return value
            }
        }
    }

    /// Presents one sample screen through a presenter, as the SDK would.
    struct PreviewHost: View {
        let fields: JSONObject
        /// The SDK's texts shown; English unless a preview says otherwise.
        var strings: SDKStrings = .english
        @State private var presenter = SwiftUIChallengePresenter(oobAppOpener: nil)

        var body: some View {
            ChallengeView(model: presenter.model)
                .task { @MainActor in
                    guard let screen = PreviewScreens.screen(fields) else { return }
                    let presentation = PresentationSettings(strings: strings)
                    _ = await presenter.present(ChallengeFormState(screen: screen, presentation: presentation))
                }
        }
    }
#endif
