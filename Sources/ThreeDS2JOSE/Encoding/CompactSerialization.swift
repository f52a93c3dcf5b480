/// Splitting and header decoding shared by compact JWE and JWS.
enum CompactSerialization {
    /// Runs `body` over the UTF-8 of `compact` (no copy for a native string) and the byte ranges of its parts.
    static func withParts<R>(
        _ compact: String, partCount: Int, kind: String, maxBytes: Int,
        _ body: (UnsafeBufferPointer<UInt8>, [Range<Int>]) throws(JOSEError) -> R
    ) throws(JOSEError) -> R {
        guard compact.utf8.count <= maxBytes else {
            throw JOSEError(.inputTooLarge, "\(kind) of \(compact.utf8.count) bytes exceeds the limit of \(maxBytes)")
        }
        var text = compact
        let result: Result<R, JOSEError> = text.withUTF8 { bytes in
            do throws(JOSEError) {
                return .success(try withParts(bytes, partCount: partCount, kind: kind, maxBytes: maxBytes, body))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` over `bytes` and the byte ranges of its parts.
    static func withParts<R>(
        _ bytes: UnsafeBufferPointer<UInt8>, partCount: Int, kind: String, maxBytes: Int,
        _ body: (UnsafeBufferPointer<UInt8>, [Range<Int>]) throws(JOSEError) -> R
    ) throws(JOSEError) -> R {
        guard bytes.count <= maxBytes else {
            throw JOSEError(.inputTooLarge, "\(kind) of \(bytes.count) bytes exceeds the limit of \(maxBytes)")
        }
        var parts: [Range<Int>] = []
        parts.reserveCapacity(partCount)
        var start = 0
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ".")) ?? bytes.count
            parts.append(start..<end)
            guard end < bytes.count else { break }
            start = end + 1
        }
        guard parts.count == partCount else {
            throw JOSEError(
                .malformedCompactSerialization, "\(kind) has \(parts.count) parts; the compact form has \(partCount)")
        }
        return try body(bytes, parts)
    }

    static func decodeHeader(_ part: UnsafeBufferPointer<UInt8>, kind: String, maxBytes: Int) throws(JOSEError)
        -> JSONObject
    {
        guard !part.isEmpty else {
            throw JOSEError(.malformedCompactSerialization, "\(kind) part 1 (protected header) is empty")
        }
        let json = try Base64.urlDecode(part, what: "\(kind) part 1 (protected header)")
        guard json.count <= maxBytes else {
            throw JOSEError(.inputTooLarge, "\(kind) protected header of \(json.count) bytes exceeds \(maxBytes)")
        }
        let value: JSONValue
        do {
            value = try JSONParser(limits: .init(maxBytes: maxBytes, maxDepth: 8)).parse(json)
        } catch {
            throw JOSEError(error.code, "\(kind) protected header: \(error.message)")
        }
        guard case .object(let header) = value else {
            throw JOSEError(.invalidHeader, "\(kind) protected header must be a JSON object, found \(value.typeName)")
        }
        return header
    }
}
