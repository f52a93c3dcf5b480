import FuzzSupport
import ThreeDS2JOSE

/// P-256 public JWKs: what is accepted is a point on the curve and exports to a JWK that imports to the same key.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    guard let key = try? P256PublicJWK(jsonString: text) else { return 0 }
    let again = try? P256PublicJWK(jsonString: key.jsonString)
    precondition(again == key, "JWK export/import changed the key")
    _ = key.keyAgreementKey
    return 0
}

@_cdecl("fuzz_jwk_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
