import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

/// The challenge content of each scenario: which screen follows which CReq. Screens are ``ChallengeScreen`` values,
/// written to the wire by ``ChallengeResponseBuilder`` as the message version defines them.
enum ScenarioScript {
    static let code = "123456"
    static let maxWrongAttempts = 3

    static let yearOfBirth = "1990"

    typealias Content = ChallengeResponseBuilder.Content

    static func response(
        to request: ReceivedChallengeRequest, challenge: inout AccessControlServer.Challenge, imageBase: String?
    ) -> Content {
        let version = challenge.record.messageVersion
        let first = request.isFirst
        if first { noteFirst(request, challenge: &challenge) }
        if request.action?.isCancel == true { return .final(.notAuthenticated) }
        // After the additional-code button: the out-of-band screen, continue finishes.
        if challenge.lastUIType == .outOfBand, challenge.record.scenario == .additionalCode {
            return request.continued ? .final(.authenticated) : .screen(oobScreen(challenge))
        }
        switch challenge.record.scenario {
        case .singleSelect, .multiSelect:
            return selectResponse(to: request, first: first, challenge: challenge)
        case .outOfBand, .bridging:
            if first || !request.continued { return .screen(oobScreen(challenge)) }
            return .final(.authenticated)
        case .htmlOutOfBand where version.hasOOBAppURL:
            if first { return .screen(htmlOOBScreen(challenge)) }
            // 02: back from the bank's app, nothing else; 01: the page's button, with its form data.
            if request.action == .oobContinue(.automatic) { return .final(.authenticated) }
            let pairs = formPairs(request.formData ?? "")
            return .final(pairs["action"] == "approved" ? .authenticated : .notAuthenticated)
        case .html, .htmlOutOfBand:
            return htmlResponse(to: request, first: first, challenge: &challenge)
        case .information where version.defines(.information) && first:
            return .screen(informationScreen(version))
        case .additionalCode where request.action == .additionalCode:
            return .screen(oobScreen(challenge))
        default:
            // Text code (also the information scenario's second screen and the fault scenarios).
            return textResponse(to: request, first: first, challenge: &challenge, imageBase: imageBase)
        }
    }

    /// What the first CReq says: whether the SDK can open the bank's app (2.3.1) and which Bridging version it
    /// announced (2.2.0), answered in the same version.
    private static func noteFirst(_ request: ReceivedChallengeRequest, challenge: inout AccessControlServer.Challenge) {
        challenge.opensOOBApps = request.oobAppURLIndicator == .supported
        if challenge.record.messageVersion.carriesBridging, let entries = request.messageExtension,
            let announced = try? Bridging.read(.array(entries.map(JSONValue.object)))
        {
            challenge.bridgingVersion = announced.version
        }
    }

    private static func selectResponse(
        to request: ReceivedChallengeRequest, first: Bool, challenge: AccessControlServer.Challenge
    ) -> Content {
        let version = challenge.record.messageVersion
        if challenge.record.scenario == .multiSelect {
            if first { return .screen(selectScreen(multiple: true, version: version)) }
            return .final(request.entry == "q1,q3" ? .authenticated : .notAuthenticated)
        }
        if first { return .screen(selectScreen(multiple: false, version: version)) }
        let chosen = request.entry?.split(separator: ",") ?? []
        let offered = selectScreen(multiple: false, version: version).options.map(\.key)
        let right = chosen.count == 1 && offered.contains(String(chosen[0]))
        return .final(right ? .authenticated : .notAuthenticated)
    }

    private static func htmlResponse(
        to request: ReceivedChallengeRequest, first: Bool, challenge: inout AccessControlServer.Challenge
    ) -> Content {
        let txid = challenge.identifiers.acsTransID
        let version = challenge.record.messageVersion
        if first { return .screen(htmlScreen(txid: txid, error: false, version: version)) }
        let pairs = formPairs(request.formData ?? "")
        if pairs["action"] == "cancel" { return .final(.notAuthenticated) }
        if pairs["action"] == "resend" {
            return .screen(htmlScreen(txid: txid, error: false, resent: true, version: version))
        }
        if pairs["otp"] == code, pairs["action"] == "verify", pairs["txid"] == txid { return .final(.authenticated) }
        challenge.wrongAttempts += 1
        return challenge.wrongAttempts >= maxWrongAttempts
            ? .final(.notAuthenticated) : .screen(htmlScreen(txid: txid, error: true, version: version))
    }

