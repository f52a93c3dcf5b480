import FuzzSupport
import ThreeDS2Messages
import ThreeDS2SDK

/// UI customization JSON (issue 34): read or refused, never a crash; what reads carries no control or bidi control
/// character in any text a screen shows, and no text over 256 characters.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let appearances = try? UiCustomization.appearances(fromJSON: fuzzInput(data, size)) else { return 0 }
    for customization in appearances.values {
        for text in [customization.toolbar.headerText, customization.toolbar.buttonText].compactMap({ $0 }) {
            precondition(!text.unicodeScalars.contains(where: PeerText.isControlOrBidi), "a control character passed")
            precondition(PeerText.fits(text, max: 256), "a text over 256 characters passed")
        }
        _ = customization.contrastWarnings
    }
    return 0
}

@_cdecl("fuzz_customization_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
