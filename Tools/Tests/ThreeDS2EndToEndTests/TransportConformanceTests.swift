import Foundation
import Testing
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2TestLab

/// The transports the SDK ships, each against a lab it can reach: URLSession over plain HTTP on loopback (Linux
/// URLSession cannot take the lab's private TLS root), AsyncHTTPClient over HTTPS with the lab's root.
enum TransportUnderTest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    var testDescription: String { rawValue }

    func make() async throws -> (any ChallengeTransport, TestLab) {
        switch self {
        case .urlSession:
            return (URLSessionTransport(), try await LabPool.shared.lab(TestLabOptions(useTLS: false)))
        case .asyncHTTPClient:
            let lab = try await LabPool.shared.lab()
            return (try lab.makeTransport(), lab)
        }
    }
}

/// The error a request ends with, or `nil` when it got a response.
private func failure(of transport: any ChallengeTransport, _ request: TransportRequest) async -> TransportError? {
    do throws(TransportError) {
        _ = try await transport.send(request)
        return nil
    } catch {
        return error
    }
}

/// The deadline of a request that must be answered (or refused by a bound, or by a closed port): a backstop, not a
/// speed limit. The lab answers on threads of its own, at once; the bound only keeps a broken transport from hanging
/// the suite, and holds with both cores busy. The trickle test's 1 s is the deadline under test.
private let backstop = Duration.seconds(60)

@Suite("Transport conformance")
struct TransportConformanceTests {
    private func image(_ lab: TestLab, _ name: String, bound: Int = 1024) -> TransportRequest {
        TransportRequest(
            method: .get, url: lab.baseURL.appendingPathComponent("images/\(name)"), timeout: backstop,
            maxResponseBytes: bound)
    }

    @Test(
        "GET returns status, content type and body; a 404 is a response, not an error",
        arguments: TransportUnderTest.allCases)
    func get(_ kind: TransportUnderTest) async throws {
        let (transport, lab) = try await kind.make()
        let found = try await transport.send(image(lab, "issuer-high.png"))
        #expect(
            found.status == 200 && found.contentType == "image/png" && found.body.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        let missing = try await transport.send(image(lab, "missing.png"))
        #expect(missing.status == 404)
    }

    @Test(
        "POST carries the body and content type; the ACS answers an unknown transaction",
        arguments: TransportUnderTest.allCases)
    func post(_ kind: TransportUnderTest) async throws {
        let (transport, lab) = try await kind.make()
        let response = try await transport.post(
            url: lab.baseURL.appendingPathComponent("acs/challenge"), body: Array("not a jwe".utf8),
            contentType: "application/jose; charset=UTF-8", timeout: backstop)
        #expect((200..<500).contains(response.status) && !response.body.isEmpty)
    }

    @Test("a body over the bound is responseTooLarge", arguments: TransportUnderTest.allCases)
    func sizeBound(_ kind: TransportUnderTest) async throws {
        let (transport, lab) = try await kind.make()
        let error = await failure(of: transport, image(lab, "large.png", bound: 64 * 1024))
        #expect(error?.code == .responseTooLarge)
    }

    @Test(
        "the deadline covers the whole response: a server trickling its body is timedOut",
        arguments: TransportUnderTest.allCases)
    func trickle(_ kind: TransportUnderTest) async throws {
        let (transport, lab) = try await kind.make()
        let request = TransportRequest(
            method: .get, url: lab.baseURL.appendingPathComponent("test/trickle"), timeout: .seconds(1),
            maxResponseBytes: 1024)
        let error = await failure(of: transport, request)
        #expect(error?.code == .timedOut)
    }

    @Test("a refused connection is connectionFailed", arguments: TransportUnderTest.allCases)
    func refused(_ kind: TransportUnderTest) async throws {
        let (transport, _) = try await kind.make()
        let request = TransportRequest(
            method: .get, url: try #require(URL(string: "http://127.0.0.1:1/x")), timeout: backstop,
            maxResponseBytes: 1024)
        let error = await failure(of: transport, request)
        #expect(error?.code == .connectionFailed)
    }

    @Test("a task cancelled before sending ends without a response", arguments: TransportUnderTest.allCases)
    func cancelled(_ kind: TransportUnderTest) async throws {
        let (transport, lab) = try await kind.make()
        let request = image(lab, "issuer-high.png")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(request)
        }
        await #expect(throws: TransportError.self) { _ = try await task.value }
    }
}
