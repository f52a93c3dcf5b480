public import Foundation
@_spi(ThreeDS2Tools) public import ThreeDS2SDK

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain-HTTP server on 127.0.0.1 that answers every request with its headers and part of a body, then sends
/// nothing more and keeps the connection open: for testing that a transport gives up promptly when its task is
/// cancelled mid-body. POSIX sockets on a thread of its own; no server framework.
public final class StallingServer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// Fires once a response's headers and partial body have been written.
    public let stalled = AsyncSignal()
    private let listener: Int32
    private let connections = Locked<[Int32]>([])

    /// Starts the server.
    ///
    /// - Parameters:
    ///   - announcedLength: The `Content-Length` announced.
    ///   - partialBody: The part of the body sent before the stall.
    /// - Throws: An error when the socket cannot be bound.
    public init(announcedLength: Int = 4096, partialBody: String = "the first part of the body") throws {
        #if os(Linux)
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(announcedLength)\r\n\r\n" + partialBody
        let thread = Thread { [listener, connections, stalled] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                connections.withLock { $0.append(connection) }
                // Read the request's head (the test requests are small), then answer in part and stall.
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !received.containsHeadEnd {
                    let count = read(connection, &buffer, buffer.count)
                    guard count > 0 else { break }
                    received += buffer[0..<count]
                }
                _ = Array(head.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                stalled.fire()
            }
        }
        thread.start()
    }

    /// The server's URL for a path.
    ///
    /// - Parameter path: The path, starting with `/`.
    /// - Returns: The URL.
    public func url(_ path: String = "/stall") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops listening and closes every connection.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.withLock({ $0 }) { close(connection) }
    }
}

extension StallingServer {
    /// Sends a `GET` through `transport` with a deadline far away (120 s), waits until the server has sent the
    /// headers and part of the body, cancels the sending task, and returns how the send ended and how long after the
    /// cancel.
    ///
    /// - Parameter transport: The transport under test.
    /// - Returns: The send's result and the time from the cancel to its end.
    public func cancelMidBody(through transport: any ChallengeTransport) async
        -> (result: Result<TransportResponse, TransportError>, afterCancel: Duration)
    {
        let stalled = TransportRequest(method: .get, url: url(), timeout: .seconds(120), maxResponseBytes: 1 << 20)
        let task = Task { () -> Result<TransportResponse, TransportError> in
            do throws(TransportError) {
                return .success(try await transport.send(stalled))
            } catch {
                return .failure(error)
            }
        }
        await self.stalled.wait()
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.value
        return (result, ContinuousClock.now - cancelled)
    }
}

extension [UInt8] {
    fileprivate var containsHeadEnd: Bool {
        let end: [UInt8] = [13, 10, 13, 10]
        return count >= 4 && indices.dropLast(3).contains { self[$0..<$0 + 4].elementsEqual(end) }
    }
}
