import Foundation
import FuzzSupport
import ThreeDS2SDK

/// Trust-bundle parsing and evaluation (issue 34): any JSON, inline certificates included, is read into a bundle or
/// refused with an error, never a crash; a bundle that reads is evaluated (chains, key usages, the key chosen), and a
/// key in use is never one the report calls unusable or, without the directory server's opt-out, untrusted.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    guard let bundle = try? TrustBundle(json: bytes, baseDirectory: nil, source: "fuzz") else { return 0 }
    precondition(bundle.directoryServers.count <= TrustBundle.maxDirectoryServers, "too many directory servers")
    for (server, report) in zip(
        bundle.directoryServers, bundle.evaluate(at: Date(timeIntervalSince1970: 1_800_000_000)))
    {
        guard let chosen = report.chosen else { continue }
        precondition(
            chosen.status == .valid || (chosen.status == .untrusted && server.allowsUnchainedEncryptionCertificates),
            "a key the report calls \(chosen.status) is in use")
    }
    return 0
}

@_cdecl("fuzz_bundle_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, fuzzOne)
}
