import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting

@testable import ThreeDS2NIOTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private let acs = URL(string: "https://acs.example/challenge?x=1")!

private func request(
    _ method: TransportRequest.Method = .post, url: URL = acs, body: [UInt8] = Array("jwe".utf8),
    maxResponseBytes: Int = 1000
) -> TransportRequest {
    TransportRequest(
        method: method, url: url, contentType: method == .post ? "application/jose; charset=UTF-8" : nil,
        body: method == .post ? body : [], timeout: .seconds(10), maxResponseBytes: maxResponseBytes)
}

@Suite("HTTPClientTransport's mappings, without I/O")
struct HTTPClientTransportMappingTests {
    @Test("a POST carries its URL, content type, identity encoding and body; a GET has no body or content type")
    func requests() throws {
        let post = HTTPClientTransport.convert(request())
        #expect(post.method == .POST && post.url == "https://acs.example/challenge?x=1")
        #expect(post.headers["Content-Type"] == ["application/jose; charset=UTF-8"])
        #expect(post.headers["Accept-Encoding"] == ["identity"])
        #expect(post.body != nil)
        let get = HTTPClientTransport.convert(request(.get, url: URL(string: "https://acs.example/logo.png")!))
        #expect(get.method == .GET && get.url == "https://acs.example/logo.png")
        #expect(get.headers["Content-Type"].isEmpty && get.body == nil)
        #expect(get.headers["Accept-Encoding"] == ["identity"])
    }

    @Test("every status is a response with its content type and body; the SDK judges the status itself")
    func statuses() {
        for status in [HTTPResponseStatus.ok, .badRequest, .notFound, .internalServerError, .serviceUnavailable] {
            let response = HTTPClientTransport.response(
                status: status, headers: ["Content-Type": "application/json"], body: ByteBuffer(string: "{}"))
            #expect(response.status == Int(status.code))
            #expect(response.contentType == "application/json" && response.body == Array("{}".utf8))
        }
        let bare = HTTPClientTransport.response(status: .noContent, headers: [:], body: ByteBuffer())
        #expect(bare.status == 204 && bare.contentType == nil && bare.body.isEmpty)
    }

    @Test("an announced length over the bound, an unreadable one, or a content encoding is refused before the body")
    func refusals() {
        let bounded = request(maxResponseBytes: 1000)
        #expect(HTTPClientTransport.refusal(of: ["Content-Length": "1000"], request: bounded) == nil)
        #expect(HTTPClientTransport.refusal(of: ["Content-Length": " 12 "], request: bounded) == nil)
        #expect(HTTPClientTransport.refusal(of: ["Content-Encoding": "identity"], request: bounded) == nil)
        #expect(HTTPClientTransport.refusal(of: [:], request: bounded) == nil)
        for headers: HTTPHeaders in [
            ["Content-Length": "1001"], ["Content-Length": "many"], ["Content-Length": "-"],
            ["Content-Encoding": "gzip"], ["Content-Encoding": "br"],
        ] {
            #expect(HTTPClientTransport.refusal(of: headers, request: bounded)?.code == .responseTooLarge, "\(headers)")
        }
    }

    @Test(
        "every error is classified, and the adapter's own error is kept",
        arguments: [
            (NIOTooManyBytesError(maxBytes: 10) as any Error, TransportError.Code.responseTooLarge),
            (CancellationError(), .cancelled),
            (NIOSSLError.uncleanShutdown, .tlsFailure),
            (BoringSSLError.unknownError([]), .tlsFailure),
            (ServiceIdentityMismatch(host: "acs.example"), .tlsFailure),
            (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .connectionFailed),
            (HTTPClientError.deadlineExceeded, .timedOut),
            (HTTPClientError.readTimeout, .timedOut),
            (HTTPClientError.connectTimeout, .timedOut),
            (HTTPClientError.getConnectionFromPoolTimeout, .timedOut),
            (HTTPClientError.cancelled, .cancelled),
            (HTTPClientError.invalidURL, .invalidRequest),
            (HTTPClientError.emptyHost, .invalidRequest),
            (HTTPClientError.emptyScheme, .invalidRequest),
            (HTTPClientError.remoteConnectionClosed, .connectionFailed),
            (HTTPClientError.bodyLengthMismatch, .other),
            (ChannelError.connectTimeout(.seconds(1)), .timedOut),
            (ChannelError.ioOnClosedChannel, .connectionFailed),
            (URLError(.unknown), .other),
        ])
    func classification(error: any Error, code: TransportError.Code) {
        let classified = HTTPClientTransport.classify(error, request: request())
        #expect(classified.code == code, "\(error)")
        #expect(classified.message.contains("acs.example"), "\(classified.message)")
        #expect(classified.underlying.map { "\($0)" } == "\(error)")
    }

    @Test("a URL without a host is an invalid request, and a shut-down transport cancels, before any I/O")
    func refusedBeforeSending() async throws {
        let transport = try HTTPClientTransport()
        do {
            _ = try await transport.send(request(url: URL(string: "file:///etc/passwd")!))
            Issue.record("a URL without a host was sent")
        } catch {
            #expect(error.code == .invalidRequest)
        }
        try await transport.shutdown()
        do {
            _ = try await transport.send(request())
            Issue.record("a shut-down transport sent a request")
        } catch {
            #expect(error.code == .cancelled)
        }
    }

    @Test("a trust root that is not PEM is an invalid request at creation")
    func badTrustRoot() {
        do {
            _ = try HTTPClientTransport(additionalTrustRootsPEM: ["-----BEGIN CERTIFICATE-----\nnot base64\n"])
            Issue.record("a broken trust root was accepted")
        } catch {
            #expect(error.code == .invalidRequest)
        }
    }
}

@Suite("HTTPClientTransport cancelled mid-body", .timeLimit(.minutes(5)))
struct HTTPClientTransportCancellationTests {
    @Test("headers and part of the body arrive, then nothing: cancelling the task ends the request at once")
    func cancelledMidBody() async throws {
        let server = try StallingServer()
        defer { server.stop() }
        let transport = try HTTPClientTransport()
        let (result, afterCancel) = await server.cancelMidBody(through: transport)
        // Against a 120 s deadline: the cancel, not the deadline, ended it (the code says so; the clock agrees,
        // whatever the machine's load).
        #expect(afterCancel < .seconds(120))
        #expect(throws: TransportError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.code == .cancelled, "\(error)") }
        try await transport.shutdown()
    }
}
