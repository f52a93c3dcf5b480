public import Crypto
public import ThreeDS2Messages

/// One transaction's channel key, as `threeds pay --save-transaction-keys` writes it so that captured CReqs and CRes
/// can be decrypted later (like a TLS key log file, for test systems only).
///
/// Tools-only (`@_spi(ThreeDS2Tools)`): an app that links the SDK does not see it without importing that SPI by name,
/// so no app exports its keys by accident; the `threeds` CLI imports it.
@_spi(ThreeDS2Tools) public struct ChannelKeyEntry: Sendable {
    /// The identifiers of the transaction.
    public let identifiers: TransactionIdentifiers
    /// The transaction's message version.
    public let messageVersion: MessageVersion
    /// The 32-byte key derived from the ECDH secret (``ChannelKeys/init(derived:)`` gives both directions).
    public let derivedKey: SymmetricKey
}

/// Receives the channel key of each challenge a transaction runs.
@_spi(ThreeDS2Tools) public protocol ChannelKeyLog: Sendable {
    /// Records the key, once the channel is set up and before the first CReq.
    func record(_ entry: ChannelKeyEntry)
}

extension Transaction {
    /// Sends this transaction's channel key to `log` when its challenge starts. Tools-only (the CLI's
    /// `--save-transaction-keys`).
    @_spi(ThreeDS2Tools) public func logChannelKeys(to log: any ChannelKeyLog) {
        state.withLock { $0.keyLog = log }
    }
}
