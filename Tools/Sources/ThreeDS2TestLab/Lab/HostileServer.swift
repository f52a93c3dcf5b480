public import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import ThreeDS2JOSE
import X509

/// A hostile HTTP(S) server on 127.0.0.1 for transport tests: it answers with a gzip bomb, an endless body, a body
/// announced far larger than any bound, or a plain `ok`, and serves a TLS certificate of the test's choosing (for
/// example one whose only subject alternative name is `IP:127.0.0.1`, to be reached as `localhost`).
public final class HostileServer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// `https` or `http`.
    public let scheme: String
    /// The PEM of the root that issued the server's certificate (`nil` for plain HTTP).
    public let rootPEM: String?
    private let serviceGroup: ServiceGroup
    private let task: Task<Void, any Error>

    private init(
        port: Int, scheme: String, rootPEM: String?, serviceGroup: ServiceGroup, task: Task<Void, any Error>
    ) {
        self.port = port
        self.scheme = scheme
        self.rootPEM = rootPEM
        self.serviceGroup = serviceGroup
        self.task = task
    }

    /// The URL of `path` on `host` (which must resolve to 127.0.0.1, such as `localhost`).
    ///
    /// - Parameters:
    ///   - path: The path, such as `gzip-bomb`.
    ///   - host: The host name written in the URL.
    /// - Returns: The URL.
    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "\(scheme)://\(host):\(port)/\(path)")!
    }

    /// How many bytes the gzip bomb expands to.
    public static let bombExpandedBytes = 1 + 258 * 1_040_000

    /// The gzip bomb: a valid gzip member of about 1.7 MB that expands to ``bombExpandedBytes`` zero bytes.
    public static let gzipBomb: [UInt8] = GzipBomb.make(matches: 1_040_000)

    /// Starts the server.
    ///
    /// - Parameters:
    ///   - useTLS: HTTPS with a fresh private root, or plain HTTP.
    ///   - ipAddresses: The certificate's IP subject alternative names.
    ///   - dnsNames: The certificate's DNS subject alternative names.
    /// - Returns: The running server.
    /// - Throws: An error when the PKI or the listener fails.
    public static func start(useTLS: Bool, ipAddresses: [String] = ["127.0.0.1"], dnsNames: [String] = [])
        async throws -> HostileServer
    {
        ignoreBrokenPipes()
        let router = routes()
        let (server, rootPEM) = try httpServer(useTLS: useTLS, ipAddresses: ipAddresses, dnsNames: dnsNames)
        var logger = Logger(label: "threeds2.hostile")
        logger.logLevel = .critical
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "hostile"),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { portContinuation.finish() }
            // On the lab's own threads: answers while the tests of the process hold the cooperative pool.
            try await runOnLabThreads { try await group.run() }
        }
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw TestLabError(.startFailed, "the hostile server did not start")
        }
        return HostileServer(
            port: port, scheme: useTLS ? "https" : "http", rootPEM: rootPEM, serviceGroup: group, task: task)
    }

    /// The hostile routes: `ok`, a gzip bomb, an endless body, and an endless body announced with a huge length.
    private static func routes() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("ok") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok")))
        }
        router.get("gzip-bomb") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(bytes: gzipBomb)))
        }
        // 64 KB of spaces at a time until the client goes away (at most 32 MB a second, so a client that does not
        // bound its reads grows by that much each second of its deadline instead of filling the machine at once).
        router.get("endless") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: endlessSpaces())
        }
        // A length announced far over any bound, then the same endless body.
        router.get("announced") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json", .contentLength: "4000000000"],
                body: endlessSpaces())
        }
        return router
    }

    /// HTTPS with a fresh private root (returned as PEM), or plain HTTP.
    private static func httpServer(useTLS: Bool, ipAddresses: [String], dnsNames: [String]) throws
        -> (HTTPServerBuilder, rootPEM: String?)
    {
        guard useTLS else { return (.http1(), nil) }
        let root = try CertificateAuthority.makeRoot(commonName: "Hostile Root", key: .makeP256())
        let leaf = try CertificateAuthority.issue(
            commonName: "hostile", key: .makeP256(),
            role: .tlsServer(ipAddresses: ipAddresses, dnsNames: dnsNames), issuer: root)
        let certificate = try NIOSSLCertificate(bytes: try leaf.certificateDER, format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(leaf.privateKey.pemRepresentation.utf8), format: .pem)
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        return (try .tls(.http1(), tlsConfiguration: tls), try root.certificatePEM)
    }

    /// Stops the server.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        task.cancel()
        _ = await task.result
    }
}

