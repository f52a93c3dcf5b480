import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages

/// The challenge content of each scenario: which screen follows which CReq.
enum ScenarioScript {
    static let code = "123456"
    static let maxWrongAttempts = 3

    static func response(to request: JSONObject, challenge: inout AccessControlServer.Challenge, imageBase: String?)
        -> JSONObject
    {
        var base = header(challenge)
        let version = challenge.record.messageVersion
        let first =
            request["challengeDataEntry"] == nil && request["challengeHTMLDataEntry"] == nil
            && request["challengeCancel"] == nil
            && request["resendChallenge"] == nil && request["oobContinue"] == nil && request["challengeNoEntry"] == nil
            && request["infoContinueIndicator"] == nil
        if request["challengeCancel"] != nil { return final(base, "N") }
        switch challenge.record.scenario {
        case .singleSelect:
            if first { return merge(base, selectScreen(multiple: false)) }
            let chosen = request["challengeDataEntry"]?.stringValue?.split(separator: ",") ?? []
            return final(base, chosen.count == 1 && ["mobile", "email"].contains(String(chosen[0])) ? "Y" : "N")
        case .multiSelect:
            if first { return merge(base, selectScreen(multiple: true)) }
            return final(base, request["challengeDataEntry"] == .string("q1,q3") ? "Y" : "N")
        case .outOfBand:
            if first || request["oobContinue"] == nil {
                var screen: JSONObject = [
                    "acsUiType": .string("04"), "challengeInfoHeader": .string("Approve in your banking app"),
                    "challengeInfoText": .string(
                        "We sent a request to your banking app.\nApprove it, then come back and continue."),
                    "oobContinueLabel": .string("I have approved"),
                    "challengeAddInfo": .string("Welcome back. Press continue to finish."),
                ]
                if version.hasOOBAppURL {
                    screen["oobAppURL"] = .string("https://127.0.0.1/testlab-bank-app")
                    screen["oobAppLabel"] = .string("Open banking app")
                }
                return merge(base, screen)
            }
            return final(base, "Y")
        case .html:
            let txid = challenge.identifiers.acsTransID
            if first { return merge(base, htmlScreen(txid: txid, error: false)) }
            let data = request["challengeHTMLDataEntry"]?.stringValue ?? ""
            let pairs = Dictionary(
                data.split(separator: "&").map { pair -> (String, String) in
                    let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return (kv[0], kv.count > 1 ? kv[1] : "")
                }, uniquingKeysWith: { first, _ in first })
            if pairs["action"] == "cancel" { return final(base, "N") }
            if pairs["action"] == "resend" { return merge(base, htmlScreen(txid: txid, error: false)) }
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
                        "Your bank will now ask for a one-time code.\nKeep your phone at hand."),
                    "infoContinueLabel": .string("Continue"),
                ])
        default:
            // Text code (also the information scenario's second screen and the fault scenarios).
            if request["challengeDataEntry"] == .string(code) { return final(base, "Y") }
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

    static func header(_ challenge: AccessControlServer.Challenge) -> JSONObject {
        [
            "threeDSServerTransID": .string(challenge.identifiers.threeDSServerTransID),
            "acsTransID": .string(challenge.identifiers.acsTransID),
            "sdkTransID": .string(challenge.identifiers.sdkTransID),
            "acsCounterAtoS": .string(ChallengeRequestBuilder.counterText(challenge.acsCounter)),
            "messageType": .string("CRes"), "messageVersion": .string(challenge.record.messageVersion.rawValue),
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
        var screen: JSONObject = [
            "acsUiType": .string("01"), "challengeInfoHeader": .string("Confirm your payment"),
            "challengeInfoText": .string(
                note ?? "We sent a one-time code to your phone ending in 12.\nEnter it below."),
            "challengeInfoLabel": .string("One-time code"), "submitAuthenticationLabel": .string("Verify"),
            "resendInformationLabel": .string("Send a new code"),
            "whyInfoLabel": .string("Why am I asked this?"),
            "whyInfoText": .string("Your bank checks that it is really you paying."),
            "expandInfoLabel": .string("Need help?"),
            "expandInfoText": .string("Call the number on the back of your card."),
        ]
        if let question = challenge.record.messageVersion.trustQuestion {
            screen[question.textField] = .string("Trust this merchant for future payments?")
        }
        if let imageBase {
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

    static func htmlScreen(txid: String, error: Bool) -> JSONObject {
        [
            "acsUiType": .string("05"),
            "acsHTML": .string(Base64.urlEncode(Array(htmlPage(txid: txid, error: error).utf8))),
        ]
    }

    static func htmlPage(txid: String, error: Bool) -> String {
        """
        <!DOCTYPE html><html><head><title>Verify</title><style>body{font-family:sans-serif}</style>
        <script>document.title = 'scripts never run';</script></head><body>
        <h1>Confirm your payment</h1>\(error ? "<p class=\"error\">The code was not correct.</p>" : "")
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
