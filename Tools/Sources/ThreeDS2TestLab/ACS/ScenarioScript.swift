import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages

/// The challenge content of each scenario: which screen follows which CReq.
enum ScenarioScript {
    static let code = "123456"
    static let maxWrongAttempts = 3

    static let yearOfBirth = "1990"

    static func response(to request: JSONObject, challenge: inout AccessControlServer.Challenge, imageBase: String?)
        -> JSONObject
    {
        var base = header(challenge)
        let version = challenge.record.messageVersion
        let v231 = version.carriesOOBAppURLIndicator
        let first = !RequestCheck.actions.contains { request[$0] != nil }
        if first { challenge.opensOOBApps = request["oobAppURLInd"] == .string("01") }
        if first, version.carriesBridging, let announced = try? Bridging.read(request["messageExtension"]) {
            challenge.bridgingVersion = announced.version?.rawValue
        }
        if request["challengeCancel"] != nil { return final(base, "N") }
        // After the additional-code button: the out-of-band screen, continue finishes.
        if challenge.lastScreen?["acsUiType"] == .string("04"), challenge.record.scenario == .additionalCode {
            return request["oobContinue"] != nil ? final(base, "Y") : merge(base, oobScreen(challenge))
        }
        switch challenge.record.scenario {
        case .singleSelect:
            if first { return merge(base, selectScreen(multiple: false)) }
            let chosen = request["challengeDataEntry"]?.stringValue?.split(separator: ",") ?? []
            return final(base, chosen.count == 1 && ["mobile", "email"].contains(String(chosen[0])) ? "Y" : "N")
        case .multiSelect:
            if first { return merge(base, selectScreen(multiple: true)) }
            return final(base, request["challengeDataEntry"] == .string("q1,q3") ? "Y" : "N")
        case .outOfBand, .bridging:
            if first || request["oobContinue"] == nil { return merge(base, oobScreen(challenge)) }
            return final(base, "Y")
        case .htmlOutOfBand where v231:
            if first { return merge(base, htmlOOBScreen(challenge)) }
            // 02: back from the bank's app, nothing else; 01: the page's button, with its form data.
            if request["oobContinue"] == .string("02") { return final(base, "Y") }
            let pairs = formPairs(request["challengeHTMLDataEntry"]?.stringValue ?? "")
            return final(base, pairs["action"] == "approved" ? "Y" : "N")
        case .html, .htmlOutOfBand:
            let txid = challenge.identifiers.acsTransID
            if first { return merge(base, htmlScreen(txid: txid, error: false)) }
            let pairs = formPairs(request["challengeHTMLDataEntry"]?.stringValue ?? "")
            if pairs["action"] == "cancel" { return final(base, "N") }
            if pairs["action"] == "resend" { return merge(base, htmlScreen(txid: txid, error: false, resent: true)) }
            if pairs["otp"] == code, pairs["action"] == "verify", pairs["txid"] == challenge.identifiers.acsTransID {
                return final(base, "Y")
            }
            challenge.wrongAttempts += 1
            return challenge.wrongAttempts >= maxWrongAttempts
                ? final(base, "N") : merge(base, htmlScreen(txid: txid, error: true))
        case .information where version.defines(.information) && first:
            return merge(
                base,
                [
                    "acsUiType": .string("07"), "challengeInfoHeader": .string("Before you continue"),
                    "challengeInfoText": .string(
                        "Your bank will now ask for a **one-time code**.\nKeep your phone at hand."),
                    "infoContinueLabel": .string("Continue"),
                ])
        case .additionalCode where request["challengeAddCode"] != nil:
            return merge(base, oobScreen(challenge))
        default:
            // Text code (also the information scenario's second screen and the fault scenarios).
            let twoBoxes = challenge.record.scenario == .twoEntryBoxes && v231
            let right =
                request["challengeDataEntry"] == .string(code)
                && (!twoBoxes || request["challengeDataEntryTwo"] == .string(yearOfBirth))
            if right { return final(base, "Y") }
            if first || request["infoContinueIndicator"] != nil {
                return merge(base, textScreen(challenge, note: nil, imageBase: imageBase))
            }
            if request["resendChallenge"] != nil {
                return merge(
                    base, textScreen(challenge, note: "A new code was sent to your phone.", imageBase: imageBase))
            }
            challenge.wrongAttempts += 1
            if challenge.wrongAttempts >= maxWrongAttempts { return final(base, "N") }
            base["challengeInfoTextIndicator"] = .string("Y")
            let left = maxWrongAttempts - challenge.wrongAttempts
            return merge(
                base,
                textScreen(
                    challenge, note: "The code was not correct. \(left) attempt\(left == 1 ? "" : "s") left.",
                    imageBase: imageBase))
        }
    }

