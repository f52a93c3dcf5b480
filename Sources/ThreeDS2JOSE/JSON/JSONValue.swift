/// A JSON value that keeps object members in the order they were written or parsed.
///
/// JOSE headers and protocol messages are compared, logged and re-serialised byte for byte, so the order of
/// members matters and a number must keep the exact text it was sent with. `JSONValue` therefore stores numbers as
/// their literal text and objects as ordered member lists.
public enum JSONValue: Sendable, Hashable {
    /// The literal `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as the literal text it was written with (for example `"1.50"` or `"-3e2"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order.
    case object(JSONObject)

    /// The string when this value is a JSON string, otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The object when this value is a JSON object, otherwise `nil`.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements when this value is a JSON array, otherwise `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The Boolean when this value is `true` or `false`, otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A JSON number built from an integer.
    ///
    /// - Parameter value: The integer.
    /// - Returns: The number, written in decimal.
    public static func integer(_ value: Int) -> JSONValue {
        .number(String(value))
    }

    /// A short name of the value's JSON type, used in error messages ("string", "object", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON object whose members keep their order.
///
/// Member names are unique: ``JSONParser`` rejects duplicates, and ``subscript(_:)`` replaces in place. Lookup by
/// name goes through an index, so reading or building an object is linear in its member count.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The members in order.
    public private(set) var members: [(name: String, value: JSONValue)]
    /// Where each name sits in ``members``.
    private var positions: [String: Int] = [:]

    /// An object with the given members, in the given order.
    ///
    /// - Parameter members: Name–value pairs; a later duplicate name replaces the earlier value in place.
    public init(_ members: [(String, JSONValue)] = []) {
        self.members = []
        for (name, value) in members { self[name] = value }
    }

    /// Builds an object from a dictionary literal, keeping the literal's order.
    ///
    /// - Parameter elements: Name–value pairs.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The member names in order.
    public var names: [String] { members.map(\.name) }

    /// The number of members.
    public var count: Int { members.count }

    /// The value of the named member; setting `nil` removes it, setting a new name appends it.
    ///
    /// - Parameter name: The member name.
    public subscript(name: String) -> JSONValue? {
        get { positions[name].map { members[$0].value } }
        set {
            switch (positions[name], newValue) {
            case (let index?, let value?):
                members[index].value = value
            case (let index?, nil):
                members.remove(at: index)
                positions[name] = nil
                for later in index..<members.count { positions[members[later].name] = later }
            case (nil, let value?):
                positions[name] = members.count
                members.append((name, value))
            case (nil, nil):
                break
            }
        }
    }

    /// Two objects are equal when they have the same members with the same values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// Hashes the member names and values independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.name)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
