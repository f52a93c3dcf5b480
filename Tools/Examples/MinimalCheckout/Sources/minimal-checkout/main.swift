// The minimal checkout as a command; it links only the SDK core. Run it against `threeds testlab --http --pki-dir DIR`:
//   minimal-checkout SERVER DS_ID DS_CERT_PEM DS_ROOT_PEM CARD [CODE]
//       pays; a code screen gets CODE (123456 by default).
//   minimal-checkout --bank-app SERVER DS_ID DS_CERT_PEM DS_ROOT_PEM CARD
//       pays with the app link below; on an out-of-band screen, switches to the bank's app: prints
//       "in the bank's app: <link>" and waits for a line on standard input (the cardholder came back). Then prints
//       the final CRes status beside the backend's result.
//   minimal-checkout --return SERVER DS_ID DS_CERT_PEM DS_ROOT_PEM LINK
//       the app opened through LINK, in a new process: prints what the backend says about the payment it names.
import Foundation
import MinimalCheckout
import ThreeDS2SDK

let usage = """
    usage: minimal-checkout [--bank-app | --return] SERVER DS_ID DS_CERT_PEM DS_ROOT_PEM (CARD [CODE] | LINK)

    """
var arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first.flatMap { $0.hasPrefix("--") ? $0 : nil }
if mode != nil { arguments.removeFirst() }
guard arguments.count >= 5, [nil, "--bank-app", "--return"].contains(mode),
    let server = URL(string: arguments[0])
else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let directoryServerID = DirectoryServerID(arguments[1])

/// The app's 3DS Requestor App URL: the bank's app returns here, and the link names the payment (`transID`).
func appLink() throws -> RequestorAppURL {
    try RequestorAppURL("https://shop.example/3ds/return", transactionID: .queryItem("transID"))
}

/// What the command prints for a payment confirmed by the backend.
func describe(_ result: ConfirmedOutcome) -> String {
    let backend: String =
        switch result.confirmation {
        case .confirmed(let status): "backend transStatus \(status)"
        case .pending: "backend pending"
        case .failed(let error): "backend failed: \(error.message)"
        case .notAsked: "backend not asked"
        }
    return "final CRes \(result.challengeStatus.map { "\($0)" } ?? "none") (\(result.outcome)); \(backend)"
}

/// What the command prints for a link that opened the app.
func describe(_ result: MinimalCheckout<ContinuousClock>.Return) -> String {
    switch result {
    case .live(let id): "live \(id): the payment goes on"
    case .result(let id, .status(let status)): "gone \(id): backend transStatus \(status)"
    case .result(let id, .pending): "gone \(id): backend pending"
    case .unidentified: "unidentified"
    case .notRequestorAppURL: "not the app link"
    }
}

do {
    var config = ConfigParameters()
    config.sdkReferenceNumber = "3DS_LOA_SDK_TLAB_020300_00001"
    config.appIdentifier = "org.threeds2.example.minimal"
    config.appVersion = "1.0"
    config.allowsPlainHTTPLoopback = server.scheme == "http"
    try config.addDirectoryServer(
        DirectoryServer(
            id: directoryServerID, encryptionKey: try String(contentsOfFile: arguments[2], encoding: .utf8),
            rootCertificates: try String(contentsOfFile: arguments[3], encoding: .utf8)))
    let checkout = try MinimalCheckout(backend: server, configuration: config, requestorAppURL: try appLink())
    switch mode {
    case "--bank-app":
        let bankApp = StandardInputBankApp { link in
            // Unbuffered: whoever watches the app sees it switch at once.
            FileHandle.standardOutput.write(Data("in the bank's app: \(link.absoluteString)\n".utf8))
        }
        let result = await checkout.payConfirmed(
            cardNumber: arguments[4], directoryServerID: directoryServerID,
            presenter: AppSwitchPresenter(code: "123456", opener: bankApp))
        print(describe(result))
    case "--return":
        guard let link = URL(string: arguments[4]) else {
            FileHandle.standardError.write(Data("minimal-checkout: LINK is not a URL\n".utf8))
            exit(2)
        }
        print(describe(try await checkout.handle(link)))
    default:
        let result = try await checkout.pay(
            cardNumber: arguments[4], amount: "1999", currency: "978", directoryServerID: directoryServerID,
            code: arguments.count > 5 ? arguments[5] : "123456")
        print(result)
    }
} catch {
    let message = (error as? ThreeDS2Error)?.message ?? (error as? CheckoutError)?.message ?? "\(error)"
    FileHandle.standardError.write(Data("minimal-checkout: \(message)\n".utf8))
    exit(1)
}
