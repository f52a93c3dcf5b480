import Crypto
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDKTesting

@testable import ThreeDS2SDK

/// An adapter's own error, as a transport client would throw it.
private struct AdapterError: Error, Equatable {
    let errno: Int32
}

@Suite("One error shape: codes, causes and places")
struct ErrorShapeTests {
    @Test("errors are equal and hash alike when their codes are, whatever their messages, causes and places")
    func equalityOnTheCode() {
        let first = ThreeDS2Error(.invalidInput, "one message")
        let second = ThreeDS2Error(
            .invalidInput, "another", underlying: AdapterError(errno: 1), parameter: .sdk(.appVersion))
        #expect(first == second)
        #expect(first != ThreeDS2Error(.runtime, "one message"))
        #expect(Set([first, second, ThreeDS2Error(.runtime, "x")]).count == 2)
        #expect(TransportError(.timedOut, "a") == TransportError(.timedOut, "b"))
        #expect(TransportError(.timedOut, "a") != TransportError(.cancelled, "a"))
        #expect(ChallengeFailure(.counter, "a") == ChallengeFailure(.counter, "b", underlying: AdapterError(errno: 2)))
        #expect(JOSEError(.invalidKey, "a") == JOSEError(.invalidKey, "b"))
        #expect(HTMLForm.SubmissionError(.unknownField, "a") != HTMLForm.SubmissionError(.unknownButton, "a"))
    }

    @Test("each error knows the file and line that raised it, and its description names them")
    func location() {
        // Each error beside the line that raises it, so reformatting cannot separate them.
        let raised: [(error: any CodedError, line: UInt)] = [
            (ThreeDS2Error.invalidInput("x"), #line), (TransportError(.other, "x"), #line),
            (JOSEError(.invalidIV, "x"), #line), (ChallengeFailure(.closed, "x"), #line),
            (ProtocolViolation(.invalidFormat, detail: "x"), #line),
            (HTMLForm.SubmissionError(.unknownField, "x"), #line),
        ]
        for (error, line) in raised {
            #expect(error.location == ErrorLocation(file: "ThreeDS2SDKTests/ErrorShapeTests.swift", line: line))
            #expect(error.description.hasSuffix(" at ThreeDS2SDKTests/ErrorShapeTests.swift:\(line)"))
            #expect(!error.message.contains("ErrorShapeTests"))
        }
        // Naming the parameter at fault keeps the place the error was raised.
        let named = ThreeDS2Error.invalidInput("x").concerning(.directoryServer("A000000004", .encryptionKey))
        #expect(
            named.location.line == UInt(#line) - 1 && named.parameter == .directoryServer(.mastercard, .encryptionKey))
        #expect(
            named.parameter?.description == "ds:A000000004.encryptionKey" && named.parameter?.group == "ds:A000000004")
    }

    @Test("a protocol violation has the shape too: its Erro code, and the validator's line that found it")
    func violation() throws {
        let identifiers = TransactionIdentifiers(
            threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
            acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340", sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")
        do {
            _ = try ChallengeResponseValidator.validate(
                ["messageType": .string("CReq")],
                expecting: ChallengeResponseExpectation(
                    identifiers: identifiers, messageVersion: .v2_2_0, acsCounter: 0))
            Issue.record("a CReq was accepted as a CRes")
        } catch {
            #expect(error == ProtocolViolation(.messageReceivedInvalid, detail: "another detail"))
            #expect(error.location.file == "ThreeDS2Messages/ChallengeResponse.swift")
            #expect(error.message == error.explanation && error.underlying == nil)
            #expect(
                error.description.hasPrefix("101 messageType: ") && error.description.hasSuffix("\(error.location)"))
        }
    }

    @Test("codes name themselves; the EMVCo kinds and the file-format codes are invalid input where EMVCo says so")
    func codes() {
        #expect(ThreeDS2Error.Code.malformedTrustBundle.description == "malformedTrustBundle")
        #expect(ChallengeFailure.Code.signedContent.description == "signedContent")
        #expect(TransportError.Code.tlsFailure.description == "tlsFailure")
        #expect(JOSEError.Code.untrustedCertificateChain.description == "untrustedCertificateChain")
        let invalid: [ThreeDS2Error.Code] = [.invalidInput, .malformedJSON, .malformedPEM, .malformedTrustBundle]
        #expect(invalid.allSatisfy { $0.isInvalidInput })
        #expect(![ThreeDS2Error.Code.runtime, .alreadyInitialized, .notInitialized].contains { $0.isInvalidInput })
    }

    @Test("a transport failure reaches the app's runtime-error event with the transport's and the adapter's errors")
    @MainActor
    func underlyingReachesTheApp() throws {
        let transport = TransportError(
            .connectionFailed, "no connection for POST https://acs.example/creq",
            underlying: AdapterError(errno: 111))
        var machine = try challengeMachine()
        _ = machine.handle(.start)
        let actions = machine.handle(.transportFailed(transport))
        guard case .finish(let outcome)? = actions.last else {
            Issue.record("the machine did not finish: \(actions)")
            return
        }
        let recorder = RecordingStatusReceiver()
        recorder.deliver(outcome, sdkTransactionID: "b2385523-a66c-4907-ac3c-91848e8c0067")
        guard case .runtimeError(let event) = recorder.calls.first else {
            Issue.record("expected a runtime error, got \(recorder.calls)")
            return
        }
        #expect(event.errorCode == "transport" && event.failure.code == .transport)
        #expect(event.errorMessage == transport.message)
        let cause = try #require(event.underlying as? TransportError)
        #expect(cause.code == .connectionFailed && event.failure.transportCode == .connectionFailed)
        #expect(cause.underlying as? AdapterError == AdapterError(errno: 111))
    }

    @Test("a signed-content failure keeps the JOSE error that caused it")
    func signedContentCause() async throws {
        let setup = try ChallengeSetupTests().setup()
        do {
            _ = try await setup.prepare(
                ChallengeParameters(
                    threeDSServerTransactionID: "t", acsTransactionID: "a", acsRefNumber: "r",
                    acsSignedContent: "not.a.jws"),
                ephemeralKey: P256.KeyAgreement.PrivateKey())
            Issue.record("malformed signed content was accepted")
        } catch {
            #expect(error.code == .signedContent)
            #expect(error.underlying is JOSEError)
        }
    }
}

private func challengeMachine() throws -> ChallengeStateMachine {
    let identifiers = TransactionIdentifiers(
        threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
        acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340", sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")
    let channel = try SecureChannel(
        keys: ChannelKeys(sharedSecret: [UInt8](repeating: 7, count: 32), sdkReferenceNumber: "3DS_LOA_SDK_TEST"),
        acsTransID: identifiers.acsTransID, requestEncryption: .a128cbcHS256)
    return ChallengeStateMachine(
        builder: ChallengeRequestBuilder(identifiers: identifiers, messageVersion: .v2_2_0, requestorAppURL: nil),
        channel: channel)
}
