// The minimal checkout as a command: `minimal-checkout SERVER DS_ID DS_CERT_PEM DS_ROOT_PEM CARD [CODE]`.
// It links only the SDK core; run it against `threeds testlab --http --pki-dir DIR`.
import Foundation
import MinimalCheckout
import ThreeDS2SDK

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 5, let server = URL(string: arguments[arguments.startIndex]) else {
    FileHandle.standardError.write(
        Data("usage: minimal-checkout SERVER DS_ID DS_CERT_PEM DS_ROOT_PEM CARD [CODE]\n".utf8))
    exit(2)
}
let values = Array(arguments)
let directoryServerID = DirectoryServerID(values[1])
do {
    var config = ConfigParameters()
    config.sdkReferenceNumber = "3DS_LOA_SDK_TLAB_020300_00001"
    config.appIdentifier = "org.threeds2.example.minimal"
    config.appVersion = "1.0"
    config.allowsPlainHTTPLoopback = server.scheme == "http"
    try config.addDirectoryServer(
        DirectoryServer(
            id: directoryServerID, encryptionKey: try String(contentsOfFile: values[2], encoding: .utf8),
            rootCertificates: try String(contentsOfFile: values[3], encoding: .utf8)))
    let checkout = try MinimalCheckout(backend: server, configuration: config)
    let result = try await checkout.pay(
        cardNumber: values[4], amount: "1999", currency: "978", directoryServerID: directoryServerID,
        code: values.count > 5 ? values[5] : "123456")
    print(result)
} catch {
    FileHandle.standardError.write(Data("minimal-checkout: \((error as? ThreeDS2Error)?.message ?? "\(error)")\n".utf8))
    exit(1)
}