/// A gzip member of fixed-Huffman deflate: one literal zero, then `matches` copies of length 258 at distance 1
/// (13 bits each, about 159 : 1), with the CRC-32 of the zeros computed in GF(2) rather than byte by byte.
enum GzipBomb {
    static func make(matches: Int) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var bits: UInt64 = 0
        var count = 0
        func put(_ value: UInt64, _ width: Int) {
            bits |= value << UInt64(count)
            count += width
            while count >= 8 {
                out.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                count -= 8
            }
        }
        /// Huffman codes go most significant bit first.
        func code(_ value: UInt64, _ width: Int) {
            var reversed: UInt64 = 0
            for bit in 0..<width where value & (1 << UInt64(bit)) != 0 { reversed |= 1 << UInt64(width - 1 - bit) }
            put(reversed, width)
        }
        func match() {
            code(0b1100_0101, 8)  // length 258 (symbol 285)
            code(0, 5)  // distance 1
        }
        put(1, 1)  // BFINAL
        put(1, 2)  // BTYPE 01, fixed Huffman
        code(0x30, 8)  // literal 0
        // Eight matches are 104 bits, 13 whole bytes: from the second group of eight on, every group leaves the bit
        // writer as it found it and writes the same 13 bytes, so they are copied rather than encoded again (the bomb
        // is made in milliseconds even in a debug build).
        let groups = matches / 8
        if groups >= 2 {
            for _ in 0..<8 { match() }
            let before = out.count
            for _ in 0..<8 { match() }
            let pattern = Array(out[before...])
            out.reserveCapacity(out.count + pattern.count * (groups - 2) + 16)
            for _ in 2..<groups { out.append(contentsOf: pattern) }
            for _ in 0..<(matches - groups * 8) { match() }
        } else {
            for _ in 0..<matches { match() }
        }
        code(0, 7)  // end of block
        if count > 0 { put(0, 8 - count) }
        let size = 1 + 258 * matches
        let crc = crc32OfZeros(size)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        let isize = UInt32(truncatingIfNeeded: size)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: isize >> UInt32(shift))) }
        return out
    }

    /// a · b modulo the CRC-32 polynomial, bit-reflected (zlib's `multmodp`).
    static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var mask: UInt32 = 1 << 31
        var product: UInt32 = 0
        var b = b
        while mask != 0 {
            if a & mask != 0 { product ^= b }
            mask >>= 1
            b = b & 1 != 0 ? (b >> 1) ^ 0xEDB8_8320 : b >> 1
        }
        return product
    }

    /// The CRC-32 of `length` zero bytes: the initial register times x^(8·length), inverted.
    static func crc32OfZeros(_ length: Int) -> UInt32 {
        var power: UInt32 = 1 << 23  // x^8, reflected
        var result: UInt32 = 1 << 31  // x^0
        var n = length
        while n > 0 {
            if n & 1 != 0 { result = multiply(result, power) }
            power = multiply(power, power)
            n >>= 1
        }
        return multiply(result, 0xFFFF_FFFF) ^ 0xFFFF_FFFF
    }
}

/// 64 KB of spaces at a time until the client goes away, for the endless and the falsely announced bodies.
private func endlessSpaces() -> ResponseBody {
    ResponseBody { writer in
        let chunk = ByteBuffer(bytes: [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024))
        while !Task.isCancelled {
            try await writer.write(chunk)
            try await Task.sleep(for: .milliseconds(2))
        }
        try await writer.finish(nil)
    }
}
