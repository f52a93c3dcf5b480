/// Splitting and header decoding shared by compact JWE and JWS.
enum CompactSerialization {
    /// Splits on `.` into slices of one byte array. (Slices of a `[UInt8]` decode at memory speed; splitting the
    /// `String` itself walks grapheme clusters and copies each part byte by byte, several times slower.)
    static func split(_ compact: String, partCount: Int, kind: String, maxBytes: Int) throws(JOSEError)
        -> [ArraySlice<UInt8>]
    {
        guard compact.utf8.count <= maxBytes else {
            throw JOSEError(.inputTooLarge, "\(kind) of \(compact.utf8.count) bytes exceeds the limit of \(maxBytes)")
        }
        let bytes = Array(compact.utf8)
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == partCount else {
            throw JOSEError(
                .malformedCompactSerialization, "\(kind) has \(parts.count) parts; the compact form has \(partCount)")
        }
        return parts
    }

    static func decodeHeader(_ part: ArraySlice<UInt8>, kind: String, maxBytes: Int) throws(JOSEError) -> JSONObject {
        guard !part.isEmpty else {
            throw JOSEError(.malformedCompactSerialization, "\(kind) part 1 (protected header) is empty")
        }
        let json = try Base64.urlDecode(bytes: part, what: "\(kind) part 1 (protected header)")
        guard json.count <= maxBytes else {
            throw JOSEError(.inputTooLarge, "\(kind) protected header of \(json.count) bytes exceeds \(maxBytes)")
        }
        let value: JSONValue
        do {
            value = try JSONParser(limits: .init(maxBytes: maxBytes, maxDepth: 8)).parse(json)
        } catch {
            throw JOSEError(error.code, "\(kind) protected header: \(error.detail)")
        }
        guard case .object(let header) = value else {
            throw JOSEError(.invalidHeader, "\(kind) protected header must be a JSON object, found \(value.typeName)")
        }
        return header
    }
}
