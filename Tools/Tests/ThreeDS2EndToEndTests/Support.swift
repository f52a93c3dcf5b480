import Clocks
import Foundation
import Logging
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// Labs shared by the tests that need the same options (a lab makes four RSA keys at start).
actor LabPool {
    static let shared = LabPool()
    private var labs: [String: TestLab] = [:]

    func lab(_ options: TestLabOptions = TestLabOptions()) async throws -> TestLab {
        let key =
            "\(options.useTLS)-\(options.signer)-\(options.responseEncryption?.rawValue ?? "same")-\(options.slowResponseDelay)-\(options.upperCaseTransactionIDs)-\(options.maxTransactions)"
        if let lab = labs[key] { return lab }
        let lab = try await TestLab.start(options: options)
        labs[key] = lab
        return lab
    }
}

/// What one end-to-end run produced.
struct Run {
    let outcome: ChallengeOutcome?
    let authentication: AuthenticationResponse
    let parameters: AuthenticationRequestParameters
    let presenter: ScriptedPresenter
    let record: ACSRecord?
    let lab: TestLab
}

/// Runs the whole flow against a lab over real HTTP(S) on loopback: initialize, transaction, 3DS Server, and the
/// challenge when asked.
func run(
    _ scenario: Scenario, version: String = "2.2.0", answers: [ScriptedAnswer] = [],
    directoryServerID: DirectoryServerID = TestLab.rsaDirectoryServerID,
    options: TestLabOptions = TestLabOptions(), requestorAppURL: String? = "https://shop.example/checkout?order=42",
    logger: Logger = Logger(label: "threeds2.sdk"), opensApps: Bool = true, appsAllowed: Bool = true,
    timeout: Duration = .seconds(300)
) async throws -> Run {
    let lab = try await LabPool.shared.lab(options)
    let service = ThreeDS2Service(logger: logger)
    var configuration = try lab.sdkConfiguration(dataDirectory: temporaryDirectory())
    configuration.opensOOBApps = appsAllowed
    try service.initialize(configParameters: configuration)
    let transaction = try service.createTransaction(directoryServerID: directoryServerID, messageVersion: version)
    let parameters = try transaction.getAuthenticationRequestParameters()
    let transport = try lab.makeTransport()
    defer { Task { try? await transport.shutdown() } }
    let client = ThreeDSServerClient(serverURL: lab.baseURL, transport: transport)
    let purchase = Purchase(cardNumber: scenario.cardNumber, amount: "1999", currency: "978")
    let authentication = try await client.authenticate(
        parameters: parameters, purchase: purchase, requestorAppURL: requestorAppURL)
    let presenter = ScriptedPresenter(answers: answers, opensApps: opensApps, htmlReader: LibXML2FormReader())
    var outcome: ChallengeOutcome?
    var record: ACSRecord?
    if let challenge = authentication.challengeParameters {
        outcome = try await transaction.challenge(
            challenge, presenter: presenter, timeout: timeout, transport: transport, clock: TestClock())
        record = await lab.acsRecord(acsTransID: challenge.acsTransactionID)
    }
    try service.cleanup()
    return Run(
        outcome: outcome, authentication: authentication, parameters: parameters, presenter: presenter, record: record,
        lab: lab)
}

func temporaryDirectory() -> String {
    scratchDirectory("e2e")
}

extension ChallengeOutcome {
    var errorMessage: ErrorMessage? {
        if case .protocolError(let message) = self { return message }
        return nil
    }
}

/// Prepares a transaction and its ARes against a lab.
func prepare(_ scenario: Scenario, lab: TestLab, configure: (inout ConfigParameters) throws -> Void = { _ in })
    async throws
    -> (ThreeDS2Service, Transaction, ChallengeParameters, HTTPClientTransport)
{
    let service = ThreeDS2Service()
    var config = try lab.sdkConfiguration(dataDirectory: temporaryDirectory())
    try configure(&config)
    try service.initialize(configParameters: config)
    let transaction = try service.createTransaction(
        directoryServerID: TestLab.rsaDirectoryServerID, messageVersion: "2.2.0")
    let transport = try lab.makeTransport()
    let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
        parameters: try transaction.getAuthenticationRequestParameters(),
        purchase: Purchase(cardNumber: scenario.cardNumber, amount: "100", currency: "978"))
    return (service, transaction, try #require(response.challengeParameters), transport)
}
