import FuzzSupport
import ThreeDS2HTML
import ThreeDS2SDK

/// HTML form reading with libxml2 (network off, no scripts), then submission: never a crash, and submission data
/// is always form-urlencoded ASCII.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let html = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let form = LibXML2FormReader().form(fromHTML: html)
    if let submitted = try? form.submission() {
        precondition(submitted.utf8.allSatisfy { $0 < 0x80 }, "submission data is not ASCII")
    }
    for link in form.links { _ = HTMLForm.challengeQuery("https://emv3ds/challenge?" + link.query) }
    return 0
}

@_cdecl("fuzz_html_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