    private static func textResponse(
        to request: ReceivedChallengeRequest, first: Bool, challenge: inout AccessControlServer.Challenge,
        imageBase: String?
    ) -> Content {
        let twoBoxes = challenge.record.scenario == .twoEntryBoxes && challenge.record.messageVersion.hasEntryBoxes
        let right =
            if case .dataEntry(code, let second) = request.action { !twoBoxes || second == yearOfBirth } else { false }
        if right { return .final(.authenticated) }
        if first || request.action == .informationContinue {
            return .screen(textScreen(challenge, note: nil, imageBase: imageBase))
        }
        if request.action == .resend {
            return .screen(textScreen(challenge, note: "A new code was sent to your phone.", imageBase: imageBase))
        }
        challenge.wrongAttempts += 1
        if challenge.wrongAttempts >= maxWrongAttempts { return .final(.notAuthenticated) }
        let left = maxWrongAttempts - challenge.wrongAttempts
        var screen = textScreen(
            challenge, note: "The code was not correct. \(left) attempt\(left == 1 ? "" : "s") left.",
            imageBase: imageBase)
        screen.showsWarningIndicator = true
        return .screen(screen)
    }

    static func formPairs(_ data: String) -> [String: String] {
        Dictionary(
            data.split(separator: "&").map { pair -> (String, String) in
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (kv[0], kv.count > 1 ? kv[1] : "")
            }, uniquingKeysWith: { first, _ in first })
    }

    /// The 2.3.1 information screen (UI 07).
    static func informationScreen(_ version: MessageVersion) -> ChallengeScreen {
        var screen = ChallengeScreen(uiType: .information, messageVersion: version)
        screen.header = "Before you continue"
        screen.infoText = "Your bank will now ask for a **one-time code**.\nKeep your phone at hand."
        screen.infoContinueLabel = "Continue"
        return screen
    }

    /// The out-of-band screen; in 2.3.1 it links the bank's app when the first CReq said the SDK can open it
    /// (`oobAppURLInd` `01`), and keeps a continue button for a cardholder who approves another way.
    static func oobScreen(_ challenge: AccessControlServer.Challenge) -> ChallengeScreen {
        var screen = ChallengeScreen(uiType: .outOfBand, messageVersion: challenge.record.messageVersion)
        screen.header = "Approve in your banking app"
        screen.infoText = "We sent a request to your banking app.\nApprove it, then come back and continue."
        screen.oobContinueLabel = "I have approved"
        // `challengeAddInfo` arrived with 2.2.0: a 2.1.0 CRes does not carry it (`cres.field.notInVersion`).
        if challenge.record.messageVersion.definesChallengeAddInfo {
            screen.additionalInfo = "Welcome back. Press continue to finish."
        }
        if challenge.opensOOBApps {
            screen.oobAppURL = bankAppURL
            screen.oobAppLabel = bankAppLabel
        }
        // 2.2.0, Mastercard-like: the same link in the Bridging extension, in the version the SDK announced.
        if challenge.record.scenario == .bridging, let version = challenge.bridgingVersion {
            screen.bridging = Bridging.Received(version: version, appURL: bankAppURL, appLabel: bankAppLabel)
        }
        return screen
    }

    /// The bank's app link the lab's out-of-band screens give.
    static let bankAppURL = "https://bank.testlab.example/approve"
    /// The label of the button that opens it.
    static let bankAppLabel = "Open banking app"

    /// The 2.3.1 HTML out-of-band screen (UI 06): the page's button continues with its form data.
    static func htmlOOBScreen(_ challenge: AccessControlServer.Challenge) -> ChallengeScreen {
        var screen = ChallengeScreen(uiType: .htmlOutOfBand, messageVersion: challenge.record.messageVersion)
        screen.html = """
            <!DOCTYPE html><html><head><title>Approve</title></head><body>
            <h1>Approve in your banking app</h1>
            <p>We sent a request to your banking app. Approve it there, then come back.</p>
            <form method="post" action="HTTPS://EMV3DS/challenge">
            <input type="hidden" name="txid" value="\(challenge.identifiers.acsTransID)">
            <button type="submit" name="action" value="approved">I have approved</button>
            </form>
            </body></html>
            """
        if challenge.opensOOBApps { screen.oobAppURL = bankAppURL }
        return screen
    }

    /// The lab's UI 05 form page: a code field, Verify and Cancel buttons, a resend link.
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

extension ReceivedChallengeRequest {
    /// What the cardholder entered: a code, or the keys of the options chosen.
    fileprivate var entry: String? {
        if case .dataEntry(let entry, _) = action { return entry }
        return nil
    }

    /// The HTML form's data.
    fileprivate var formData: String? {
        if case .html(let data, _) = action { return data }
        return nil
    }

    /// Whether the cardholder continued an out-of-band screen, in any way.
    fileprivate var continued: Bool {
        if case .oobContinue = action { return true }
        return false
    }
}
