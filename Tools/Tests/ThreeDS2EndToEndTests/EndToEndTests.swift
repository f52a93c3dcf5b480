import Foundation
import Logging
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

@Suite("End to end against the TestLab over HTTPS")
struct EndToEndTests {
    @Test(
        "frictionless scenarios return the ARes status; the DS decrypted the device data",
        arguments: [
            (Scenario.frictionlessY, "Y"), (.frictionlessN, "N"), (.frictionlessA, "A"), (.frictionlessU, "U"),
            (.frictionlessR, "R"),
        ])
    func frictionless(scenario: Scenario, status: String) async throws {
        let run = try await run(scenario)
        #expect(run.authentication.transStatus.rawValue == status)
        #expect(run.authentication.challengeParameters == nil)
        let record = try #require(
            run.lab.authentications.first { $0.request["sdkTransID"] == .string(run.parameters.sdkTransactionID) })
        #expect(record.directoryServerID == TestLab.rsaDirectoryServerID)
        #expect(record.deviceData["DD"]?.objectValue?["C018"] == .string(run.parameters.sdkTransactionID))
        #expect(record.deviceData["DV"] == .string("1.7"))
    }

    @Test("an answer over the entry limit is refused on the screen, never a runtime error with nothing sent")
    func entryTooLong() async throws {
        let run = try await run(.text, answers: [.text(String(repeating: "7", count: 46))])
        #expect(run.outcome == .cancelled, "the script could not give its answer, so it cancelled")
        #expect(run.presenter.problems.first?.contains("too long") == true)
        let record = try #require(run.record)
        #expect(record.requests.last?["challengeCancel"] == .string("01"))
        #expect(!record.requests.contains { $0["challengeDataEntry"] != nil })
    }

    @Test("sdkMaxTimeout follows the challenge timeout the app will give, in whole minutes")
    func sdkMaxTimeout() async throws {
        let lab = try await LabPool.shared.lab()
        let service = ThreeDS2Service()
        try service.initialize(configParameters: try lab.sdkConfiguration(dataDirectory: temporaryDirectory()))
        defer { try? service.cleanup() }
        let transport = try lab.makeTransport()
        for (timeout, expected) in [(Duration.seconds(5 * 60), "05"), (.seconds(12 * 60 + 30), "12")] {
            let transaction = try service.createTransaction(directoryServerID: TestLab.rsaDirectoryServerID)
            let parameters = try transaction.getAuthenticationRequestParameters()
            _ = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
                parameters: parameters,
                purchase: Purchase(cardNumber: Scenario.frictionlessY.cardNumber, amount: "1", currency: "978"),
                challengeTimeout: timeout)
            let record = try #require(
                lab.authentications.first { $0.request["sdkTransID"] == .string(parameters.sdkTransactionID) })
            #expect(record.request["sdkMaxTimeout"] == .string(expected))
        }
        try await transport.shutdown()
    }

    @Test("transaction IDs are opaque: an ACS writing upper-case UUIDs gets its own spelling back, kid included")
    func upperCaseTransactionIDs() async throws {
        let run = try await run(
            .text, answers: [.text("123456")], options: TestLabOptions(upperCaseTransactionIDs: true))
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let parameters = try #require(run.authentication.challengeParameters)
        #expect(parameters.acsTransactionID == parameters.acsTransactionID.uppercased())
        let record = try #require(run.record)
        #expect(record.requests.count == 2)
        for (request, header) in zip(record.requests, record.requestHeaders) {
            #expect(header["kid"] == .string(parameters.acsTransactionID))
            #expect(request["acsTransID"] == .string(parameters.acsTransactionID))
            #expect(request["threeDSServerTransID"] == .string(parameters.threeDSServerTransactionID))
        }
    }

    @Test(
        "the trust question is answered in every CReq after it was asked, N when untouched, never with cancel",
        arguments: ["2.2.0", "2.3.1"])
    func trustQuestionAlwaysAnswered(version: String) async throws {
        let run = try await run(.text, version: version, answers: [.resend, .text("000000"), .cancel])
        #expect(run.outcome == .cancelled)
        let record = try #require(run.record)
        let field = version == "2.2.0" ? "whitelistingDataEntry" : "trustListDataEntry"
        let no: JSONValue = .string("N")
        #expect(record.requests.count == 4)
        #expect(record.requests[0][field] == nil)
        #expect(record.requests[1][field] == no && record.requests[1]["resendChallenge"] == .string("Y"))
        #expect(record.requests[2][field] == no && record.requests[2]["challengeDataEntry"] == .string("000000"))
        #expect(record.requests[3][field] == nil && record.requests[3]["challengeCancel"] == .string("01"))
    }

    @Test(
        "text challenge with the right code completes Y; the CReqs are exactly as specified",
        arguments: ["2.1.0", "2.2.0", "2.3.1"])
    func textChallenge(version: String) async throws {
        let run = try await run(.text, version: version, answers: [.text("123456", whitelist: true)])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let record = try #require(run.record)
        #expect(record.requests.count == 2)
        #expect(record.finalStatus == "Y")
        let modern = version != "2.1.0"
        var firstKeys: Set<String> = [
            "threeDSServerTransID", "acsTransID", "messageType", "messageVersion", "sdkTransID", "sdkCounterStoA",
        ]
        if modern { firstKeys.insert("threeDSRequestorAppURL") }
        if version == "2.3.1" { firstKeys.insert("oobAppURLInd") }
        // 2.2.0 with an app that can open the bank's app: the Bridging announcement (BridgingEndToEndTests).
        if version == "2.2.0" { firstKeys.insert("messageExtension") }
        #expect(Set(record.requests[0].names) == firstKeys)
        #expect(record.requests.dropFirst().allSatisfy { $0["messageExtension"] == nil })
        #expect(record.requests[0]["sdkCounterStoA"] == .string("000"))
        #expect(record.requests[1]["sdkCounterStoA"] == .string("001"))
        #expect(record.requests[1]["challengeDataEntry"] == .string("123456"))
        #expect(
            record.requests.allSatisfy {
                $0["messageVersion"] == .string(version) && $0["messageType"] == .string("CReq")
            })
        #expect(
            record.requests.allSatisfy {
                ($0["threeDSRequestorAppURL"] == .string("https://shop.example/checkout?order=42")) == modern
            })
        switch version {
        case "2.2.0": #expect(record.requests[1]["whitelistingDataEntry"] == .string("Y"))
        case "2.3.1": #expect(record.requests[1]["trustListDataEntry"] == .string("Y"))
        default:
            #expect(
                record.requests[1]["whitelistingDataEntry"] == nil && record.requests[1]["trustListDataEntry"] == nil)
        }
        #expect(
            record.requestHeaders.allSatisfy {
                $0["alg"] == .string("dir")
                    && $0["kid"] == .string(run.authentication.challengeParameters?.acsTransactionID ?? "")
            })
        #expect(record.errors.isEmpty)
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.uiType == .text && screen.header == "Confirm your payment" && screen.submitLabel == "Verify")
        #expect(screen.issuerImage?.url(for: .high) != nil && screen.whyInfo?.label == "Why am I asked this?")
    }

    @Test("a wrong code, then the right one")
    func wrongThenRight() async throws {
        let run = try await run(.text, answers: [.text("000000"), .text("123456")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        #expect(run.record?.requests.map { $0["challengeDataEntry"]?.stringValue } == [nil, "000000", "123456"])
        #expect(run.presenter.screens.map(\.showsWarningIndicator) == [false, true])
    }

    @Test("resend, then the code")
    func resend() async throws {
        let run = try await run(.text, answers: [.resend, .text("123456")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let requests = try #require(run.record?.requests)
        #expect(requests[1]["resendChallenge"] == .string("Y") && requests[1]["challengeDataEntry"] == nil)
        #expect(run.presenter.screens[1].infoText == "A new code was sent to your phone.")
    }

    @Test("an empty submission sends challengeNoEntry (2.2.0+)")
    func emptySubmission() async throws {
        let run = try await run(.text, answers: [.text(""), .text("123456")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        #expect(run.record?.requests[1]["challengeNoEntry"] == .string("Y"))
        #expect(run.record?.requests[1]["challengeDataEntry"] == nil)
    }

    @Test("cancel sends challengeCancel 01 and ends cancelled")
    func cancel() async throws {
        let run = try await run(.text, answers: [.cancel])
        #expect(run.outcome == .cancelled)
        let requests = try #require(run.record?.requests)
        #expect(requests.count == 2 && requests[1]["challengeCancel"] == .string("01"))
        #expect(
            Set(requests[1].names).isSuperset(of: ["challengeCancel", "sdkCounterStoA"])
                && requests[1]["challengeDataEntry"] == nil)
        #expect(run.presenter.outcome == .cancelled)
    }

    @Test("single and multi select send keys in option order")
    func selects() async throws {
        let single = try await run(.singleSelect, answers: [.select(["mail"])])
        #expect(single.outcome == .completed(transStatus: .authenticated))
        #expect(single.record?.requests[1]["challengeDataEntry"] == .string("mail"))
        #expect(single.presenter.screens.first?.options.map(\.key) == ["sms", "mail"])
        let multi = try await run(.multiSelect, answers: [.select(["q3", "q1"])])
        #expect(multi.outcome == .completed(transStatus: .authenticated))
        #expect(multi.record?.requests[1]["challengeDataEntry"] == .string("q1,q3"))
    }

    @Test("out of band: oobContinue is true before 2.3.1 and \"01\" in 2.3.1", arguments: ["2.1.0", "2.2.0", "2.3.1"])
    func outOfBand(version: String) async throws {
        let run = try await run(.outOfBand, version: version, answers: [.continue()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let expected: JSONValue = version == "2.3.1" ? .string("01") : .bool(true)
        #expect(run.record?.requests[1]["oobContinue"] == expected)
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.uiType == .outOfBand && screen.oobContinueLabel == "I have approved")
        #expect((screen.oobAppURL != nil) == (version == "2.3.1"))
    }

    @Test("HTML: the form is submitted as a browser would, hidden input included, only the pressed button")
    func html() async throws {
        let run = try await run(.html, answers: [.html(fields: ["otp": "123456"], button: "Verify")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let acsTransID = try #require(run.authentication.challengeParameters?.acsTransactionID)
        #expect(
            run.record?.requests[1]["challengeHTMLDataEntry"] == .string("txid=\(acsTransID)&otp=123456&action=verify"))
        #expect(run.presenter.screens.first?.html?.contains("<form") == true)
    }

    @Test("HTML: a link to https://emv3ds/challenge counts as a submission")
    func htmlLink() async throws {
        let run = try await run(
            .html,
            answers: [
                .html(fields: [:], button: "Send a new code"),
                .html(fields: ["otp": "123456", "remember": "yes"], button: "verify"),
            ])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        #expect(run.record?.requests[1]["challengeHTMLDataEntry"] == .string("action=resend"))
        #expect(run.presenter.screens[1].html?.contains("A new code was sent") == true, "the resend is acknowledged")
        let acsTransID = run.authentication.challengeParameters?.acsTransactionID ?? ""
        #expect(
            run.record?.requests[2]["challengeHTMLDataEntry"]
                == .string("txid=\(acsTransID)&otp=123456&remember=yes&action=verify"))
    }

    @Test("2.3.1 information screen, then the code")
    func information() async throws {
        let run = try await run(.information, version: "2.3.1", answers: [.continue(), .text("123456")])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        #expect(run.presenter.screens.map(\.uiType) == [.information, .text])
        #expect(run.record?.requests[1]["infoContinueIndicator"] == .bool(true))
    }

    @Test("EC directory server, ES256 signed content, A128GCM responses")
    func ecAndGCM() async throws {
        let run = try await run(
            .text, version: "2.3.1", answers: [.text("123456")], directoryServerID: TestLab.ecDirectoryServerID,
            options: TestLabOptions(signer: .ec, responseEncryption: .a128gcm))
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let record = try #require(
            run.lab.authentications.first { $0.request["sdkTransID"] == .string(run.parameters.sdkTransactionID) })
        #expect(record.directoryServerID == TestLab.ecDirectoryServerID)
        let signed = try #require(run.authentication.challengeParameters?.acsSignedContent)
        let header = try JSONParser().parse(try Base64.urlDecode(signed.split(separator: ".")[0]))
        #expect(header.objectValue?["alg"] == .string("ES256"))
    }

    @Test(
        "protocol faults: the SDK sends the right Erro and reports protocolError",
        arguments: [
            (Scenario.faultBadTag, "302", "Data Decryption Failure"), (.faultWrongCounter, "302", "acsCounterAtoS"),
            (.faultWrongTransactionID, "301", "sdkTransID"), (.faultMissingField, "201", "challengeInfoHeader"),
            (.faultCriticalExtension, "202", "A999999999-001"),
        ])
    func faults(scenario: Scenario, code: String, detail: String) async throws {
        let run = try await run(scenario, answers: [.text("123456")])
        let message = try #require(run.outcome?.errorMessage)
        #expect(message.errorCode.rawValue == code && message.errorComponent == .sdk && message.errorDetail == detail)
        let record = try #require(run.record)
        #expect(record.requests.count == 1)
        let erro = try #require(record.errors.first)
        #expect(
            erro["errorCode"] == .string(code) && erro["errorComponent"] == .string("C")
                && erro["errorMessageType"] == .string("CRes"))
        #expect(erro["errorDetail"] == .string(detail))
        #expect(erro["sdkTransID"] == .string(run.parameters.sdkTransactionID))
        #expect(erro["acsTransID"] == .string(run.authentication.challengeParameters?.acsTransactionID ?? ""))
        #expect(
            erro["threeDSServerTransID"]
                == .string(run.authentication.challengeParameters?.threeDSServerTransactionID ?? ""))
        #expect(run.presenter.screens.isEmpty)
    }

    @Test("a full challenge logged at trace level leaks no code, entry, form data or key")
    func noSecretsInLogs() async throws {
        let capture = LogCapture()
        var logger = Logger(label: "threeds2.sdk", factory: capture.handler)
        logger.logLevel = .trace
        let text = try await run(.text, answers: [.text("975310"), .text("123456")], logger: logger)
        let html = try await run(
            .html,
            answers: [
                .html(fields: ["otp": "864209"], button: "Verify"), .html(fields: ["otp": "123456"], button: "Verify"),
            ], logger: logger)
        #expect(
            text.outcome == .completed(transStatus: .authenticated)
                && html.outcome == .completed(transStatus: .authenticated))
        let log = capture.text
        #expect(log.contains("challenge started") && log.contains("CReq sent") && log.contains("challenge finished"))
        for secret in ["975310", "123456", "864209", "otp=", Scenario.text.cardNumber, "challengeDataEntry", "\"DD\""] {
            #expect(!log.contains(secret), "the log contains \(secret)")
        }
        for run in [text, html] {
            #expect(!log.contains(run.parameters.deviceData.prefix(40)))
            #expect(!log.contains(run.authentication.challengeParameters?.acsSignedContent.prefix(40) ?? "none"))
        }
    }

    @Test("an Erro from the ACS is reported and nothing is sent back")
    func acsErro() async throws {
        let run = try await run(.faultErro, answers: [.text("123456")])
        let message = try #require(run.outcome?.errorMessage)
        #expect(message.errorCode.rawValue == "305" && message.errorComponent == .acs)
        #expect(run.record?.errors.isEmpty == true)
    }
}
