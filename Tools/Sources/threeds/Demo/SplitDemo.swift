import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SplitServer
import ThreeDS2TestLab

/// `threeds demo --split`: the Split-SDK in a browser. Beside the TestLab it runs the Split-SDK Server (its web
/// client served from it) and a small shop on another origin whose page opens the challenge frame; a person opens the
/// shop's address in a browser and pays with the text-code card. The shop's backend plays the merchant: it creates the
/// session with its API key (server to server, never in the page), sends the Split-SDK's AReq to the lab's 3DS
/// Server once the client has started, and hands the ARes to the Split-SDK Server. Everything listens on 127.0.0.1
/// over plain HTTP (a browser treats loopback as a secure context, which WebCrypto needs); nothing is reachable from
/// another machine.
struct SplitDemo {
    let lab: TestLab
    let card: String
    /// Ends after the first payment, with its outcome (for scripts and the tests).
    let once: Bool

    /// One payment's end, as the shop's backend saw it.
    struct Ending: Sendable {
        let line: String
        let succeeded: Bool
    }

    /// Runs until interrupted (or, with `once`, until the first payment ends); prints the shop's address first.
    func run() async throws -> Int32 {
        let apiKey = (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let shop = ShopState(card: card, apiKey: apiKey, lab: lab)
        let shopListener = try await DemoListener.start(router: shop.router(), name: "ThreeDS2 demo shop")
        let origin = shopListener.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        shop.origin = origin
        var configuration = try lab.splitServerConfiguration(apiKey: apiKey, merchantOrigin: origin)
        configuration.webClientFolder = try Self.webClientFolder()
        configuration.allowsPlainHTTPLoopback = !lab.options.useTLS
        let transport = try lab.makeTransport()
        var logger = Logger(label: "threeds2.split")
        logger.logLevel = .warning
        let server = try SplitServer(
            configuration: configuration, transport: transport, clock: ContinuousClock(), logger: logger)
        let running = try await server.start()
        shop.serverURL = running.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        print(TerminalWidth.wrap("Split-SDK Server on \(running.baseURL) (its web client served from it)"))
        print(TerminalWidth.wrap("Open \(origin)/ in a browser and press Pay: the one-time code is 123456."))
        if !once { print(TerminalWidth.wrap("Ctrl-C stops.")) }
        // Output sent to a file or pipe is buffered: the address must reach it now, not when the demo ends.
        fflush(nil)
        let ending = await shop.firstEnding(waitingForever: !once)
        await running.stop()
        await shopListener.stop()
        try? await transport.shutdown()
        return ending.succeeded ? 0 : 1
    }

    /// The web client's folder: beside the binary (a copied tool), or in the source tree it was built from.
    static func webClientFolder() throws -> URL {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidates = [
            binary.appendingPathComponent("ThreeDS2SplitSDK_ThreeDS2SplitServer.resources/WebClient"),
            binary.appendingPathComponent("WebClient"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("SplitSDK/Sources/ThreeDS2SplitServer/WebClient"),
        ]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path + "/frame.html") })
        else {
            throw CLIError(
                "the Split-SDK web client's folder was found neither beside threeds nor in its source tree",
                exitStatus: 1)
        }
        return found
    }
}

/// The demo shop: its page, its script and its backend's two calls.
final class ShopState: Sendable {
    let card: String
    let apiKey: String
    let lab: TestLab
    private let state = NIOLockedValueBox<(serverURL: String, origin: String)>(("", ""))
    private let endings = AsyncStream<SplitDemo.Ending>.makeStream()

    init(card: String, apiKey: String, lab: TestLab) {
        self.card = card
        self.apiKey = apiKey
        self.lab = lab
    }

    /// The Split-SDK Server's origin (set once it listens; the shop listens first, for its origin).
    var serverURL: String {
        get { state.withLockedValue { $0.serverURL } }
        set { state.withLockedValue { $0.serverURL = newValue } }
    }

    /// The shop's own origin (set once it listens): the only one its backend answers.
    var origin: String {
        get { state.withLockedValue { $0.origin } }
        set { state.withLockedValue { $0.origin = newValue } }
    }

    /// Whether a call comes from the shop's page: its `Origin` and `Host` name the shop (another page open in the
    /// browser, or a name rebound to loopback, is refused).
    func fromShop(_ request: Request) -> Bool {
        let origin = self.origin
        return !origin.isEmpty && request.headers[.origin] == origin
            && "http://" + (request.head.authority ?? "") == origin
    }

