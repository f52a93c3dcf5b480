public import Foundation

/// What a link that opened the app says about a payment, from
/// ``ThreeDS2Service/returnedTransaction(from:requestorAppURL:)``: the cardholder came back from the bank's app
/// through the 3DS Requestor App URL, and the app learns whether its challenge is still running in this process or
/// must be asked of its backend.
///
/// None of the cases is an error: a link that arrives after the challenge ended (the SDK timed out, the cardholder
/// came back another way) is simply ``gone(sdkTransactionID:)``. Nothing is read from storage and nothing is
/// written: the SDK keeps no key, code or card data across a restart, and the app never receives the authentication
/// value or the ECI, which stay with its backend.
public enum ReturnedTransaction: Sendable, Hashable {
    /// The transaction's challenge is running in this process: it goes on by itself (the presenter continues the
    /// out-of-band screen when the app comes back to the foreground, as on any return from the bank's app), and the
    /// call that runs it returns its outcome. The app starts nothing new.
    case live(sdkTransactionID: String)
    /// No challenge of this transaction runs in this process: the process was restarted while the cardholder was in
    /// the bank's app, or the challenge already ended. Ask the app's backend for the result of this SDK transaction
    /// ID; the backend maps it to its `threeDSServerTransID` (the AReq it sent carried both) and answers with the
    /// status the ACS's Results Request gave it, or "not yet" while the ACS has sent none.
    ///
    /// The ID comes from a link anyone could have opened: the backend answers only for the cardholder's own
    /// payments.
    case gone(sdkTransactionID: String)
    /// The link is the 3DS Requestor App URL but names no transaction (the URL has no
    /// ``RequestorAppURL/TransactionIDMark``, or its query item is missing or holds no SDK transaction ID), and no
    /// single challenge is running in this process: ask the backend about the app's latest payment by the app's own reference.
    case unidentified
    /// The link is not the 3DS Requestor App URL (another scheme, host or path): it is not the SDK's to handle, and
    /// the app treats it as any other link.
    case notRequestorAppURL
}

/// The challenges running in one service's process, by SDK transaction ID: what
/// ``ThreeDS2Service/returnedTransaction(from:requestorAppURL:)`` looks up. Held weakly: a transaction the app
/// dropped is not kept alive by it.
final class LiveChallenges: Sendable {
    private struct Entry {
        weak var transaction: Transaction?
    }

    private let entries = Locked<[String: Entry]>([:])

    /// A challenge started.
    func add(_ transaction: Transaction) {
        entries.withLock { $0[transaction.sdkTransactionID] = Entry(transaction: transaction) }
    }

    /// The transaction closed (its challenge ended, or it never ran one).
    func remove(_ sdkTransactionID: String) {
        _ = entries.withLock { $0.removeValue(forKey: sdkTransactionID) }
    }

    /// The IDs of the transactions whose challenge is running now.
    var running: [String] {
        // Read out first: a transaction's own lock is never taken under this one.
        let current = entries.withLock { entries in
            entries = entries.filter { $0.value.transaction != nil }
            return entries.compactMap(\.value.transaction)
        }
        return current.filter { !$0.isClosed }.map(\.sdkTransactionID).sorted()
    }
}

extension ThreeDS2Service {
    /// The transaction a link that opened the app belongs to: call it from the app's link handler (SwiftUI's
    /// `onOpenURL`, `application(_:open:options:)`, a scene's `openURLContexts`, or the user activity of a universal
    /// link) with the URL the app gave the SDK.
    ///
    /// The link is the app's 3DS Requestor App URL when it has the URL's scheme, host, port and path (and, for a
    /// placeholder, the text around it); query items or a fragment the bank's app added are ignored. The SDK
    /// transaction ID is read where ``RequestorAppURL/transactionIDMark`` says. It works whether or not the service is
    /// initialised: after a restart the app may handle the link first.
    ///
    /// - Parameters:
    ///   - link: The URL that opened the app.
    ///   - requestorAppURL: The 3DS Requestor App URL the app gives its payments (the same value, mark included).
    /// - Returns: Live, gone, unidentified, or not the 3DS Requestor App URL; never an error.
    public func returnedTransaction(from link: URL, requestorAppURL: RequestorAppURL) -> ReturnedTransaction {
        let running = liveChallenges.running
        switch requestorAppURL.match(link.absoluteString) {
        case .notThisURL:
            return .notRequestorAppURL
        case .thisURL(let id?):
            return running.contains(id) ? .live(sdkTransactionID: id) : .gone(sdkTransactionID: id)
        case .thisURL(nil):
            return running.count == 1 ? .live(sdkTransactionID: running[0]) : .unidentified
        }
    }
}

extension RequestorAppURL {
    /// Whether a link is this URL, and the SDK transaction ID it names.
    enum LinkMatch: Equatable {
        /// Another link.
        case notThisURL
        /// This URL; the transaction ID when it names one of the SDK's shape.
        case thisURL(String?)
    }

    /// The longest link read: the URL's own bound twice over, for what the bank's app may add.
    static let maximumLinkLength = 2 * maximumLength

    /// Whether `link` is this URL as sent, and the transaction ID in it (see
    /// ``ThreeDS2Service/returnedTransaction(from:requestorAppURL:)``).
    func match(_ link: String) -> LinkMatch {
        guard PeerText.fits(link, max: Self.maximumLinkLength) else { return .notThisURL }
        if case .placeholder(let placeholder) = transactionIDMark { return matchPlaceholder(link, placeholder) }
        let sent = text(forTransaction: Self.sampleTransactionID)
        guard let expected = URLComponents(string: sent), let actual = URLComponents(string: link),
            Self.samePlace(expected, actual)
        else { return .notThisURL }
        guard case .queryItem(let name) = transactionIDMark else { return .thisURL(nil) }
        let values = (actual.queryItems ?? []).filter { $0.name == name }.compactMap(\.value)
        return .thisURL(values.count == 1 ? Self.transactionID(values[0]) : nil)
    }

    /// A placeholder URL: the link is the text before the placeholder, an ID, the text after it, and anything the
    /// bank's app added as a query or fragment. Without an ID in its place, the link is another of the app's links.
    private func matchPlaceholder(_ link: String, _ placeholder: String) -> LinkMatch {
        let parts = text.components(separatedBy: placeholder)
        guard parts.count == 2, link.hasPrefix(parts[0]) else { return .notThisURL }
        let rest = link.dropFirst(parts[0].count)
        let candidate = String(rest.prefix(Self.sampleTransactionID.count))
        let after = rest.dropFirst(candidate.count)
        guard let id = Self.transactionID(candidate), after.hasPrefix(parts[1]) else { return .notThisURL }
        let added = after.dropFirst(parts[1].count)
        guard added.isEmpty || added.first.map({ "?&#".contains($0) }) == true else { return .notThisURL }
        return .thisURL(id)
    }

    /// Scheme and host without case, port and path exactly.
    private static func samePlace(_ expected: URLComponents, _ actual: URLComponents) -> Bool {
        expected.scheme?.lowercased() == actual.scheme?.lowercased()
            && expected.host?.lowercased() == actual.host?.lowercased() && expected.port == actual.port
            && expected.path == actual.path
    }

    /// The SDK transaction ID a value holds: a UUID, in the SDK's lowercase form.
    private static func transactionID(_ value: String) -> String? {
        guard value.utf8.count == sampleTransactionID.utf8.count, let uuid = UUID(uuidString: value) else {
            return nil
        }
        return uuid.uuidString.lowercased()
    }
}