    static func formPairs(_ data: String) -> [String: String] {
        Dictionary(
            data.split(separator: "&").map { pair -> (String, String) in
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (kv[0], kv.count > 1 ? kv[1] : "")
            }, uniquingKeysWith: { first, _ in first })
    }

    /// The out-of-band screen; in 2.3.1 it links the bank's app when the first CReq said the SDK can open it
    /// (`oobAppURLInd` `01`), and keeps a continue button for a cardholder who approves another way.
    static func oobScreen(_ challenge: AccessControlServer.Challenge) -> JSONObject {
        var screen: JSONObject = [
            "acsUiType": .string("04"), "challengeInfoHeader": .string("Approve in your banking app"),
            "challengeInfoText": .string(
                "We sent a request to your banking app.\nApprove it, then come back and continue."),
            "oobContinueLabel": .string("I have approved"),
            "challengeAddInfo": .string("Welcome back. Press continue to finish."),
        ]
        if challenge.record.messageVersion.hasOOBAppURL, challenge.opensOOBApps {
            screen["oobAppURL"] = .string(bankAppURL)
            screen["oobAppLabel"] = .string("Open banking app")
        }
        // 2.2.0, Mastercard-like: the same link in the Bridging extension, in the version the SDK announced.
        if challenge.record.scenario == .bridging, let version = challenge.bridgingVersion {
            screen["messageExtension"] = .array([
                .object([
                    "name": .string(Bridging.name), "id": .string(Bridging.id), "criticalityIndicator": .bool(false),
                    "data": .object([
                        "version": .string(version),
                        "challengeData": .object([
                            "oobAppURL": .string(bankAppURL), "oobAppLabel": .string("Open banking app"),
                        ]),
                    ]),
                ])
            ])
        }
        return screen
    }

    /// The bank's app link the lab's out-of-band screens give.
    static let bankAppURL = "https://bank.testlab.example/approve"

    /// The 2.3.1 HTML out-of-band screen (UI 06): the page's button continues with its form data.
    static func htmlOOBScreen(_ challenge: AccessControlServer.Challenge) -> JSONObject {
        let page = """
            <!DOCTYPE html><html><head><title>Approve</title></head><body>
            <h1>Approve in your banking app</h1>
            <p>We sent a request to your banking app. Approve it there, then come back.</p>
            <form method="post" action="HTTPS://EMV3DS/challenge">
            <input type="hidden" name="txid" value="\(challenge.identifiers.acsTransID)">
            <button type="submit" name="action" value="approved">I have approved</button>
            </form>
            </body></html>
            """
        var screen: JSONObject = [
            "acsUiType": .string("06"), "acsHTML": .string(Base64.urlEncode(Array(page.utf8))),
        ]
        if challenge.opensOOBApps { screen["oobAppURL"] = .string(bankAppURL) }
        return screen
    }

    static func header(_ challenge: AccessControlServer.Challenge) -> JSONObject {
        [
            "threeDSServerTransID": .string(challenge.identifiers.threeDSServerTransID),
            "acsTransID": .string(challenge.identifiers.acsTransID),
            "sdkTransID": .string(challenge.identifiers.sdkTransID),
            "acsCounterAtoS": .string(ChallengeRequestBuilder.counterText(challenge.acsCounter)),
            "messageType": .string(MessageType.challengeResponse.rawValue),
            "messageVersion": .string(challenge.record.messageVersion.rawValue),
            "challengeCompletionInd": .string("N"),
        ]
    }

    static func final(_ base: JSONObject, _ status: String) -> JSONObject {
        var object = base
        object["challengeCompletionInd"] = .string("Y")
        object["transStatus"] = .string(status)
        return object
    }

    static func merge(_ base: JSONObject, _ screen: JSONObject) -> JSONObject {
        var object = base
        for member in screen.members where object[member.name] == nil { object[member.name] = member.value }
        return object
    }

