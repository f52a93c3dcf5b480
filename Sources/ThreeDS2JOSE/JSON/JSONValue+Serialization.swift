extension JSONValue {
    /// The compact JSON text of the value: no insignificant whitespace, members in order, `/` and non-ASCII
    /// characters written as they are, control characters escaped.
    public var serialized: String {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The UTF-8 bytes of ``serialized``.
    public var serializedBytes: [UInt8] {
        var output: [UInt8] = []
        write(into: &output)
        return output
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let literal): output.append(contentsOf: literal.utf8)
        case .string(let value): Self.writeString(value, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.name, into: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into output: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONObject {
    /// The compact JSON text of the object (see ``JSONValue/serialized``).
    public var serialized: String { JSONValue.object(self).serialized }

    /// The UTF-8 bytes of ``serialized``.
    public var serializedBytes: [UInt8] { JSONValue.object(self).serializedBytes }

    /// The value of a member that must be a string when present.
    ///
    /// - Parameter name: The member name.
    /// - Returns: The string, or `nil` when the member is absent.
    /// - Throws: ``JOSEError`` with code `invalidHeader` when the member is present but not a string.
    public func optionalString(_ name: String) throws(JOSEError) -> String? {
        guard let value = self[name] else { return nil }
        guard case .string(let string) = value else {
            throw JOSEError(.invalidHeader, "header \"\(name)\" must be a string, found \(value.typeName)")
        }
        return string
    }
}
