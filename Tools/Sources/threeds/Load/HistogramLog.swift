import CZlib
import Foundation
import Histogram
import ThreeDS2Messages

/// The latency histograms of a load run: microseconds, 1 µs to one hour, three significant digits.
typealias LatencyHistogram = Histogram<UInt64>

extension LatencyHistogram {
    /// The highest latency recorded: one hour, in microseconds.
    static let highestMicroseconds: UInt64 = 3_600_000_000

    /// An empty latency histogram.
    static func latencies() -> LatencyHistogram {
        LatencyHistogram(lowestDiscernibleValue: 1, highestTrackableValue: highestMicroseconds)
    }
}

/// One interval histogram of a log: its tag (the phase), start and length in seconds, and the histogram.
struct TaggedHistogram {
    var tag: String
    var start: Double
    var length: Double
    var histogram: LatencyHistogram
}

/// The HdrHistogram interval log (format 1.3, as HdrHistogram's Java `HistogramLogWriter` and Python `hdrh` write
/// it): comment lines, a column legend, then one line per interval histogram,
/// `Tag=<phase>,<start s>,<length s>,<max ms>,<base64 of the compressed V2 encoding>`.
///
/// The V2 encoding: a 40-byte big-endian header (cookie `0x1c849313`, payload length, normalizing offset 0,
/// significant digits, lowest and highest trackable values, conversion ratio 1.0), then each count of the counts
/// array up to the highest recorded value as a ZigZag LEB128 varint, a run of k > 1 empty buckets written as −k.
/// Compressed: cookie `0x1c849314`, the length, then the V2 encoding deflated with a zlib header.
enum HistogramLog {
    static let encodingCookie: UInt32 = 0x1c84_9313
    static let compressedCookie: UInt32 = 0x1c84_9314
    /// The largest log `threeds load merge` reads, and the largest decoded histogram.
    static let maxLogBytes = 64 << 20
    static let maxEncodedBytes = 1 << 20