    static func textScreen(_ challenge: AccessControlServer.Challenge, note: String?, imageBase: String?) -> JSONObject
    {
        let version = challenge.record.messageVersion
        let scenario = challenge.record.scenario
        var screen: JSONObject = [
            "acsUiType": .string("01"), "challengeInfoHeader": .string("Confirm your payment"),
            "challengeInfoText": .string(
                note ?? "We sent a one-time code to your phone ending in 12.\nEnter it below."),
            "submitAuthenticationLabel": .string("Verify"),
            "resendInformationLabel": .string("Send a new code"),
            "whyInfoLabel": .string("Why am I asked this?"),
            "whyInfoText": .string("Your bank checks that it is really you paying."),
            "expandInfoLabel": .string("Need help?"),
            "expandInfoText": .string("Call the number on the back of your card."),
        ]
        if version.hasEntryBoxes {
            // 2.3.1 (Table A.20): the label lives in the entry box; there is no challengeInfoLabel.
            var box: JSONObject = [
                "challengeDataEntryLabel": .string("One-time code"), "challengeDataEntryKeyboardType": .string("01"),
                "challengeDataEntryLengthMax": .string("06"),
            ]
            if scenario == .twoEntryBoxes {
                box["challengeDataEntryMasking"] = .string("Y")
                box["challengeDataEntryToggle"] = .string("Y")
                box["challengeDataEntryAutofill"] = .string("Y")
                box["challengeDataEntryAutofillType"] = .string("01")
                screen["challengeEntryBoxTwo"] = .object([
                    "challengeDataEntryLabel": .string("Year of birth"),
                    "challengeDataEntryKeyboardType": .string("01"), "challengeDataEntryLengthMax": .string("04"),
                    "challengeDataEntryMasking": .string("N"),
                ])
            }
            screen["challengeEntryBox"] = .object(box)
            screen["challengeInfoText"] = .string(
                note ?? "We sent a **one-time code** to your phone ending in 12.\nEnter it below.")
        } else {
            screen["challengeInfoLabel"] = .string("One-time code")
        }
        if scenario == .additionalCode, version.hasAdditionalCode {
            screen["challengeAddLabel"] = .string("Use my banking app instead")
        }
        if let question = version.trustQuestion {
            screen[question.textField] = .string("Trust this merchant for future payments?")
        }
        if scenario == .consents, version.hasDeviceBinding {
            screen["deviceBindingInfoText"] = .string("Remember this device for future approvals?")
            screen["togglePositionInd"] = .string("01")
        }
        if let imageBase, version.hasAppearanceImages {
            screen["issuerImage"] = .object([
                "default": .string(imageBase + "/issuer-default.png"), "dark": .string(imageBase + "/issuer-dark.png"),
                "monochrome": .string(imageBase + "/issuer-monochrome.png"),
            ])
            screen["psImage"] = .object([
                "default": .string(imageBase + "/ps-default.png"), "dark": .string(imageBase + "/ps-dark.png"),
            ])
        } else if let imageBase {
            screen["issuerImage"] = .object([
                "medium": .string(imageBase + "/issuer-medium.png"), "high": .string(imageBase + "/issuer-high.png"),
            ])
            screen["psImage"] = .object([
                "medium": .string(imageBase + "/ps-medium.png"), "extraHigh": .string(imageBase + "/ps-xhigh.png"),
            ])
        }
        return screen
    }

    static func selectScreen(multiple: Bool) -> JSONObject {
        multiple
            ? [
                "acsUiType": .string("03"), "challengeInfoHeader": .string("Security questions"),
                "challengeInfoText": .string("Which of these did you buy in the last month?"),
                "challengeInfoLabel": .string("Choose all that apply"),
                "submitAuthenticationLabel": .string("Submit"),
                "challengeSelectInfo": .array([
                    .object(["q1": .string("Train ticket")]), .object(["q2": .string("Piano")]),
                    .object(["q3": .string("Groceries")]),
                ]),
            ]
            : [
                "acsUiType": .string("02"), "challengeInfoHeader": .string("Where should we send your code?"),
                "challengeInfoText": .string("Choose how to receive your one-time code."),
                "challengeInfoLabel": .string("Send the code by"),
                "submitAuthenticationLabel": .string("Continue"),
                "challengeSelectInfo": .array([
                    .object(["mobile": .string("SMS to •••• 12")]),
                    .object(["email": .string("Email to j•••@example.com")]),
                ]),
            ]
    }

    static func htmlScreen(txid: String, error: Bool, resent: Bool = false) -> JSONObject {
        [
            "acsUiType": .string("05"),
            "acsHTML": .string(Base64.urlEncode(Array(htmlPage(txid: txid, error: error, resent: resent).utf8))),
        ]
    }

    static func htmlPage(txid: String, error: Bool, resent: Bool = false) -> String {
        """
        <!DOCTYPE html><html><head><title>Verify</title><style>body{font-family:sans-serif}</style>
        <script>document.title = 'scripts never run';</script></head><body>
        <h1>Confirm your payment</h1>\(error ? "<p class=\"error\">The code was not correct.</p>" : "")\(resent ? "<p>A new code was sent to your phone.</p>" : "")
        <p>Enter the one-time code we sent to your phone.</p>
        <form method="post" action="HTTPS://EMV3DS/challenge">
        <input type="hidden" name="txid" value="\(txid)">
        <label for="otp">Code</label> <input type="text" id="otp" name="otp" value="" maxlength="8">
        <label><input type="checkbox" name="remember" value="yes"> Remember this device</label>
        <button type="submit" name="action" value="verify">Verify</button>
        <button type="submit" name="action" value="cancel">Cancel</button>
        </form>
        <p><a href="https://emv3ds/challenge?action=resend">Send a new code</a></p>
        </body></html>
        """
    }
}
