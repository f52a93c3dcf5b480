public import Foundation
public import ThreeDS2JOSE
public import ThreeDS2Messages
public import X509

/// How a TestLab runs.
public struct TestLabOptions: Sendable {
    /// When the lab's ACS sends its Results Request after an out-of-band challenge the bank's app decided
    /// (`POST /acs/oob-decision`; docs/results-reference.md section 5).
    public enum ResultsTiming: String, Sendable, CaseIterable {
        /// Behaviour A: at once, when the bank's app decides; the final CRes follows the SDK's next CReq.
        case onApproval = "on-approval"
        /// Behaviour B: only after the SDK's final CReq; when none comes within ``TestLabOptions/acsTimeout``, a
        /// timeout RReq (`U`, `challengeCancel` `04`).
        case afterFinalRequest = "after-final-creq"
    }

    /// Which key signs the ACS signed content.
    public enum Signer: String, Sendable, CaseIterable {
        /// RSA, PS256.
        case rsa
        /// EC P-256, ES256.
        case ec
    }

    /// The port; 0 picks a free one.
    public var port: Int
    /// The IPv4 address the lab listens on and names in its URLs and TLS certificate: 127.0.0.1 unless a test needs
    /// an ACS at an address no loopback rule covers (`threeds testlab --host`).
    public var host: String
    /// HTTPS (the default) or plain HTTP.
    public var useTLS: Bool
    /// The ACS signer.
    public var signer: Signer
    /// The CRes content encryption; the CReq's when `nil`.
    public var responseEncryption: ContentEncryption?
    /// How long the slow-response fault waits.
    public var slowResponseDelay: Duration
    /// Where to write the PEM files a client needs, if anywhere.
    public var pkiDirectory: URL?
    /// Whether the 3DS Server and ACS write their transaction IDs in upper case, as some real ones do; the ACS then
    /// expects its own spelling back, byte for byte.
    public var upperCaseTransactionIDs: Bool
    /// Whether each request is logged at info level (method and path only; `threeds testlab --verbose`).
    public var logsRequests: Bool
    /// The most transactions the lab keeps state for (challenges in the ACS, authentication records); beyond it
    /// the oldest are dropped, so a long load run stays within a fixed amount of memory.
    public var maxTransactions: Int
    /// How long the lab keeps a transaction's state. The default outlives the longest challenge timeout (60
    /// minutes).
    public var transactionLifetime: Duration

    /// When the ACS sends the RReq after a bank's-app decision (the default: after the SDK's final CReq).
    public var resultsTiming: ResultsTiming
    /// How long the ACS waits for a CReq (the first, or the next after a screen) before it ends the challenge with a
    /// timeout RReq (`challengeCancel` `05` or `04`).
    public var acsTimeout: Duration
    /// The clock of the ACS's timeout and of the decoupled approval (a test clock in tests).
    public var clock: any Clock<Duration>
    /// How long the bank's app takes to approve the decoupled card's authentication on its own (2 s unless told); a
    /// decision through `POST /acs/oob-decision` before then decides instead.
    public var decoupledApproval: Duration
    /// Split-SDK Servers the lab's DS registers besides its own (``TestLab/splitSDKServerID`` with
    /// ``LabPKI/splitSDKServer``): each ID with the certificate whose key verifies its SDK Server Signed Content. An
    /// entry with the lab's own ID replaces the lab's certificate.
    public var splitSDKServers: [SplitSDKServerID: Certificate]
    /// How far the SDK Signature Timestamp in a Split-SDK AReq's signed content may be from the DS's time (the wall
    /// clock), earlier or later; beyond it the DS answers Erro 308.
    public var splitSignatureWindow: Duration

    /// Creates options.
    public init(
        port: Int = 0, host: String = "127.0.0.1", useTLS: Bool = true, signer: Signer = .rsa,
        responseEncryption: ContentEncryption? = nil,
        slowResponseDelay: Duration = .seconds(11), pkiDirectory: URL? = nil, upperCaseTransactionIDs: Bool = false,
        logsRequests: Bool = false, maxTransactions: Int = 10_000, transactionLifetime: Duration = .seconds(65 * 60),
        resultsTiming: ResultsTiming = .afterFinalRequest, acsTimeout: Duration = .seconds(10 * 60),
        clock: any Clock<Duration> = ContinuousClock(), splitSDKServers: [SplitSDKServerID: Certificate] = [:],
        splitSignatureWindow: Duration = .seconds(5 * 60), decoupledApproval: Duration = .seconds(2)
    ) {
        self.decoupledApproval = decoupledApproval
        self.splitSDKServers = splitSDKServers
        self.splitSignatureWindow = splitSignatureWindow
        self.resultsTiming = resultsTiming
        self.acsTimeout = acsTimeout
        self.clock = clock
        self.maxTransactions = maxTransactions
        self.transactionLifetime = transactionLifetime
        self.upperCaseTransactionIDs = upperCaseTransactionIDs
        self.logsRequests = logsRequests
        self.port = port
        self.host = host
        self.useTLS = useTLS
        self.signer = signer
        self.responseEncryption = responseEncryption
        self.slowResponseDelay = slowResponseDelay
        self.pkiDirectory = pkiDirectory
    }
}
