import Hummingbird
import NIOCore

// The routes of each role the lab plays, added to one router before the lab exists (the box reaches it later).
extension TestLab {
    /// The 3DS Server: `POST /3ds/authenticate` takes the app's AReq parameters and answers in ARes field names.
    static func addThreeDSServerRoutes(to router: Router<BasicRequestContext>, lab box: ACSBox) {
        router.post("3ds/authenticate") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 256 * 1024)
            guard let lab = box.lab else { return Response(status: .serviceUnavailable) }
            return await lab.authenticate(Array(buffer: body))
        }
    }

    /// The ACS: `POST /acs/challenge` takes CReqs (and the SDK's Erros) and answers with CRes messages.
    static func addACSRoutes(to router: Router<BasicRequestContext>, lab box: ACSBox) {
        router.post("acs/challenge") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 256 * 1024)
            guard let lab = box.lab else { return Response(status: .serviceUnavailable) }
            let reply = await lab.acs.handle(body: Array(buffer: body), contentType: request.headers[.contentType])
            if reply.delay > .zero { try? await Task.sleep(for: reply.delay) }
            return Response(
                status: .init(code: reply.status), headers: [.contentType: reply.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
        }
    }

    /// The images the ACS's screens link: `GET /images/NAME`.
    static func addImageRoutes(to router: Router<BasicRequestContext>) {
        router.get("images/:name") { _, context -> Response in
            let name = context.parameters.get("name") ?? ""
            guard
                [
                    "issuer-medium.png", "issuer-high.png", "ps-medium.png", "ps-xhigh.png", "issuer-default.png",
                    "issuer-dark.png", "issuer-monochrome.png", "ps-default.png", "ps-dark.png",
                ].contains(name)
            else {
                return Response(status: .notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(bytes: LabImages.png)))
        }
    }

    /// A hostile server for transport tests: an answer that trickles one byte every 200 ms for a minute, and an
    /// image too large to take.
    static func addHostileRoutes(to router: Router<BasicRequestContext>) {
        router.get("test/trickle") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    for _ in 0..<300 {
                        try await writer.write(ByteBuffer(bytes: [UInt8(ascii: " ")]))
                        try await Task.sleep(for: .milliseconds(200))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("images/large.png") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(bytes: [UInt8](repeating: 0, count: 300 * 1024))))
        }
    }
}
