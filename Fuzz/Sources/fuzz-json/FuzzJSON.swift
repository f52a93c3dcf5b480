import FuzzSupport
import ThreeDS2JOSE

/// Strict JSON: any input either parses or is refused with a JOSEError; whatever parses serializes and parses back
/// to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let value = try? JSONParser(limits: .init(maxBytes: 1 << 16, maxDepth: 16)).parse(bytes) else { return 0 }
    let again = try? JSONParser(limits: .init(maxBytes: 1 << 20, maxDepth: 16)).parse(value.serializedBytes)
    precondition(again == value, "serialize/parse round trip changed the value")
    return 0
}

@_cdecl("fuzz_json_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
