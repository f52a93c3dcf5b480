import FuzzSupport
import ThreeDS2JOSE
import ThreeDS2Messages

private let identifiers = TransactionIdentifiers(
    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e", acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067")

/// CRes validation, decrypted JSON in: a screen, a final status or a ProtocolViolation out, for every version.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard
        case .object(let object)? = try? JSONParser(limits: .init(maxBytes: 1 << 18, maxDepth: 16))
            .parse(fuzzInput(data, size))
    else { return 0 }
    for version in MessageVersion.supported {
        for opensOOBApps in [false, true] {
            let expectation = ChallengeResponseExpectation(
                identifiers: identifiers, messageVersion: version, acsCounter: 0, opensOOBApps: opensOOBApps)
            guard case .screen(let screen)? = try? ChallengeResponseValidator.validate(object, expecting: expectation)
            else { continue }
            precondition(version.defines(screen.uiType), "a UI type the version does not define was accepted")
            precondition(opensOOBApps || screen.oobAppURL == nil, "an app link the CReq did not allow was accepted")
            precondition(
                screen.entryBoxes.allSatisfy { (1...45).contains($0.maxLength) } && screen.entryBoxes.count <= 2,
                "an entry box out of its bounds")
            _ = screen.refreshed()
            for text in [screen.infoText, screen.whyInfo?.text, screen.expandInfo?.text].compactMap({ $0 }) {
                precondition(screen.styled(text).plain.count <= text.count, "markup added text")
            }
        }
    }
    _ = ErrorMessage(received: object)
    return 0
}

@_cdecl("fuzz_cres_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
