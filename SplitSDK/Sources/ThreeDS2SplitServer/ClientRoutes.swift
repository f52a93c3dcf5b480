import Foundation
import Hummingbird
import Logging
import NIOCore
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

/// The client interface (`/client/v1/*`): the frame's calls, each answered with the next step; the token only in
/// the `Authorization` header; cross-origin calls only from the merchant's origin.
struct ClientRoutes: Sendable {
    let context: ServerContext
    let store: SessionStore
    let ownOrigin: @Sendable () -> String

    /// An HTML screen's page by its one-time ID, once, with the page's own policy; 404 for any other ID.
    func page(_ id: String?) async -> Response {
        guard let id, id.count <= 64, let document = await store.page(id) else {
            return Response(status: .notFound, headers: [.init("X-Content-Type-Options")!: "nosniff"])
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .init("X-Content-Type-Options")!: "nosniff",
                .init("Content-Security-Policy")!:
                    FormJSON.htmlPagePolicy(merchantOrigin: context.configuration.merchantOrigin),
                .cacheControl: "no-store", .init("Referrer-Policy")!: "no-referrer",
            ], body: .init(byteBuffer: ByteBuffer(bytes: Array(document.utf8))))
    }

    /// The bound of the bodies of `start`, `next` and `answer`.
    static let smallBody = 16 * 1024
    /// The bound of a `creq` body (a JWE of a CReq).
    static let creqBody = 64 * 1024
    /// The bound of a `cres` body: the core's CRes bound, as JSON.
    static let cresBody = 640 * 1024

    func add(to router: Router<BasicRequestContext>) {
        for call in ["start", "next", "status", "answer", "creq", "cres"] {
            router.on("client/v1/\(call)", method: .options) { request, _ in preflight(request) }
        }
        // An HTML screen's page, at the one-time address its form names; the frame's sandboxed frame loads it.
        router.get("client/v1/pages/:id") { _, route -> Response in await page(route.parameters.get("id")) }
        router.post("client/v1/start") { request, _ in
            await answer(request) { () async throws(SplitHTTPError) -> Response in try await start(request) }
        }
        router.post("client/v1/next") { request, _ in
            await answer(request) { () async throws(SplitHTTPError) -> Response in
                let session = try await clientSession(request)
                _ = try await HTTPIO.object(request, limit: Self.smallBody)
                return try await step(after: .next, in: session)
            }
        }
        // While a screen is up: whether the challenge ended on the server (its overall timer), as a long-poll that
        // hands out no step.
        router.post("client/v1/status") { request, _ in
            await answer(request) { () async throws(SplitHTTPError) -> Response in
                let session = try await clientSession(request)
                _ = try await HTTPIO.object(request, limit: Self.smallBody)
                if await session.state != .finished {
                    await session.link.awaitUndelivered(within: ServerContext.longPoll, sleep: context.clock.sleep)
                }
                return HTTPIO.json(["ended": .bool(await session.state == .finished)])
            }
        }
        router.post("client/v1/answer") { request, _ in
            await answer(request) { () async throws(SplitHTTPError) -> Response in
                let session = try await clientSession(request)
                let body = try await HTTPIO.object(request, limit: Self.smallBody)
                let action = body["action"]?.stringValue ?? ""
                guard RemotePresenter.actions.contains(action) else { throw .badRequest("unknown action") }
                return try await step(
                    after: .answer(screen: try Self.number(body, "screen"), action: action), in: session)
            }
        }
        router.post("client/v1/creq") { request, _ in
            await answer(request) { () async throws(SplitHTTPError) -> Response in
                let session = try await clientSession(request)
                let body = try await HTTPIO.object(request, limit: Self.creqBody)
                guard let jwe = body["jwe"]?.stringValue, !jwe.isEmpty else { throw .badRequest("jwe is missing") }
                let input = ClientLink.Input.creq(exchange: try Self.number(body, "exchange"), jwe: Array(jwe.utf8))
                return try await step(after: input, in: session)
            }
        }
        router.post("client/v1/cres") { request, _ in
            await answer(request) { () async throws(SplitHTTPError) -> Response in
                let session = try await clientSession(request)
                let body = try await HTTPIO.object(request, limit: Self.cresBody)
                let input = ClientLink.Input.cres(exchange: try Self.number(body, "exchange"), try Self.opening(body))
                return try await step(after: input, in: session)
            }
        }
    }

    /// Runs a call: the origin checked first, errors as answers, the CORS headers for the merchant's origin.
    private func answer(_ request: Request, _ body: () async throws(SplitHTTPError) -> Response) async -> Response {
        let cors: HTTPFields
        do {
            cors = try corsHeaders(request)
        } catch {
            return HTTPIO.error(error)
        }
        do {
            var response = try await body()
            for field in cors { response.headers.append(field) }
            return response
        } catch {
            return HTTPIO.error(error, headers: cors)
        }
    }

    /// No `Origin` (not a browser) or the server's own: nothing to add; the merchant's: allowed; any other: 403.
    private func corsHeaders(_ request: Request) throws(SplitHTTPError) -> HTTPFields {
        guard let origin = request.headers[.origin], origin != ownOrigin() else { return [:] }
        guard origin == context.configuration.merchantOrigin else {
            throw SplitHTTPError(.forbidden, "origin", "this origin may not call the client interface")
        }
        return [.accessControlAllowOrigin: origin, .vary: "Origin"]
    }

    private func preflight(_ request: Request) -> Response {
        guard let origin = request.headers[.origin], origin == context.configuration.merchantOrigin else {
            return HTTPIO.error(SplitHTTPError(.forbidden, "origin", "this origin may not call the client interface"))
        }
        return Response(
            status: .noContent,
            headers: [
                .accessControlAllowOrigin: origin, .vary: "Origin", .accessControlAllowMethods: "POST",
                .accessControlAllowHeaders: "Authorization, Content-Type", .accessControlMaxAge: "600",
            ])
    }

    /// `start`: the merchant's one-time token for a client token, the client's key and device data.
    private func start(_ request: Request) async throws(SplitHTTPError) -> Response {
        let token = try HTTPIO.bearer(request)
        let (session, kind) = try await store.session(token: token)
        guard kind == .merchant else { throw .conflict("the session has started already") }
        let body = try await HTTPIO.object(request, limit: Self.smallBody)
        let key: P256PublicJWK
        do {
            guard case .object(let jwk)? = body["sdkEphemPubKey"] else { throw JOSEError(.invalidKey, "missing") }
            key = try P256PublicJWK(jsonObject: jwk)
        } catch {
            throw .refused("sdkEphemPubKey is not a P-256 public JWK")
        }
        try await session.start(clientKey: key, deviceData: try Self.deviceData(body), context: context)
        let clientToken = Secrets.token(prefix: "sct_")
        await store.exchange(merchantToken: token, for: clientToken, session: session.id)
        context.logger.info("session started", metadata: ["session": "\(session.id)"])
        let presentation = session.presentation
        return HTTPIO.json([
            "clientToken": .string(clientToken),
            "texts": .object(FormJSON.clientTexts(presentation.strings, style: presentation.style)),
            "step": .object(["step": .string("wait")]),
        ])
    }

    /// The session of a client token; 410 once it has ended and its `finished` step was handed out.
    private func clientSession(_ request: Request) async throws(SplitHTTPError) -> SplitSession {
        let (session, kind) = try await store.session(token: try HTTPIO.bearer(request))
        guard kind == .client else { throw .unauthorized("a client token is required") }
        if await session.state == .finished, await !session.link.hasUndelivered {
            throw .gone("the session has ended")
        }
        return session
    }

    /// Hands the input over, then answers the next step (at most the long-poll's wait).
    private func step(after input: ClientLink.Input, in session: SplitSession) async throws(SplitHTTPError)
        -> Response
    {
        try await session.link.take(input)
        let step = await session.link.nextStep(within: ServerContext.longPoll, sleep: context.clock.sleep)
        return HTTPIO.json(step)
    }
}
