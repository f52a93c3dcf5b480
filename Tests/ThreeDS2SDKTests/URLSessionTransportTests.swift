import Foundation
import Testing
import ThreeDS2SDKTesting

@testable import ThreeDS2SDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let acs = URL(string: "https://acs.example/challenge?x=1")!

@Suite("URLSessionTransport's mappings, without I/O")
struct URLSessionTransportMappingTests {
    @Test("a POST carries its method, URL, content type and body, never cached; a GET has neither body nor type")
    func requests() {
        let post = URLSessionTransport.convert(
            TransportRequest(
                method: .post, url: acs, contentType: "application/jose; charset=UTF-8", body: Array("jwe".utf8),
                timeout: .seconds(10), maxResponseBytes: 1000))
        #expect(post.httpMethod == "POST" && post.url == acs)
        #expect(post.value(forHTTPHeaderField: "Content-Type") == "application/jose; charset=UTF-8")
        #expect(post.httpBody == Data("jwe".utf8))
        #expect(post.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(post.timeoutInterval == 11)
        let get = URLSessionTransport.convert(
            TransportRequest(
                method: .get, url: URL(string: "https://acs.example/logo.png")!, timeout: .milliseconds(200),
                maxResponseBytes: 1000))
        #expect(get.httpMethod == "GET" && get.httpBody == nil)
        #expect(get.value(forHTTPHeaderField: "Content-Type") == nil)
        // URLRequest's idle timer is a backstop past the request's own deadline, which covers the whole response.
        #expect(get.timeoutInterval == 2)
    }

    @Test("the idle timer is padded past the deadline: 9.998 s remaining gives at least 11 s (Linux truncates)")
    func backstopPadded() {
        let request = URLSessionTransport.convert(
            TransportRequest(method: .post, url: acs, timeout: .milliseconds(9_998), maxResponseBytes: 1000))
        #expect(request.timeoutInterval >= 11)
        #expect(Int(request.timeoutInterval) >= 11, "still past the deadline once truncated to whole seconds")
    }

    @Test("every HTTP status is a response with its content type and body; a non-HTTP response is a failure")
    func statuses() throws {
        for status in [200, 204, 400, 404, 500, 503] {
            let http = try #require(
                HTTPURLResponse(
                    url: acs, statusCode: status, httpVersion: "HTTP/1.1",
                    headerFields: ["Content-Type": "application/json"]))
            let response = try URLSessionTransport.response(http, body: [1, 2], target: "POST x").get()
            #expect(response.status == status && response.contentType == "application/json" && response.body == [1, 2])
        }
        let plain = URLResponse(url: acs, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        guard case .failure(let error) = URLSessionTransport.response(plain, body: [], target: "POST x") else {
            Issue.record("a non-HTTP response was accepted")
            return
        }
        #expect(error.code == .other && error.message.contains("POST x"))
    }

    @Test(
        "every error is classified, and the URLError kept",
        arguments: [
            (URLError.Code.timedOut, TransportError.Code.timedOut),
            (.cancelled, .cancelled),
            (.cannotConnectToHost, .connectionFailed),
            (.cannotFindHost, .connectionFailed),
            (.networkConnectionLost, .connectionFailed),
            (.notConnectedToInternet, .connectionFailed),
            (.dnsLookupFailed, .connectionFailed),
            (.secureConnectionFailed, .tlsFailure),
            (.serverCertificateUntrusted, .tlsFailure),
            (.serverCertificateHasBadDate, .tlsFailure),
            (.serverCertificateNotYetValid, .tlsFailure),
            (.serverCertificateHasUnknownRoot, .tlsFailure),
            (.clientCertificateRejected, .tlsFailure),
            (.badURL, .invalidRequest),
            (.unsupportedURL, .invalidRequest),
            (.dataLengthExceedsMaximum, .responseTooLarge),
            (.badServerResponse, .other),
        ])
    func classification(urlCode: URLError.Code, code: TransportError.Code) {
        let classified = URLSessionTransport.classify(URLError(urlCode), target: "POST https://acs.example")
        #expect(classified.code == code)
        #expect(classified.message.contains("POST https://acs.example") && classified.message.contains("URLError"))
        #expect((classified.underlying as? URLError)?.code == urlCode)
    }

    @Test("a task's cancellation is cancelled; any other error is other, kept")
    func otherErrors() {
        #expect(URLSessionTransport.classify(CancellationError(), target: "GET x").code == .cancelled)
        let other = URLSessionTransport.classify(POSIXError(.EPERM), target: "GET x")
        #expect(other.code == .other && (other.underlying as? POSIXError)?.code == .EPERM)
    }
}

@Suite("URLSessionTransport cancelled mid-body", .timeLimit(.minutes(5)))
struct URLSessionTransportCancellationTests {
    @Test("headers and part of the body arrive, then nothing: cancelling the task ends the request at once")
    func cancelledMidBody() async throws {
        let server = try StallingServer()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let (result, afterCancel) = await server.cancelMidBody(through: transport)
        // Against a 120 s deadline: the cancel, not the deadline, ended it (the code says so; the clock agrees,
        // whatever the machine's load).
        #expect(afterCancel < .seconds(120))
        #expect(throws: TransportError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.code == .cancelled, "\(error)") }
    }
}
