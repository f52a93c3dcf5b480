public import ThreeDS2JOSE

/// An edit of a built message's JSON object, applied after every typed field is written and just before encoding:
/// the one way to put a value the message types would not write on the wire (a fault an ACS test plants, a field
/// a later version adds). `patched(_:)` of ``ChallengeResponseBuilder`` and ``AuthenticationResponseBuilder``
/// take it; patches apply in the order given.
///
/// A value, not a closure: it names the member it changes (``path``) and what it does there (``operation``), so a
/// fault profile, a report or a test can show it, compare it and list what a scenario plants. The TestLab's fault
/// profiles are made of these patches.
///
/// ```
/// let cres = builder.patched(.remove("challengeInfoHeader"))
///     .patched(.set("acsCounterAtoS", .string("007")))
///     .patched(.set(.number("7"), at: "challengeEntryBox", "challengeDataEntryLengthMax"))
/// print(RawPatch.remove("challengeInfoHeader"))  // remove challengeInfoHeader
/// ```
public struct RawPatch: Sendable, Hashable, CustomStringConvertible {
    /// What a patch does to the member at its path.
    public enum Operation: Sendable, Hashable {
        /// Removes the member (nothing when absent).
        case remove
        /// Sets the member to any JSON value (a wrong type, an over-long string, a reserved code); a name the
        /// object does not have is added at the end.
        case set(JSONValue)
    }

    /// The member names from the top level down; never empty. Missing objects on the way are created when setting,
    /// and a member on the way that is not an object is replaced by one.
    public let path: [String]
    /// What the patch does there.
    public let operation: Operation

    private init(path: [String], operation: Operation) {
        self.path = path
        self.operation = operation
    }

    /// Removes a top-level member (nothing when absent).
    ///
    /// - Parameter name: The member's name.
    /// - Returns: The patch.
    public static func remove(_ name: String) -> RawPatch {
        RawPatch(path: [name], operation: .remove)
    }

    /// Sets a top-level member to any JSON value (a wrong type, an over-long string, a reserved code); a name the
    /// message does not have is added at the end.
    ///
    /// - Parameters:
    ///   - name: The member's name.
    ///   - value: The value.
    /// - Returns: The patch.
    public static func set(_ name: String, _ value: JSONValue) -> RawPatch {
        RawPatch(path: [name], operation: .set(value))
    }

    /// Removes a member inside nested objects, such as `challengeEntryBox.challengeDataEntryLabel`.
    ///
    /// - Parameters:
    ///   - name: The top-level member's name.
    ///   - inner: The member names below it, from the outside in.
    /// - Returns: The patch.
    public static func remove(at name: String, _ inner: String...) -> RawPatch {
        RawPatch(path: [name] + inner, operation: .remove)
    }

    /// Sets a member inside nested objects, such as `challengeEntryBox.challengeDataEntryLengthMax`.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - name: The top-level member's name.
    ///   - inner: The member names below it, from the outside in.
    /// - Returns: The patch.
    public static func set(_ value: JSONValue, at name: String, _ inner: String...) -> RawPatch {
        RawPatch(path: [name] + inner, operation: .set(value))
    }

    /// `remove challengeEntryBox.challengeDataEntryLabel`, `set acsCounterAtoS to "007"`: the path joined with dots
    /// and the value as JSON text.
    public var description: String {
        let place = path.joined(separator: ".")
        switch operation {
        case .remove: return "remove \(place)"
        case .set(let value): return "set \(place) to \(value.serialized)"
        }
    }

    /// Applies the patch.
    ///
    /// - Parameter object: The message's JSON object.
    public func apply(to object: inout JSONObject) {
        let value: JSONValue? =
            switch operation {
            case .remove: nil
            case .set(let value): value
            }
        Self.set(value, at: path[...], in: &object)
    }

    private static func set(_ value: JSONValue?, at path: ArraySlice<String>, in object: inout JSONObject) {
        guard let name = path.first else { return }
        guard path.count > 1 else {
            object[name] = value
            return
        }
        var inner = object[name]?.objectValue ?? [:]
        set(value, at: path.dropFirst(), in: &inner)
        object[name] = .object(inner)
    }
}

extension [RawPatch] {
    /// The object with every patch applied, in order.
    func applied(to object: JSONObject) -> JSONObject {
        var patched = object
        for patch in self { patch.apply(to: &patched) }
        return patched
    }
}

/// A message builder whose JSON object takes raw patches after its typed fields: ``ChallengeResponseBuilder`` and
/// ``AuthenticationResponseBuilder``.
public protocol RawPatchable: Sendable {
    /// The raw patches, in order, applied after the typed fields and just before encoding.
    var rawPatches: [RawPatch] { get set }
}

extension RawPatchable {
    /// The message with one more raw patch, applied after the typed fields and after earlier patches: the only way
    /// to remove a required field, give a field a value of the wrong type, length or code, or add a field the types
    /// do not know.
    ///
    /// - Parameter patch: The patch.
    /// - Returns: The patched message.
    public func patched(_ patch: RawPatch) -> Self {
        var copy = self
        copy.rawPatches.append(patch)
        return copy
    }
}
