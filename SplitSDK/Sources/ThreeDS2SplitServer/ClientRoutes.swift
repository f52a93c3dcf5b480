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
    let routing: SessionRouting
    let ownOrigin: @Sendable () -> String

    /// An HTML screen's page by its one-time ID, once, with the page's own policy; 404 for any other ID. The page's
    /// address names its session, so that the call reaches the instance that holds the page.
    func page(_ request: Request, session id: String?, page: String?) async -> Response {
        let missing = Response(status: .notFound, headers: [.init("X-Content-Type-Options")!: "nosniff"])
        guard let id, id.count <= 64, let page, page.count <= 64 else { return missing }
        let session: SplitSession
        do {
            session = try await routing.session(for: request, body: ByteBuffer()) {
                (forwarded) async throws(SplitHTTPError) -> SessionStore.Route in
                try await store.route(id: id, forwarded: forwarded)
            }
        } catch let error as ForwardedAnswer {
            return error.response
        } catch let error as SplitHTTPError {
            return error.status == .notFound ? missing : HTTPIO.error(error)
        } catch {
            return missing
        }
        guard let document = await store.page(page, session: session) else { return missing }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .init("X-Content-Type-Options")!: "nosniff",
                .init("Content-Security-Policy")!:
                    FormJSON.htmlPagePolicy(merchantOrigin: context.configuration.merchantOrigin),
                .cacheControl: "no-store", .init("Referrer-Policy")!: "no-referrer",
            ], body: .init(byteBuffer: ByteBuffer(bytes: Array(document.utf8))))
    }

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
        router.get("client/v1/pages/:session/:id") { request, route -> Response in
            await page(request, session: route.parameters.get("session"), page: route.parameters.get("id"))
        }
        router.post("client/v1/start") { request, _ in
            await call(request, limit: Self.smallBody, token: .merchant) { body, session, token in
                try await start(body, session: session, merchantToken: token)
            }
        }
        router.post("client/v1/next") { request, _ in
            await call(request, limit: Self.smallBody) { _, session, _ in try await step(after: .next, in: session) }
        }
        // While a screen is up: whether the challenge ended on the server (its overall timer), as a long-poll that
        // hands out no step.
        router.post("client/v1/status") { request, _ in
            await call(request, limit: Self.smallBody) { _, session, _ in
                if await session.state != .finished {
                    await session.link.awaitUndelivered(within: ServerContext.longPoll, sleep: context.clock.sleep)
                }
                return HTTPIO.json(["ended": .bool(await session.state == .finished)])
            }
        }
        router.post("client/v1/answer") { request, _ in
            await call(request, limit: Self.smallBody) { body, session, _ in
                guard let action = ClientAction(rawValue: body["action"]?.stringValue ?? "") else {
                    throw SplitHTTPError.badRequest("unknown action")
                }
                return try await step(
                    after: .answer(screen: try Self.number(body, "screen"), action: action), in: session)
            }
        }
        router.post("client/v1/creq") { request, _ in
            await call(request, limit: Self.creqBody) { body, session, _ in
                guard let jwe = body["jwe"]?.stringValue, !jwe.isEmpty else {
                    throw SplitHTTPError.badRequest("jwe is missing")
                }
                let input = ClientLink.Input.creq(exchange: try Self.number(body, "exchange"), jwe: Array(jwe.utf8))
                return try await step(after: input, in: session)
            }
        }
        router.post("client/v1/cres") { request, _ in
            await call(request, limit: Self.cresBody) { body, session, _ in
                let input = ClientLink.Input.cres(exchange: try Self.number(body, "exchange"), try Self.opening(body))
                return try await step(after: input, in: session)
            }
        }
    }

    /// One call of the client interface: the origin checked, the body read (at most `limit` bytes), the session the
    /// token opens found, and the call answered here when this instance runs the session, else by the instance that
    /// does (forwarded; taken over when that instance cannot be reached). `token` is the kind the call needs.
    private func call(
        _ request: Request, limit: Int, token kind: SessionStore.TokenKind = .client,
        _ handler: @escaping (JSONObject, SplitSession, String) async throws -> Response
    ) async -> Response {
        await answer(request) { () async throws -> Response in
            let bytes = try await HTTPIO.bytes(request, limit: limit)
            let token = try HTTPIO.bearer(request)
            var found = SessionStore.TokenKind.client
            let session = try await routing.session(for: request, body: bytes) {
                (forwarded) async throws(SplitHTTPError) -> SessionStore.Route in
                let (route, tokenKind) = try await store.route(token: token, forwarded: forwarded)
                found = tokenKind
                return route
            }
            guard found == kind else {
                throw kind == .client
                    ? SplitHTTPError.unauthorized("a client token is required")
                    : SplitHTTPError.conflict("the session has started already")
            }
            if kind == .client, await session.state == .finished, await !session.link.hasUndelivered {
                throw SplitHTTPError.gone("the session has ended")
            }
            return try await handler(try HTTPIO.object(bytes, limit: limit), session, token)
        }
    }

    private func answer(_ request: Request, _ body: () async throws -> Response) async -> Response {
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
        } catch let error as ForwardedAnswer {
            // The owner's answer, with its own headers.
            return error.response
        } catch let error as SplitHTTPError {
            return HTTPIO.error(error, headers: cors)
        } catch {
            return HTTPIO.error(.internalError("the call failed"), headers: cors)
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
    private func start(_ body: JSONObject, session: SplitSession, merchantToken token: String)
        async throws(SplitHTTPError) -> Response
    {
        let key: P256PublicJWK
        do {
            guard case .object(let jwk)? = body["sdkEphemPubKey"] else { throw JOSEError(.invalidKey, "missing") }
            key = try P256PublicJWK(jsonObject: jwk)
        } catch {
            throw .refused("sdkEphemPubKey is not a P-256 public JWK")
        }
        try await session.start(clientKey: key, deviceData: try Self.deviceData(body), context: context)
        let clientToken = Secrets.token(prefix: "sct_")
        try await store.exchange(merchantToken: token, for: clientToken, session: session.id)
        context.logger.info("session started", metadata: ["session": "\(session.id)"])
        let presentation = session.presentation
        return HTTPIO.json([
            "clientToken": .string(clientToken),
            "texts": .object(FormJSON.clientTexts(presentation.strings, style: presentation.style)),
            "step": .object(["step": .string("wait")]),
        ])
    }

    private func step(after input: ClientLink.Input, in session: SplitSession) async throws(SplitHTTPError)
        -> Response
    {
        try await session.link.take(input)
        let step = await session.link.nextStep(within: ServerContext.longPoll, sleep: context.clock.sleep)
        return HTTPIO.json(step)
    }
}