    /// The text of a log holding `histograms`; `startTime` is the run's start (seconds since 1970).
    static func text(_ histograms: [TaggedHistogram], startTime: Double) throws(LogError) -> String {
        var lines = [
            "#[Histogram log format version 1.3]",
            "#[StartTime: \(String(format: "%.3f", startTime)) (seconds since epoch), \(Date(timeIntervalSince1970: startTime))]",
            "#[Written by threeds load; values are microseconds]",
            "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"",
        ]
        for item in histograms {
            let maximum = Double(item.histogram.max) / 1000
            lines.append(
                "Tag=\(item.tag),"
                    + String(format: "%.3f,%.3f,%.3f,", item.start, item.length, maximum)
                    + Data(try compressed(item.histogram)).base64EncodedString())
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the log of `histograms` to `path` (for `--histogram-log`).
    static func write(_ histograms: [TaggedHistogram], startTime: Double, to path: String) throws {
        let contents: String
        do {
            contents = try text(histograms, startTime: startTime)
        } catch {
            throw CLIError("--histogram-log \(path): \(error.description)", exitStatus: 1)
        }
        do {
            try Data(contents.utf8).write(
                to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError("--histogram-log \(path): cannot be written", exitStatus: 1)
        }
    }

    /// The most interval-histogram lines `threeds load merge` reads, all logs together (a `threeds load` log has one
    /// per phase).
    static let maxHistogramLines = 10_000
    /// The most distinct tags (phases) `threeds load merge` keeps.
    static let maxTags = 64
    /// The longest tag, in Unicode scalars.
    static let maxTagLength = 64

    /// The histograms of a log, by line; comment and legend lines are skipped.
    static func parse(_ text: String, source: String) throws -> [TaggedHistogram] {
        var result: [TaggedHistogram] = []
        var lines = 0
        try parse(text, source: source, lines: &lines) { result.append($0) }
        return result
    }

    /// Reads a log line by line, handing each histogram on as soon as it is decoded (so a merge holds one decoded
    /// histogram at a time, not the whole log). `lines` counts interval-histogram lines across calls; past
    /// ``maxHistogramLines`` the read stops with an error. A tag is kept as the terminal may show it: control and
    /// bidirectional control characters escaped, at most ``maxTagLength`` characters.
    static func parse(
        _ text: String, source: String, lines: inout Int, each: (TaggedHistogram) throws -> Void
    ) throws {
        var number = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("\"") { continue }
            lines += 1
            guard lines <= maxHistogramLines else {
                throw LogError(
                    "\(source) line \(number): more than \(maxHistogramLines) interval histograms in all; "
                        + "merge fewer logs at a time")
            }
            var fields = trimmed.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var tag = ""
            if fields.first?.hasPrefix("Tag=") == true { tag = String(fields.removeFirst().dropFirst(4)) }
            guard PeerText.fits(tag, max: maxTagLength) else {
                throw LogError("\(source) line \(number): the tag is longer than \(maxTagLength) characters")
            }
            tag = PeerText.escapedForTerminal(tag)
            guard fields.count == 4, let start = Double(fields[0]), let length = Double(fields[1]) else {
                throw LogError("\(source) line \(number): not an interval histogram line")
            }
            guard let data = Data(base64Encoded: fields[3]) else {
                throw LogError("\(source) line \(number): the histogram is not base64")
            }
            do {
                try each(TaggedHistogram(tag: tag, start: start, length: length, histogram: try decode(Array(data))))
            } catch let error as LogError {
                throw LogError("\(source) line \(number): \(error.description)")
            }
        }
    }

    /// A failure to read a log, naming where, or to compress a histogram for one.
    struct LogError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Encoding

    /// The compressed form of a histogram (cookie, length, the deflated V2 encoding).
    ///
    /// - Throws: ``LogError`` when zlib fails (it should not with a buffer of `compressBound` bytes and a valid
    ///   level, but a failure is reported, never trapped on).
    static func compressed(_ histogram: LatencyHistogram) throws(LogError) -> [UInt8] {
        let plain = encode(histogram)
        var bound = compressBound(uLong(plain.count))
        var deflated = [UInt8](repeating: 0, count: Int(bound))
        let status = deflated.withUnsafeMutableBufferPointer { output in
            plain.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &bound, input.baseAddress, uLong(input.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else {
            throw LogError("the histogram could not be compressed (zlib status \(status))")
        }
        var output: [UInt8] = []
        append(compressedCookie, to: &output)
        append(UInt32(bound), to: &output)
        output += deflated.prefix(Int(bound))
        return output
    }

    static func encode(_ histogram: LatencyHistogram) -> [UInt8] {
        let layout = Layout(
            lowest: histogram.lowestDiscernibleValue,
            digits: Int(histogram.numberOfSignificantValueDigits.rawValue))
        var payload: [UInt8] = []
        if histogram.totalCount > 0 {
            let limit = layout.index(of: histogram.maxRecorded) + 1
            var index = 0
            while index < limit {
                let count = histogram.countForValue(layout.value(at: index))
                index += 1
                if count == 0 {
                    var zeros: Int64 = 1
                    while index < limit, histogram.countForValue(layout.value(at: index)) == 0 {
                        zeros += 1
                        index += 1
                    }
                    appendZigZag(zeros > 1 ? -zeros : 0, to: &payload)
                } else {
                    appendZigZag(Int64(count), to: &payload)
                }
            }
        }
        var output: [UInt8] = []
        append(encodingCookie, to: &output)
        append(UInt32(payload.count), to: &output)
        append(UInt32(0), to: &output)
        append(UInt32(histogram.numberOfSignificantValueDigits.rawValue), to: &output)
        append(histogram.lowestDiscernibleValue, to: &output)
        append(histogram.highestTrackableValue, to: &output)
        append((1.0 as Double).bitPattern, to: &output)
        return output + payload
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to output: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { output += $0 }
    }

    /// ZigZag, then LEB128 with at most nine bytes (the ninth carries eight bits), as HdrHistogram writes it.
    private static func appendZigZag(_ value: Int64, to output: inout [UInt8]) {
        var remaining = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        for _ in 0..<8 {
            if remaining < 0x80 {
                output.append(UInt8(remaining))
                return
            }
            output.append(UInt8(remaining & 0x7F) | 0x80)
            remaining >>= 7
        }
        output.append(UInt8(truncatingIfNeeded: remaining))
    }

    // MARK: Decoding

    static func decode(_ bytes: [UInt8]) throws -> LatencyHistogram {
        var reader = Reader(bytes: bytes[...])
        let cookie = try reader.uint32()
        switch cookie {
        case compressedCookie:
            let length = Int(try reader.uint32())
            guard length == reader.bytes.count else { throw LogError("the compressed length does not match") }
            // Deflate expands at most about 1032:1: a small line gets a small buffer, not a megabyte each.
            let capacity = min(maxEncodedBytes, reader.bytes.count * 1032 + 64)
            var output = [UInt8](repeating: 0, count: capacity)
            var outputLength = uLong(capacity)
            let input = Array(reader.bytes)
            let status = output.withUnsafeMutableBufferPointer { out in
                input.withUnsafeBufferPointer { inp in
                    uncompress(out.baseAddress, &outputLength, inp.baseAddress, uLong(inp.count))
                }
            }
            guard status == Z_OK else { throw LogError("the histogram does not inflate (zlib status \(status))") }
            return try decode(Array(output.prefix(Int(outputLength))))
        case encodingCookie:
            return try decodePlain(&reader)
        default:
            throw LogError("unknown histogram encoding cookie 0x\(String(cookie, radix: 16))")
        }
    }

    private static func decodePlain(_ reader: inout Reader) throws -> LatencyHistogram {
        let payloadLength = Int(try reader.uint32())
        guard try reader.uint32() == 0 else { throw LogError("a normalizing index offset is not supported") }
        let digits = Int(try reader.uint32())
        let lowest = try reader.uint64()
        let highest = try reader.uint64()
        _ = try reader.uint64()
        guard (0...5).contains(digits) else {
            throw LogError("\(digits) significant digits is out of range")
        }
        guard lowest >= 1, lowest <= UInt64.max / 4, highest >= 2 * lowest, highest <= UInt64.max / 4 else {
            throw LogError("the value range \(lowest)...\(highest) is invalid")
        }
        guard payloadLength == reader.bytes.count else { throw LogError("the payload length does not match") }
        let layout = Layout(lowest: lowest, digits: digits)
        // The histogram is read into the standard latency layout: values beyond an hour are refused.
        var histogram = LatencyHistogram.latencies()
        var index = 0
        while !reader.bytes.isEmpty {
            let count = try reader.zigZag()
            if count < 0 {
                guard count > -(1 << 40) else { throw LogError("a run of empty buckets is too long") }
                index += Int(-count)
                continue
            }
            if count > 0 {
                let value = try layout.checkedValue(at: index)
                guard histogram.record(value, count: UInt64(count)) else {
                    throw LogError("a value of \(value) exceeds the highest trackable latency (one hour)")
                }
            }
            index += 1
        }
        return histogram
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func uint32() throws -> UInt32 { UInt32(try uint(4)) }
        mutating func uint64() throws -> UInt64 { try uint(8) }

        private mutating func uint(_ count: Int) throws -> UInt64 {
            guard bytes.count >= count else { throw LogError("the histogram encoding is truncated") }
            let value = bytes.prefix(count).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            bytes.removeFirst(count)
            return value
        }

        mutating func zigZag() throws -> Int64 {
            var result: UInt64 = 0
            for position in 0..<9 {
                guard let byte = bytes.popFirst() else { throw LogError("the histogram encoding is truncated") }
                if position == 8 {
                    result |= UInt64(byte) << 56
                    break
                }
                result |= UInt64(byte & 0x7F) << (7 * UInt64(position))
                if byte & 0x80 == 0 { break }
            }
            return Int64(bitPattern: result >> 1) ^ -Int64(bitPattern: result & 1)
        }
    }

    /// HdrHistogram's counts-array layout for a lowest discernible value and a precision.
    struct Layout {
        let unitMagnitude: Int
        let subBucketHalfCountMagnitude: Int
        let subBucketHalfCount: Int
        let subBucketMask: UInt64
        let leadingZeroCountBase: Int

        init(lowest: UInt64, digits: Int) {
            unitMagnitude = 63 - lowest.leadingZeroBitCount
            var largest: UInt64 = 2
            for _ in 0..<digits { largest *= 10 }
            let subBucketCountMagnitude = 64 - (largest - 1).leadingZeroBitCount
            subBucketHalfCountMagnitude = max(subBucketCountMagnitude, 1) - 1
            subBucketHalfCount = 1 << subBucketHalfCountMagnitude
            subBucketMask = UInt64((1 << subBucketCountMagnitude) - 1) << UInt64(unitMagnitude)
            leadingZeroCountBase = 64 - unitMagnitude - subBucketCountMagnitude
        }

        func index(of value: UInt64) -> Int {
            let bucket = leadingZeroCountBase - (value | subBucketMask).leadingZeroBitCount
            let subBucket = Int(value >> UInt64(bucket + unitMagnitude))
            return ((bucket + 1) << subBucketHalfCountMagnitude) + subBucket - subBucketHalfCount
        }

        func value(at index: Int) -> UInt64 {
            var bucket = (index >> subBucketHalfCountMagnitude) - 1
            var subBucket = (index & (subBucketHalfCount - 1)) + subBucketHalfCount
            if bucket < 0 {
                subBucket -= subBucketHalfCount
                bucket = 0
            }
            return UInt64(subBucket) << UInt64(bucket + unitMagnitude)
        }

        /// ``value(at:)`` for an index read from a file: refused when the value would not fit 64 bits.
        func checkedValue(at index: Int) throws -> UInt64 {
            let bucket = max((index >> subBucketHalfCountMagnitude) - 1, 0)
            guard bucket + unitMagnitude + subBucketHalfCountMagnitude + 1 < 63 else {
                throw LogError("bucket index \(index) is beyond any 64-bit value")
            }
            return value(at: index)
        }
    }
}
