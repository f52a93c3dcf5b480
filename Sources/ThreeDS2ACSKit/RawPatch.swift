public import ThreeDS2JOSE

/// An edit of a built message's JSON object, applied after every typed field is written and just before encoding:
/// the one way to put a value the message types would not write on the wire (a fault an ACS test plants, a field
/// a later version adds). `patched(_:)` of ``ChallengeResponseBuilder`` and ``AuthenticationResponseBuilder``
/// take it; patches apply in the order given.
///
/// ```
/// let cres = builder.patched(.removing("challengeInfoHeader"))
///     .patched(.setting("acsCounterAtoS", to: .string("007")))
///     .patched(.setting(.number("7"), at: "challengeEntryBox", "challengeDataEntryLengthMax"))
///     .patched { $0["vendorField"] = .array([]) }
/// ```
public struct RawPatch: Sendable {
    private let edit: @Sendable (inout JSONObject) -> Void

    /// A patch that edits the object as it likes: remove, replace or add members, with any JSON value.
    ///
    /// - Parameter edit: The edit, given the message's JSON object.
    public init(_ edit: @escaping @Sendable (inout JSONObject) -> Void) {
        self.edit = edit
    }

    /// Removes a top-level member (nothing when absent).
    ///
    /// - Parameter name: The member's name.
    /// - Returns: The patch.
    public static func removing(_ name: String) -> RawPatch {
        RawPatch { $0[name] = nil }
    }

    /// Sets a top-level member to any JSON value (a wrong type, an over-long string, a reserved code); a name the
    /// message does not have is added at the end.
    ///
    /// - Parameters:
    ///   - name: The member's name.
    ///   - value: The value.
    /// - Returns: The patch.
    public static func setting(_ name: String, to value: JSONValue) -> RawPatch {
        RawPatch { $0[name] = value }
    }

    /// Sets (or, with `nil`, removes) a member inside nested objects, such as
    /// `challengeEntryBox.challengeDataEntryLengthMax`; missing objects on the way are created, and a member on the way
    /// that is not an object is replaced by one.
    ///
    /// - Parameters:
    ///   - value: The value, or `nil` to remove the member.
    ///   - path: The member names from the top level down; at least one.
    /// - Returns: The patch.
    public static func setting(_ value: JSONValue?, at path: String...) -> RawPatch {
        RawPatch { object in Self.set(value, at: path[...], in: &object) }
    }

    /// Applies the patch.
    ///
    /// - Parameter object: The message's JSON object.
    public func apply(to object: inout JSONObject) {
        edit(&object)
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

    /// The message with one more raw patch written as an edit of the JSON object (``RawPatch/init(_:)``).
    ///
    /// - Parameter edit: The edit.
    /// - Returns: The patched message.
    public func patched(_ edit: @escaping @Sendable (inout JSONObject) -> Void) -> Self {
        patched(RawPatch(edit))
    }
}
