import FuzzSupport
import ThreeDS2JOSE

/// Strict base64url and base64: what decodes re-encodes to exactly the input (one text per byte string).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    if let decoded = try? Base64.urlDecode(bytes: bytes[...]) {
        precondition(Array(Base64.urlEncode(decoded).utf8) == bytes, "base64url is not canonical")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    if let decoded = try? Base64.standardDecode(text) {
        precondition(Base64.standardEncode(decoded) == text, "base64 is not canonical")
    }
    return 0
}

@_cdecl("fuzz_base64_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
