public import Foundation
public import ThreeDS2JOSE

/// The 2.3.1 AReq's `splitSdkType` object, required when `sdkType` is `02` (Split-SDK): the variant of the Split-SDK
/// and whether its client is Limited.
///
/// A Split-SDK divides the SDK between a Split-SDK Server and a Split-SDK Client; the client must encrypt the
/// cardholder's challenge inputs, and a client that cannot is *Limited* (only dynamic authentication methods then)
/// [confidence H]. The object's member names, `sdkVariant` and `limitedInd`, come from a 3DS Server's public 2.3.1
/// reference [confidence M]. Only the Native variant's code (`01`) is public.
public struct SplitSDKType: Sendable, Hashable {
    /// `sdkVariant`: Native (`01`), or a code the Split-SDK Server's configuration gives (Shell and Browser have no
    /// public code).
    public var variant: SDKVariant
    /// `limitedInd`: whether the client cannot encrypt the cardholder's inputs (`Y`).
    public var isLimited: Bool

    /// Creates the object.
    ///
    /// - Parameters:
    ///   - variant: The Split-SDK's variant. No default: a server declares what its client is.
    ///   - isLimited: Whether the client is Limited.
    public init(variant: SDKVariant, isLimited: Bool) {
        self.variant = variant
        self.isLimited = isLimited
    }

    /// The object as the AReq carries it: `{"sdkVariant": "01", "limitedInd": "N"}`.
    public var json: JSONObject {
        JSONObject([("sdkVariant", variant.json), ("limitedInd", YesNoIndicator(isLimited).json)])
    }

    /// Reads the object as a directory server or 3DS Server checks it: an object with `sdkVariant` two digits (any
    /// range; the reader decides which variants it accepts) and `limitedInd` `Y` or `N`, both required.
    ///
    /// - Parameter value: The AReq's `splitSdkType`.
    /// - Returns: The object, or `nil` when it is not one.
    public init?(_ value: JSONValue?) {
        guard case .object(let object)? = value,
            let variant = object["sdkVariant"]?.stringValue.map(SDKVariant.init(rawValue:)), variant.isWellFormed,
            let limited = YesNoIndicator(object["limitedInd"])
        else { return nil }
        self.init(variant: variant, isLimited: limited == .yes)
    }
}

/// The Split-SDK Server ID: the identifier a directory server assigns to a Split-SDK Server it has registered (each
/// DS assigns its own) [confidence H]. It travels in the body of the SDK Server Signed Content.
///
/// Its format is not public: this SDK bounds it to 1–32 printable ASCII characters (`0x20`–`0x7E`), its own choice
/// [confidence L], so that a value read from a peer is bounded and printable.
public struct SplitSDKServerID: Sendable, Hashable, CustomStringConvertible {
    /// The longest ID accepted: 32 characters (this SDK's bound).
    public static let maxLength = 32

    /// The ID as assigned.
    public let rawValue: String

    /// Checks an ID.
    ///
    /// - Parameter rawValue: The ID as the directory server assigned it.
    /// - Returns: `nil` when it is empty, longer than ``maxLength`` or holds anything but printable ASCII.
    public init?(_ rawValue: String) {
        guard (1...Self.maxLength).contains(rawValue.utf8.count),
            rawValue.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// The ID.
    public var description: String { rawValue }
}

/// The SDK Signature Timestamp (`sdkSignatureTimestamp`): when the Split-SDK Server signed the SDK Server Signed
/// Content, in UTC, written `YYYYMMDDHHMMSS` [confidence M]. Whole seconds.
public struct SDKSignatureTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The instant, in whole seconds.
    public let date: Date

    /// The timestamp of an instant, its fraction of a second dropped.
    ///
    /// - Parameter date: The instant.
    public init(_ date: Date) {
        self.date = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// Reads `YYYYMMDDHHMMSS` (UTC).
    ///
    /// - Parameter text: The field's text.
    /// - Returns: `nil` unless it is fourteen ASCII digits naming a real date and time (years 2000–2999).
    public init?(text: String) {
        let digits = Array(text.utf8)
        guard digits.count == 14, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let parts = DateComponents(
            calendar: Self.calendar, timeZone: Self.calendar.timeZone, year: number(0..<4), month: number(4..<6),
            day: number(6..<8), hour: number(8..<10), minute: number(10..<12), second: number(12..<14))
        guard (2000...2999).contains(parts.year ?? 0), let date = Self.calendar.date(from: parts) else { return nil }
        let timestamp = SDKSignatureTimestamp(date)
        // A day 31 in a 30-day month, an hour 24 or a second 60 is normalised by the calendar: refuse it.
        guard timestamp.text == text else { return nil }
        self = timestamp
    }

    /// The field's text: `YYYYMMDDHHMMSS` in UTC.
    public var text: String {
        let parts = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.year, 4) + pad(parts.month, 2) + pad(parts.day, 2) + pad(parts.hour, 2)
            + pad(parts.minute, 2) + pad(parts.second, 2)
    }

    /// The text.
    public var description: String { text }

    /// Earlier first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.date < rhs.date }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}

/// The bound of `sdkServerSignedContent` (2.3.1, Split-SDK), the compact JWS a Split-SDK Server signs for an AReq:
/// at most 4,000 characters [confidence H]. The messages layer knows only the bound the AReq element has; making and
/// verifying the content is server-side (`SDKServerSignedContent` in ThreeDS2ACSKit).
public enum SplitSDKSignedContentBound {
    /// The longest `sdkServerSignedContent`: 4,000 characters.
    public static let maxLength = 4000
}
