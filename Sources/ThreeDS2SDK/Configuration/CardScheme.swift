/// A directory server ID: the registered application provider ID (RID) of a card scheme, ten hexadecimal
/// characters such as `A000000004`.
///
/// The IDs of the card schemes the SDK knows are constants (``mastercard``, ``visa``, …); any other ID a scheme
/// gives can be made with ``init(_:)`` or written as a string literal (`"A000000004"`), so code that passed the ID
/// as text keeps compiling.
public struct DirectoryServerID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The ID as sent in messages (`A000000004`).
    public let rawValue: String

    /// Wraps an ID as given; ``isWellFormed`` says whether it is ten hexadecimal characters.
    ///
    /// - Parameter rawValue: The ID.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps an ID as given.
    ///
    /// - Parameter rawValue: The ID.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Wraps an ID written as a literal.
    ///
    /// - Parameter value: The ID.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Whether the ID is ten hexadecimal characters, as a RID is.
    public var isWellFormed: Bool { rawValue.utf8.count == 10 && rawValue.allSatisfy(\.isHexDigit) }

    /// The ID.
    public var description: String { rawValue }

    /// Orders by the ID text.
    public static func < (lhs: DirectoryServerID, rhs: DirectoryServerID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Visa.
    public static let visa = DirectoryServerID("A000000003")
    /// Mastercard.
    public static let mastercard = DirectoryServerID("A000000004")
    /// American Express.
    public static let americanExpress = DirectoryServerID("A000000025")
    /// Discover.
    public static let discover = DirectoryServerID("A000000152")
    /// Diners Club International (Discover Global Network).
    public static let diners = DirectoryServerID("A000000324")
    /// JCB.
    public static let jcb = DirectoryServerID("A000000065")
    /// UnionPay.
    public static let unionPay = DirectoryServerID("A000000333")
    /// Cartes Bancaires.
    public static let cartesBancaires = DirectoryServerID("A000000042")
    /// The test directory server ID for an RSA encryption key (used by the TestLab and conformance tools).
    public static let testRSA = DirectoryServerID("F055545342")
    /// The test directory server ID for an EC (P-256) encryption key.
    public static let testEC = DirectoryServerID("F155545342")
}

/// A card scheme the SDK knows: its directory server ID and the name shown while the app talks to the 3DS Server.
///
/// The registry holds identities only. Certificates rotate every few years and therefore come from the app, as a
/// ``TrustBundle`` or a ``DirectoryServer`` entry; a scheme configured by its ID gets its name from here.
public struct CardScheme: Sendable, Hashable {
    /// The directory server ID.
    public let id: DirectoryServerID
    /// The scheme's name, as the processing screen shows it.
    public let name: String
    /// Whether this is a test ID, not a production scheme.
    public let isTest: Bool

    /// Creates a scheme entry.
    ///
    /// - Parameters:
    ///   - id: The directory server ID.
    ///   - name: The display name.
    ///   - isTest: Whether it is a test ID.
    public init(id: DirectoryServerID, name: String, isTest: Bool = false) {
        self.id = id
        self.name = name
        self.isTest = isTest
    }

    /// The test directory server with an RSA encryption key (the TestLab's and conformance tools').
    public static let testRSA = CardScheme(id: .testRSA, name: "Test DS (RSA)", isTest: true)
    /// The test directory server with an EC (P-256) encryption key.
    public static let testEC = CardScheme(id: .testEC, name: "Test DS (EC)", isTest: true)

    /// Every scheme the SDK knows, in a stable order.
    public static let registered: [CardScheme] = [
        CardScheme(id: .visa, name: "Visa"),
        CardScheme(id: .mastercard, name: "Mastercard"),
        CardScheme(id: .americanExpress, name: "American Express"),
        CardScheme(id: .discover, name: "Discover"),
        CardScheme(id: .diners, name: "Diners Club"),
        CardScheme(id: .jcb, name: "JCB"),
        CardScheme(id: .unionPay, name: "UnionPay"),
        CardScheme(id: .cartesBancaires, name: "Cartes Bancaires"),
        .testRSA, .testEC,
    ]

    private static let byID: [DirectoryServerID: CardScheme] = Dictionary(
        uniqueKeysWithValues: registered.map { ($0.id, $0) })

    /// The registered scheme with this directory server ID.
    ///
    /// - Parameter id: The directory server ID.
    /// - Returns: The scheme, or `nil` when the SDK does not know the ID.
    public static func registered(_ id: DirectoryServerID) -> CardScheme? { byID[id] }
}
