import Clocks
import Foundation
import Logging
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDKTesting

@_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

/// Issue 35, point 4: every public error on the shared storage, no error dropped without a word.
@Suite("The error shape finished: shared storage, shaped file errors, the Erro post logged")
struct ErrorStorageTests {
    /// Whether a value's type keeps its code, message, cause and place in the shared storage.
    private func isDetailed(_ error: any Error) -> Bool { error is any DetailedCodedError }

    @Test("the SDK's, the form's, the protocol's and the secret file's errors keep the shared storage")
    func sharedStorage() {
        let sdk = ThreeDS2Error(.invalidInput, "x", parameter: .directoryServer(.visa, .displayName))
        let form = HTMLForm.SubmissionError(.unknownField, "x", subject: "otp")
        let violation = ProtocolViolation(.invalidFormat, detail: "acsUiType", explanation: "x")
        let file = SecretFile.Failure(.notAFolder, "x")
        for error in [sdk, form, violation, file] as [any Error] { #expect(isDetailed(error)) }
        #expect(sdk.details.message == "x" && sdk.parameter == .directoryServer(.visa, .displayName))
        #expect(form.details.code == .unknownField && form.subject == "otp")
        #expect(violation.details.code == .invalidFormat && violation.detail == "acsUiType")
        // Built from details alone, each concerns nothing more.
        let rebuilt = ThreeDS2Error(details: sdk.details)
        #expect(rebuilt == sdk && rebuilt.parameter == nil && rebuilt.location == sdk.location)
        #expect(HTMLForm.SubmissionError(details: form.details).subject == nil)
        // A violation made from details is made safe as any other: its peer text escaped.
        let unsafe = ProtocolViolation(
            details: ErrorDetails(
                code: .invalidFormat, message: "bad\u{1B}[2J", underlying: nil, location: ErrorLocation()))
        #expect(!unsafe.message.contains("\u{1B}") && unsafe.detail == unsafe.message)
    }

    @Test("a secret file that cannot be written says why, with the system's error as the cause")
    func secretFileFailure() throws {
        let folder = scratchDirectory("secret-failure")
        let file = folder + "/plain"
        try SecretFile.write(Array("x".utf8), to: file)
        do {
            try SecretFile.makeDirectory(file)
            Issue.record("a file was taken for a folder")
        } catch {
            #expect(error.code == .notAFolder && error.message == "\(file) is not a folder")
            #expect(error.description.contains("at ThreeDS2SDK/SecretFile.swift:"))
        }
        do {
            // A file inside a file: the system refuses the folder.
            try SecretFile.write(Array("x".utf8), to: file + "/inner/secret")
            Issue.record("a file was written below a file")
        } catch {
            #expect(error.code == .notAFolder || error.code == .systemCall)
        }
        do {
            try SecretFile.write(Array("x".utf8), to: "/proc/threeds-cannot-write-here")
            Issue.record("a file was written into /proc")
        } catch {
            #expect(error.code == .systemCall && error.message.hasPrefix("cannot create"))
            #expect(error.underlying is POSIXError)
        }
    }

    @Test("an Erro the ACS cannot be sent is logged with its code and the transport's reason, nothing of its body")
    func erroPostFailureLogged() async throws {
        let pki = try DirectoryServerPKI.make()
        let capture = LogCapture()
        let service = ThreeDS2Service(
            logger: Logger(label: "test", factory: capture.handler), systemProbe: FakeSystemProbe.clean())
        var config = ConfigParameters()
        config.sdkReferenceNumber = "3DS_LOA_SDK_TEST_020300_00001"
        config.appIdentifier = "org.example.shop"
        config.appVersion = "4.2.0"
        config.dataDirectory = scratchDirectory("erro-log")
        config[.logLevel] = "trace"
        try config.addDirectoryServer(try pki.directoryServer())
        try service.initialize(configParameters: config)
        let transaction = try service.createTransaction(directoryServerID: .mastercard, messageVersion: .v2_2_0)
        defer { transaction.close() }
        let acs = ScriptedACS(pki: pki)
        let parameters = try acs.challengeParameters(for: try transaction.getAuthenticationRequestParameters())
        // The ACS answers the first CReq with something that is no CRes (the SDK sends an Erro) and then refuses
        // the Erro's connection.
        let transport = ScriptedTransport { request in
            if acs.errorMessage(in: request) != nil {
                return .fail(TransportError(.connectionFailed, "connection refused (test)"))
            }
            return .respond(
                TransportResponse(
                    status: 200, contentType: "application/jose; charset=UTF-8", body: Array("not.a.jwe.at.all".utf8)))
        }
        let outcome = try await transaction.challenge(
            parameters, presenter: IdlePresenter(), timeout: .seconds(300), transport: transport, clock: TestClock())
        #expect(outcome.name == "protocolError" || outcome.name == "runtimeError")
        let erroLines = capture.text.split(separator: "\n").filter { $0.contains("Erro could not be sent") }
        #expect(erroLines.count == 1)
        let line = String(erroLines.first ?? "")
        #expect(line.contains("connectionFailed") && line.contains("connection refused (test)"))
        #expect(line.contains("errorCode") && !line.contains("not.a.jwe"))
    }
}
