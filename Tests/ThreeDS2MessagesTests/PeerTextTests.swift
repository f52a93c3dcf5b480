import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

/// Peer text in a CRes: characters counted as the specification counts them, control and bidirectional characters
/// refused in display fields (Erro 203), explanations safe to print.
@Suite("Peer text in CRes")
struct PeerTextTests {
    @Test(
        "a display field carrying a terminal escape, a cursor move, a C1 control or a bidi override is 203",
        arguments: [
            "Bank\u{1B}]2;pwned\u{07}", "Code\u{1B}[1A\u{1B}[2KEnter 000000", "Header\u{9B}31m", "\u{202E}edoc",
            "isolate\u{2066}x\u{2069}", "nul\u{0}", "del\u{7F}", "tab\u{9}",
        ])
    func controls(_ text: String) {
        expectViolation(.invalidFormat, "challengeInfoHeader", textCRes(["challengeInfoHeader": .string(text)]))
        expectViolation(.invalidFormat, "challengeInfoText", textCRes(["challengeInfoText": .string(text)]))
        expectViolation(
            .invalidFormat, "challengeSelectInfo",
            textCRes([
                "acsUiType": .string("02"),
                "challengeSelectInfo": .array([.object(JSONObject([("phone", .string(text))]))]),
            ]))
    }

    @Test("line breaks stay allowed in display text, and right-to-left text without controls is fine")
    func lineBreaksAndScripts() throws {
        guard
            case .screen(let screen) = try validate(
                textCRes([
                    "challengeInfoText": .string("Line one\nLine two\r\nLine three"),
                    "challengeInfoHeader": .string("\u{5D1}\u{5E0}\u{5E7} \u{200F}"),
                ]))
        else {
            Issue.record("not a screen")
            return
        }
        #expect(screen.infoText == "Line one\nLine two\r\nLine three")
    }

    @Test("lengths count Unicode scalars: one base letter with 60,000 combining marks is 60,001 characters, not 1")
    func combiningMarks() throws {
        let heavy = "A" + String(repeating: "\u{301}", count: 60_000)
        #expect(heavy.count == 1 && PeerText.length(heavy) == 60_001)
        expectViolation(.invalidFormat, "challengeInfoHeader", textCRes(["challengeInfoHeader": .string(heavy)]))
        // 45 characters of combining sequences (one scalar each) count as 45; a 46th is over.
        let accented = String(repeating: "e\u{301}", count: 22) + "x"
        #expect(PeerText.length(accented) == 45)
        _ = try validate(textCRes(["challengeInfoHeader": .string(accented)]))
        expectViolation(
            .invalidFormat, "challengeInfoHeader", textCRes(["challengeInfoHeader": .string(accented + "y")]))
        // Four-byte characters count once each: 45 emoji fit.
        _ = try validate(textCRes(["challengeInfoHeader": .string(String(repeating: "\u{1F600}", count: 45))]))
    }

    @Test("select options, extension IDs, Erro text and the signed content's acsURL are counted the same way")
    func otherBoundedFields() throws {
        let heavyKey = "k" + String(repeating: "\u{301}", count: 45)
        expectViolation(
            .invalidFormat, "challengeSelectInfo",
            textCRes([
                "acsUiType": .string("02"),
                "challengeSelectInfo": .array([.object(JSONObject([(heavyKey, .string("x"))]))]),
            ]))
        let ext: JSONValue = .array([
            .object(
                JSONObject([
                    ("name", .string("n")), ("id", .string("i" + String(repeating: "\u{301}", count: 64))),
                    ("criticalityIndicator", .bool(false)), ("data", .object([:])),
                ]))
        ])
        expectViolation(.invalidFormat, "messageExtension", textCRes(["messageExtension": ext]))
        let erro: JSONObject = [
            "messageType": .string("Erro"), "messageVersion": .string("2.2.0"), "errorCode": .string("203"),
            "errorComponent": .string("A"),
            "errorDescription": .string("d" + String(repeating: "\u{301}", count: 2048)),
            "errorDetail": .string("x"),
        ]
        do {
            _ = try ErrorMessage(json: erro)
            Issue.record("an errorDescription of 2,049 characters was accepted")
        } catch {
            #expect(error.detail == "errorDescription")
        }
        #expect(PeerText.length(ErrorMessage(received: erro).errorDescription) <= 2048)
        let url = "https://acs.example/" + String(repeating: "e\u{301}", count: 1100)
        let content: JSONObject = [
            "acsURL": .string(url), "acsEphemPubKey": .object([:]), "sdkEphemPubKey": .object([:]),
        ]
        do {
            _ = try ACSSignedContent(payload: content.serializedBytes)
            Issue.record("an acsURL of 2,220 characters was accepted")
        } catch {
            #expect(error.message.contains("acsURL"), "\(error)")
        }
    }

    @Test("a violation's detail and explanation quote peer text with controls escaped")
    func explanations() {
        let violation = ProtocolViolation(
            .invalidFormat, detail: "x\u{1B}]2;t\u{07}", explanation: "was \u{1B}[2J\u{202E}")
        #expect(!violation.detail.unicodeScalars.contains { PeerText.isControlOrBidi($0) })
        #expect(!violation.explanation.unicodeScalars.contains { PeerText.isControlOrBidi($0) })
        #expect(violation.explanation == "was \\u{1B}[2J\\u{202E}")
        #expect(PeerText.escapedForTerminal("a\\u{1B}") == "a\\\\u{1B}")
    }
}