    /// The first payment's end; never returns when `waitingForever` (the demo runs until interrupted).
    func firstEnding(waitingForever: Bool) async -> SplitDemo.Ending {
        var iterator = endings.stream.makeAsyncIterator()
        while let ending = await iterator.next() {
            print(ending.line)
            fflush(nil)
            if !waitingForever { return ending }
        }
        return SplitDemo.Ending(line: "The shop stopped.", succeeded: false)
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { _, _ in self.page() }
        router.get("shop.js") { _, _ in self.script() }
        router.post("shop/session") { request, _ in
            guard self.fromShop(request) else { return Self.refusal() }
            return await self.respond { try await self.createSession() }
        }
        router.post("shop/authenticate") { request, _ in
            guard self.fromShop(request) else { return Self.refusal() }
            let session = request.uri.queryParameters.get("session") ?? ""
            return await self.respond { try await self.authenticate(session: session) }
        }
        return router
    }

    private func page() -> Response {
        let server = serverURL
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>TestLab shop</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <script type="module" src="/shop.js"></script></head>
            <body><h1>TestLab shop</h1><p>Total: 19.99 EUR, card \(card)</p>
            <button id="pay" type="button">Pay</button><p id="status" role="status"></p>
            <div id="challenge"></div></body></html>
            """
        return Self.response(
            html, type: "text/html; charset=utf-8",
            policy: "default-src 'none'; script-src 'self' \(server); frame-src \(server); connect-src 'self'; "
                + "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
    }

    private func script() -> Response {
        let js = """
            import { openChallengeFrame } from '\(serverURL)/client/v1/merchant.js';
            const status = document.getElementById('status');
            // The frame's events, kept for anyone reading the page (the demo's browser test does).
            window.threedsEvents = [];
            const post = async (path) => {
              const answer = await fetch(path, { method: 'POST' });
              const body = await answer.json();
              if (!answer.ok) throw new Error(body.error || `HTTP ${answer.status}`);
              return body;
            };
            document.getElementById('pay').addEventListener('click', async () => {
              document.getElementById('pay').disabled = true;
              try {
                const session = await post('/shop/session');
                const challenge = openChallengeFrame({
                  container: document.getElementById('challenge'), clientURL: session.clientURL,
                  clientToken: session.clientToken,
                  onEvent: (event) => {
                    window.threedsEvents.push(event);
                    if (event.event === 'started') {
                      post(`/shop/authenticate?session=${encodeURIComponent(session.sessionID)}`)
                        .then((answer) => {
                          if (answer.transStatus !== 'C') {
                            status.textContent = `No challenge: transStatus ${answer.transStatus}`;
                            challenge.close();
                          }
                        })
                        .catch((error) => { status.textContent = error.message; });
                    }
                    if (event.event === 'finished') { status.textContent = 'Payment finished.'; challenge.close(); }
                    if (event.event === 'failed') status.textContent = `The challenge failed: ${event.reason ?? ''}`;
                  },
                });
              } catch (error) {
                status.textContent = error.message;
              }
            });
            """
        return Self.response(js, type: "text/javascript; charset=utf-8", policy: nil)
    }

    /// `POST /shop/session`: a session on the Split-SDK Server, for the page to open its frame.
    private func createSession() async throws -> JSONObject {
        let body: JSONObject = [
            "messageVersion": .string("2.3.1"), "directoryServerID": .string(TestLab.rsaDirectoryServerID.rawValue),
        ]
        let created = try await merchant("POST", "/merchant/v1/sessions", body, expecting: 201)
        var answer: JSONObject = [:]
        for name in ["sessionID", "clientToken", "clientURL"] { answer[name] = created[name] }
        return answer
    }

    /// `POST /shop/authenticate?session=…`: the Split-SDK's AReq to the lab's 3DS Server, the ARes to the Split-SDK
    /// Server; then the session is watched to its end.
    private func authenticate(session: String) async throws -> JSONObject {
        guard (1...64).contains(session.count),
            session.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else {
            throw CLIError("no session", exitStatus: 1)
        }
        var request = try await merchant(
            "GET", "/merchant/v1/sessions/\(session)/authentication-request-parameters", nil, expecting: 200)
        for (name, value) in Purchase(cardNumber: card, amount: "1999", currency: "978").fields.members {
            request[name] = value
        }
        let transport = try lab.makeTransport()
        defer { Task { try? await transport.shutdown() } }
        let response = try await transport.post(
            url: lab.baseURL.appendingPathComponent("3ds/authenticate"), body: request.serializedBytes,
            contentType: "application/json; charset=UTF-8", timeout: .seconds(60))
        guard case .object(let ares) = try JSONParser().parse(response.body) else {
            throw CLIError("the 3DS Server's answer is not a JSON object", exitStatus: 1)
        }
        let authentication = try ThreeDSServerClient.response(from: ares, messageVersion: .v2_3_1, requestorAppURL: nil)
        guard let challenge = authentication.challengeParameters else {
            // No challenge for this card (the demo's is the text-code card): the page closes the frame.
            end("No challenge: the ARes says transStatus \(authentication.transStatus)", succeeded: false)
            return ["transStatus": .string(authentication.transStatus.rawValue)]
        }
        let body: JSONObject = [
            "threeDSServerTransID": .string(challenge.threeDSServerTransactionID),
            "acsTransID": .string(challenge.acsTransactionID), "acsReferenceNumber": .string(challenge.acsRefNumber),
            "acsSignedContent": .string(challenge.acsSignedContent),
        ]
        _ = try await merchant("POST", "/merchant/v1/sessions/\(session)/challenge", body, expecting: 202)
        Task { await self.watch(session) }
        return ["transStatus": .string("C")]
    }

    /// Asks the Split-SDK Server for the session's state every half second until it has ended (at most 10 minutes).
    private func watch(_ session: String) async {
        for _ in 0..<1200 {
            if let status = try? await merchant("GET", "/merchant/v1/sessions/\(session)", nil, expecting: 200),
                status["state"]?.stringValue == "finished", let outcome = status["outcome"]?.objectValue
            {
                let kind = outcome["kind"]?.stringValue ?? "?"
                let transStatus = outcome["transStatus"]?.stringValue
                let line = "Split-SDK challenge \(kind)" + (transStatus.map { ": transStatus \($0)" } ?? "")
                end(line, succeeded: kind == "completed")
                return
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
        end("Split-SDK challenge: no end within 10 minutes", succeeded: false)
    }

    private func end(_ line: String, succeeded: Bool) {
        endings.continuation.yield(SplitDemo.Ending(line: ReportText.line(line), succeeded: succeeded))
    }

    /// A call of the Split-SDK Server's merchant interface, with the API key.
    private func merchant(_ method: String, _ path: String, _ body: JSONObject?, expecting: Int) async throws
        -> JSONObject
    {
        var request = HTTPClientRequest(url: serverURL + path)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body.serializedBytes))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let object = (try? JSONParser().parse(Array(buffer: bytes)))?.objectValue ?? [:]
        guard Int(response.status.code) == expecting else {
            throw CLIError(
                "the Split-SDK Server answered \(method) \(path) with HTTP \(response.status.code): "
                    + (object["error"]?.stringValue ?? ""), exitStatus: 1)
        }
        return object
    }

    private func respond(_ body: () async throws -> JSONObject) async -> Response {
        do {
            return Self.response(try await body().serialized, type: "application/json", policy: nil)
        } catch {
            let object: JSONObject = ["error": .string(ReportText.line("\(error)"))]
            let text = object.serialized
            var response = Self.response(text, type: "application/json", policy: nil)
            response.status = .badGateway
            return response
        }
    }

    private static func refusal() -> Response {
        var response = response(
            #"{"error":"only the shop's page may call the shop"}"#, type: "application/json", policy: nil)
        response.status = .forbidden
        return response
    }

    private static func response(_ text: String, type: String, policy: String?) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: "no-store"]
        if let policy, let name = HTTPFields.Element.Name("Content-Security-Policy") { headers[name] = policy }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The shop's listener: plain HTTP/1.1 on 127.0.0.1, a free port.
struct DemoListener {
    let baseURL: URL
    let task: Task<Void, any Error>

    static func start(router: Router<BasicRequestContext>, name: String) async throws -> DemoListener {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "threeds2.demo-shop")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: name),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await app.runService(gracefulShutdownSignals: [])
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            task.cancel()
            throw CLIError("the demo shop could not listen on 127.0.0.1", exitStatus: 1)
        }
        return DemoListener(baseURL: url, task: task)
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}
