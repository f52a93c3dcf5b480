import FuzzSupport
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

private let identifiers = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

private func screen(_ fields: JSONObject, version: MessageVersion) -> ChallengeScreen {
    var object: JSONObject = [
        "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
        "acsTransID": .string(identifiers.acsTransID), "sdkTransID": .string(identifiers.sdkTransID),
        "acsCounterAtoS": .string("000"), "messageType": .string("CRes"), "messageVersion": .string(version.rawValue),
        "challengeCompletionInd": .string("N"), "challengeInfoHeader": .string("H"), "challengeInfoText": .string("T"),
        "challengeInfoLabel": .string("L"), "submitAuthenticationLabel": .string("S"),
        "whyInfoLabel": .string("Why"), "whyInfoText": .string("Because"),
    ]
    for member in fields.members { object[member.name] = member.value }
    let expectation = ChallengeResponseExpectation(
        identifiers: identifiers, messageVersion: version, acsCounter: 0, opensOOBApps: true)
    guard case .screen(let screen) = try! ChallengeResponseValidator.validate(object, expecting: expectation) else {
        fatalError("fixture is not a screen")
    }
    return screen
}

private let page = """
    <form action="https://emv3ds/challenge"><input name=otp><input type=checkbox name=c value=1>
    <select name=s><option value=a>A<option value=b>B</select><textarea name=t></textarea>
    <input type=submit name=go value=Go></form><a href="https://emv3ds/challenge?resend=1">Resend</a>
    """

private let screens: [ChallengeScreen] = [
    screen(
        ["acsUiType": .string("01"), "resendInformationLabel": .string("R"), "whitelistingInfoText": .string("W")],
        version: .v2_2_0),
    screen(["acsUiType": .string("01")], version: .v2_1_0),
    screen(
        [
            "acsUiType": .string("03"),
            "challengeSelectInfo": .array((0..<6).map { .object(["key\($0)": .string("L\($0)")]) }),
        ],
        version: .v2_2_0),
    screen(
        [
            "acsUiType": .string("02"),
            "challengeSelectInfo": .array([.object(["a": .string("A")]), .object(["b": .string("B")])]),
        ],
        version: .v2_1_0),
    screen(
        [
            "acsUiType": .string("04"), "oobContinueLabel": .string("C"),
            "oobAppURL": .string("https://bank.example/app"), "oobAppLabel": .string("Open"),
            "challengeAddLabel": .string("Other"), "deviceBindingInfoText": .string("Bind?"),
        ],
        version: .v2_3_1),
    screen(
        [
            "acsUiType": .string("01"),
            "challengeEntryBox": .object([
                "challengeDataEntryLabel": .string("Code"), "challengeDataEntryLengthMax": .string("06"),
                "challengeDataEntryMasking": .string("Y"), "challengeDataEntryToggle": .string("Y"),
            ]),
            "challengeEntryBoxTwo": .object(["challengeDataEntryLabel": .string("Year")]),
            "trustListInfoText": .string("Trust?"), "deviceBindingInfoText": .string("Bind?"),
            "togglePositionInd": .string("01"), "challengeAddLabel": .string("Other"),
            "resendInformationLabel": .string("R"),
        ],
        version: .v2_3_1),
    screen(
        [
            "acsUiType": .string("06"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8))),
            "oobAppURL": .string("https://bank.example/app"),
        ], version: .v2_3_1),
    screen(
        [
            "acsUiType": .string("05"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8))),
            "acsHTMLRefresh": .string(Base64.urlEncode(Array("<p>again</p>".utf8))),
        ], version: .v2_2_0),
    screen(["acsUiType": .string("07"), "infoContinueLabel": .string("OK")], version: .v2_3_1),
]

/// The form state's action sequences: each input byte is an action on one of the fixture screens. Whatever the
/// sequence, the focus stays on a focusable element, the entry stays within its bound, and an answer never carries
/// what a CReq may not.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let first = bytes.first else { return 0 }
    let chosen = screens[Int(first) % screens.count]
    var state = ChallengeFormState(screen: chosen, presentation: PresentationSettings(htmlReader: LibXML2FormReader()))
    for byte in bytes.dropFirst() {
        let argument = Int(byte >> 4)
        let action: FormAction
        switch byte % 24 {
        case 0: action = .focusNext
        case 1: action = .focusPrevious
        case 2: action = .type(String(UnicodeScalar(UInt8(0x30 + argument))))
        case 3: action = .type(String(repeating: "é", count: argument * 3))
        case 4: action = .deleteBackward
        case 5: action = .toggle
        case 6: action = .activate
        case 7: action = .select((0...argument).map { "key\($0)" })
        case 8: action = .setTrust(argument % 2 == 0)
        case 9: action = .submit(button: argument % 2 == 0 ? nil : "Go")
        case 10: action = .resend
        case 11: action = .continueChallenge
        case 12: action = .refresh
        case 13: action = .focus(argument)
        case 14: action = .setEntry(String(repeating: "9", count: argument * 4), box: argument % 3)
        case 15: action = .setHTMLFields(["otp": String(repeating: "x", count: argument * 20)])
        case 16: action = .toggleReveal
        case 17: action = .setDeviceBinding(argument % 2 == 0)
        case 18: action = .additionalCode
        case 19: action = .openApp
        case 20: action = .appOpenResult([.failed, .opened, .returned][argument % 3])
        case 21: action = .returnedFromApp
        case 22: action = .cancel
        default: action = .select(argument % 2 == 0 ? [] : ["a"])
        }
        let answer = state.perform(action)?.answer
        precondition(state.layout.elements[state.focus].isFocusable || state.focusOrder.isEmpty, "focus lost")
        for (box, entry) in state.entries.enumerated() {
            precondition(entry.utf8.count <= ChallengeFormState.maxEntryLength, "entry over its bound")
            precondition(entry.count <= state.entryBox(box).maxLength, "entry over its box's length")
        }
        guard let answer else { continue }
        switch answer.action {
        case .submitText(let text, let second):
            precondition(text.utf8.count <= ChallengeFormState.maxEntryLength)
            precondition((second?.utf8.count ?? 0) <= ChallengeFormState.maxEntryLength)
        case .submitHTML(let data): precondition(data.utf8.count <= ChallengeFormState.maxHTMLDataLength)
        case .submitEmpty: precondition(chosen.allowsEmptySubmission, "an empty submission where none exists")
        default: break
        }
        if answer.whitelisting != nil { precondition(chosen.whitelistingText != nil, "an answer to no question") }
        if answer.deviceBinding != nil { precondition(chosen.deviceBindingText != nil, "an answer to no question") }
        let builder = ChallengeRequestBuilder(
            identifiers: identifiers, messageVersion: chosen.messageVersion, requestorAppURL: nil,
            oobAppURLIndicator: .supported)
        precondition(
            (try? builder.request(counter: 1, answer: answer, answering: chosen)) != nil,
            "the form state gave an answer the CReq builder refuses: \(answer)")
        return 0
    }
    return 0
}

@_cdecl("fuzz_form_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
