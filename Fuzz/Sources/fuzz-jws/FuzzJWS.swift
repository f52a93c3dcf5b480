import Crypto
import Dispatch
import Foundation
import FuzzSupport
import SwiftASN1
import ThreeDS2JOSE
import X509

/// A self-signed root made once, so chain building runs on whatever x5c the input carries.
private let root: Certificate = {
    let key = P256.Signing.PrivateKey()
    let name = try! DistinguishedName { CommonName("Fuzz Root") }
    return try! Certificate(
        version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
        notValidBefore: Date(timeIntervalSince1970: 0), notValidAfter: Date(timeIntervalSince1970: 4_000_000_000),
        issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
        extensions: try! Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
        },
        issuerPrivateKey: .init(key))
}()

private let signer = P256.Signing.PrivateKey()

/// Compact JWS: every input goes through the synchronous parse-and-verify path; one in eight also through the
/// x5c chain check the SDK applies to ACS signed content (async, so slower). Refused with a JOSEError or verified.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    _ = try? JWS.verify(text, using: .es256(signer.publicKey))
    guard size % 8 == 0 else { return 0 }
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = try? await X5CVerifier(roots: [root]).verify(text)
        done.signal()
    }
    done.wait()
    return 0
}

@_cdecl("fuzz_jws_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
