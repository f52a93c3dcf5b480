import Crypto
import FuzzSupport
import ThreeDS2JOSE

private let cbcKey = SymmetricKey(data: [UInt8](repeating: 0x11, count: 32))
private let gcmKey = SymmetricKey(data: [UInt8](repeating: 0x22, count: 16))
private let decrypter = try! JWE.DirectDecrypter(
    keys: [.a128cbcHS256: cbcKey, .a128gcm: gcmKey], expecting: .init(keyID: .exactly("acs")))

/// Compact JWE decryption (the one-shot path and the channel's prepared decrypter): every input is refused with a
/// JOSEError or decrypts, and both paths agree.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    let oneShot = try? JWE.decrypt(
        text, using: .direct([.a128cbcHS256: cbcKey, .a128gcm: gcmKey]), expecting: .init(keyID: .exactly("acs")))
    let prepared = try? decrypter.decrypt(bytes: Array(text.utf8))
    precondition(oneShot?.plaintext == prepared?.plaintext, "the two decryption paths disagree")
    return 0
}

@_cdecl("fuzz_jwe_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
