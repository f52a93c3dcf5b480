#if canImport(SwiftUI) && DEBUG
    import SwiftUI
    import ThreeDS2JOSE
    import ThreeDS2Messages
    import ThreeDS2SDK

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

    /// Presents one sample screen through a presenter, as the SDK would.
    struct PreviewHost: View {
        let fields: JSONObject
        @State private var presenter = SwiftUIChallengePresenter(oobAppOpener: nil)

        var body: some View {
            ChallengeView(model: presenter.model)
                .task { @MainActor in
                    guard let screen = PreviewScreens.screen(fields) else { return }
                    _ = await presenter.present(ChallengeFormState(screen: screen))
                }
        }
    }
#endif
