import Foundation
import Hummingbird
import Logging
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

/// The merchant interface (`/merchant/v1/*`, server to server, the merchant's API key).
struct MerchantRoutes: Sendable {
    let context: ServerContext
    let store: SessionStore
    let routing: SessionRouting
    let baseURL: @Sendable () -> URL

    /// The bound of every merchant body.
    static let bodyLimit = 16 * 1024

    func add(to router: Router<BasicRequestContext>) {
        router.post("merchant/v1/sessions") { request, _ in
            await answer { () async throws -> Response in try await create(request) }
        }
        router.get("merchant/v1/sessions/:id/authentication-request-parameters") { request, routing in
            await call(request, id: routing.parameters.get("id")) { _, session in
                HTTPIO.json(try await session.parameters())
            }
        }
        router.post("merchant/v1/sessions/:id/challenge") { request, routing in
            await call(request, id: routing.parameters.get("id")) { body, session in
                try await session.challenge(try Self.challengeParameters(body), context: context)
                return HTTPIO.json([:], status: .accepted)
            }
        }
        router.get("merchant/v1/sessions/:id") { request, routing in
            await call(request, id: routing.parameters.get("id")) { _, session in
                HTTPIO.json(await session.status())
            }
        }
    }

    private func answer(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as ForwardedAnswer {
            return error.response
        } catch let error as SplitHTTPError {
            return HTTPIO.error(error)
        } catch {
            return HTTPIO.error(.internalError("the call failed"))
        }
    }

    /// One call about a session: the API key checked, the body read, and the call answered here when this instance
    /// runs the session, else by the instance that does (forwarded; taken over when it cannot be reached).
    private func call(
        _ request: Request, id: String?,
        _ handler: @escaping (JSONObject, SplitSession) async throws -> Response
    ) async -> Response {
        await answer { () async throws -> Response in
            try checkKey(request)
            let bytes = try await HTTPIO.bytes(request, limit: Self.bodyLimit)
            guard let id, id.count <= 64 else { throw SplitHTTPError.notFound("no such session") }
            let session = try await routing.session(for: request, body: bytes) {
                (forwarded) async throws(SplitHTTPError) -> SessionStore.Route in
                try await store.route(id: id, forwarded: forwarded)
            }
            let body = bytes.readableBytes == 0 ? [:] : try HTTPIO.object(bytes, limit: Self.bodyLimit)
            return try await handler(body, session)
        }
    }

    private func checkKey(_ request: Request) throws(SplitHTTPError) {
        let key = try HTTPIO.bearer(request)
        guard Secrets.equal(key, context.configuration.merchantAPIKey) else { throw .unauthorized("wrong API key") }
    }

    /// `POST /merchant/v1/sessions`.
    private func create(_ request: Request) async throws(SplitHTTPError) -> Response {
        try checkKey(request)
        let body = try await HTTPIO.object(request, limit: Self.bodyLimit)
        let dsID = body["directoryServerID"]?.stringValue ?? ""
        guard let served = context.directoryServers[dsID] else {
            throw .refused("directoryServerID names no directory server this server serves")
        }
        guard let version = MessageVersion(body["messageVersion"]?.stringValue ?? ""), version == .v2_3_1
        else { throw .refused("messageVersion must be 2.3.1 (the split fields exist in 2.3.1 only)") }
        let presentation = try Self.presentation(body)
        guard let host = ClientHost(rawValue: body["host"]?.stringValue ?? ClientHost.browser.rawValue) else {
            throw .refused("host must be browser or shell")
        }
        var presentationRequest: JSONObject = [:]
        for name in ["locale", "uiCustomization"] { presentationRequest[name] = body[name] }
        let id = UUID().uuidString.lowercased()
        let session = SplitSession(
            id: id, served: served, messageVersion: version, presentation: presentation,
            presentationRequest: presentationRequest, requestorAppURL: body["threeDSRequestorAppURL"]?.stringValue,
            host: host, write: store.writer(for: id))
        let token = Secrets.token(prefix: "mct_")
        guard try await store.add(session, merchantToken: token) else {
            throw SplitHTTPError(.serviceUnavailable, "full", "the server holds as many sessions as it may")
        }
        context.logger.info("session created", metadata: ["session": "\(session.id)"])
        let frame = baseURL().appendingPathComponent("client/v1/frame.html")
        return HTTPIO.json(
            [
                "sessionID": .string(session.id), "clientToken": .string(token),
                "clientURL": .string(frame.absoluteString),
            ], status: .created)
    }

    /// The session's texts (its locale) and look (the UI customization JSON), as the SDK reads them.
    static func presentation(_ body: JSONObject) throws(SplitHTTPError) -> PresentationSettings {
        let locale = Locale(identifier: String((body["locale"]?.stringValue ?? "en").prefix(35)))
        var customizations: [UiCustomizationType: UiCustomization] = [:]
        if let customization = body["uiCustomization"] {
            do {
                customizations = try UiCustomization.appearances(fromJSON: customization.serializedBytes)
            } catch {
                throw .refused("uiCustomization: \(error.message)")
            }
        }
        return PresentationSettings(uiCustomizations: customizations, strings: SDKStrings(locale: locale))
    }

    /// The ARes's challenge parameters from the body.
    /// Challenge parameters in the names the merchant sends them with (what ``challengeParameters(_:)`` reads).
    static func json(_ parameters: ChallengeParameters) -> JSONObject {
        var object: JSONObject = [
            "threeDSServerTransID": .string(parameters.threeDSServerTransactionID),
            "acsTransID": .string(parameters.acsTransactionID), "acsReferenceNumber": .string(parameters.acsRefNumber),
            "acsSignedContent": .string(parameters.acsSignedContent),
        ]
        if let url = parameters.threeDSRequestorAppURL { object["threeDSRequestorAppURL"] = .string(url) }
        return object
    }

    static func challengeParameters(_ body: JSONObject) throws(SplitHTTPError) -> ChallengeParameters {
        func field(_ name: String) throws(SplitHTTPError) -> String {
            guard let value = body[name]?.stringValue, !value.isEmpty else { throw .badRequest("\(name) is missing") }
            return value
        }
        return ChallengeParameters(
            threeDSServerTransactionID: try field("threeDSServerTransID"), acsTransactionID: try field("acsTransID"),
            acsRefNumber: try field("acsReferenceNumber"), acsSignedContent: try field("acsSignedContent"),
            threeDSRequestorAppURL: body["threeDSRequestorAppURL"]?.stringValue)
    }
}
