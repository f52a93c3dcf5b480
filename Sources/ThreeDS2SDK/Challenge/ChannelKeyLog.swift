package import Crypto
package import ThreeDS2Messages

/// One transaction's channel key, as `threeds pay --save-transaction-keys` writes it so that captured CReqs and CRes
/// can be decrypted later (like a TLS key log file, for test systems only).
///
/// Package-only: an app that links the SDK cannot reach it, so no app can export its keys.
package struct ChannelKeyEntry: Sendable {
    /// The identifiers of the transaction.
    package let identifiers: TransactionIdentifiers
    /// The transaction's message version.
    package let messageVersion: MessageVersion
    /// The 32-byte key derived from the ECDH secret (``ChannelKeys/init(derived:)`` gives both directions).
    package let derivedKey: SymmetricKey
}

/// Receives the channel key of each challenge a transaction runs.
package protocol ChannelKeyLog: Sendable {
    /// Records the key, once the channel is set up and before the first CReq.
    func record(_ entry: ChannelKeyEntry)
}

extension Transaction {
    /// Sends this transaction's channel key to `log` when its challenge starts. Package-only (the CLI's
    /// `--save-transaction-keys`).
    package func logChannelKeys(to log: any ChannelKeyLog) {
        state.withLock { $0.keyLog = log }
    }
}
