public import Crypto
public import Foundation
public import ThreeDS2Messages
public import ThreeDS2SDK
public import X509

/// What the Split-SDK Server needs to run: its merchant's key and origin, one entry per directory server it serves
/// (with the Split-SDK Server ID that DS assigned, the key and certificates it signs the SDK Server Signed Content
/// with, and the DS's roots and encryption key), the variant it declares, and its bounds.
public struct SplitServerConfiguration: Sendable {
    /// One directory server the server is registered with.
    public struct DirectoryServerEntry: Sendable {
        /// The directory server as the SDK is configured for it (ID, encryption key, roots).
        public var directoryServer: DirectoryServer
        /// The Split-SDK Server ID this DS assigned (1–32 printable ASCII characters).
        public var splitSDKServerID: String
        /// The key the SDK Server Signed Content is signed with (ES256).
        public var signingKey: P256.Signing.PrivateKey
        /// The signing certificate first, then its intermediates (the JWS's `x5c`).
        public var certificateChain: [Certificate]

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - directoryServer: The directory server as the SDK is configured for it.
        ///   - splitSDKServerID: The Split-SDK Server ID the DS assigned.
        ///   - signingKey: The signing key.
        ///   - certificateChain: The signing certificate, then its intermediates.
        public init(
            directoryServer: DirectoryServer, splitSDKServerID: String, signingKey: P256.Signing.PrivateKey,
            certificateChain: [Certificate]
        ) {
            self.directoryServer = directoryServer
            self.splitSDKServerID = splitSDKServerID
            self.signingKey = signingKey
            self.certificateChain = certificateChain
        }
    }

    /// The merchant backend's API key (`Authorization: Bearer …` on `/merchant/v1/*`).
    public var merchantAPIKey: String
    /// The merchant page's origin (`https://shop.example`): the only origin allowed to call `/client/v1/*`
    /// cross-origin, and the frame's `frame-ancestors`.
    public var merchantOrigin: String
    /// The server's own origin as the browser reaches it (the frame's URL is built on it); the address it listens
    /// on when `nil`.
    public var publicBaseURL: URL?
    /// The directory servers served.
    public var directoryServers: [DirectoryServerEntry]
    /// The declared `sdkVariant` (``SplitVariants``): required, no default.
    public var variant: SDKVariant
    /// Whether the deployment's client is native code; `false` for the web client (then `01` is refused).
    public var clientIsNative = false
    /// The SDK reference number the AReqs carry.
    public var sdkReferenceNumber: String
    /// Where the web client's files are; the target's resource folder when `nil`.
    public var webClientFolder: URL?
    /// The overall challenge timer (at least five minutes).
    public var challengeTimeout: Duration = .seconds(5 * 60)
    /// The most sessions held at once.
    public var maxSessions = 1_000
    /// How long a session lives after its last use.
    public var sessionLifetime: Duration = .seconds(10 * 60)
    /// Whether an ACS on loopback may be plain http (tests and the TestLab).
    public var allowsPlainHTTPLoopback = false
    /// Where the sessions are kept: this process's memory (one instance, the default), or PostgreSQL shared by
    /// several instances (each call reaches the instance that runs its session; another takes a session over when
    /// that instance is gone).
    public var sessionStore: SplitSessionStore = .memory

    /// Creates a configuration; the variant has no default.
    ///
    /// - Parameters:
    ///   - merchantAPIKey: The merchant backend's API key.
    ///   - merchantOrigin: The merchant page's origin.
    ///   - directoryServers: The directory servers served.
    ///   - variant: The declared `sdkVariant`.
    ///   - sdkReferenceNumber: The SDK reference number.
    public init(
        merchantAPIKey: String, merchantOrigin: String, directoryServers: [DirectoryServerEntry],
        variant: SDKVariant, sdkReferenceNumber: String
    ) {
        self.merchantAPIKey = merchantAPIKey
        self.merchantOrigin = merchantOrigin
        self.directoryServers = directoryServers
        self.variant = variant
        self.sdkReferenceNumber = sdkReferenceNumber
    }
}
