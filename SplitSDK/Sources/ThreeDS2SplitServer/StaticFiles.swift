import Foundation
import Hummingbird
import NIOCore
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// The web client's files, read once at startup from its folder and served under `/client/v1/` with the frame's
/// content security policy. A missing folder is a startup error, never a crash.
struct StaticFiles: Sendable {
    /// A file's bytes and content type.
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
    }

    let files: [String: File]

    /// The content types served, by extension; other files are not served.
    static let types = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png",
    ]

    /// Reads the folder: the configured one, or the target's resource folder (`WebClient/` in it).
    static func load(_ configured: URL?) throws(SplitServerError) -> StaticFiles {
        let folder =
            configured
            ?? ResourceFolder.locate("ThreeDS2SplitSDK_ThreeDS2SplitServer", in: ResourceFolder.searchDirectories)?
            .appendingPathComponent("WebClient", isDirectory: true)
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw SplitServerError(
                "the web client's folder was not found (\(configured?.path ?? "no resource folder")); "
                    + "set SplitServerConfiguration.webClientFolder")
        }
        var files: [String: File] = [:]
        for name in names where isServable(name) {
            let ext = String(name.split(separator: ".").last ?? "")
            guard let type = types[ext],
                let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            else { continue }
            files[name] = File(bytes: Array(data), contentType: type)
        }
        return StaticFiles(files: files)
    }

    /// A plain file name: letters, digits, `.`, `-`, `_`, not hidden.
    static func isServable(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.utf8.count <= 64
            && name.utf8.allSatisfy {
                $0.isASCIIAlnum || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
            }
    }

    /// The frame's content security policy: its own scripts and styles only; frames only of its own origin (an HTML
    /// challenge page, served at its one-time address with a policy of its own: ``FormJSON/htmlPagePolicy(merchantOrigin:)``).
    static func policy(merchantOrigin: String) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
            + "frame-src 'self'; "
            + "frame-ancestors \(merchantOrigin)"
    }

    /// The frame page's empty `threeds-merchant-origin` meta element, which the server fills with the configured
    /// origin: the frame then accepts the start message from that origin only, in every browser (without it the client
    /// falls back on `location.ancestorOrigins`, which Firefox lacks).
    static let emptyOriginMeta = #"<meta name="threeds-merchant-origin" content="">"#

    /// The files as served: the frame page with the merchant's origin filled in (HTML-escaped; the configuration
    /// checked it is an origin), every other file as read.
    func filled(merchantOrigin: String) -> [String: File] {
        var files = self.files
        if let frame = files["frame.html"] {
            let escaped = merchantOrigin.replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
            let text = String(decoding: frame.bytes, as: UTF8.self).replacingOccurrences(
                of: Self.emptyOriginMeta, with: #"<meta name="threeds-merchant-origin" content=""# + escaped + #"">"#)
            files["frame.html"] = File(bytes: Array(text.utf8), contentType: frame.contentType)
        }
        return files
    }

    /// The headers of one file. `merchant.js` is loaded by the merchant's page, another origin, as a module: it gets
    /// `Access-Control-Allow-Origin` for that origin alone (a module script is fetched in CORS mode).
    static func headers(for name: String, _ file: File, policy: String, merchantOrigin: String) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: file.contentType, .init("X-Content-Type-Options")!: "nosniff",
            .init("Content-Security-Policy")!: policy, .cacheControl: "no-cache",
            .init("Referrer-Policy")!: "no-referrer",
        ]
        if name == "merchant.js" {
            headers[.accessControlAllowOrigin] = merchantOrigin
            headers[.vary] = "Origin"
        }
        return headers
    }

    func add(to router: Router<BasicRequestContext>, merchantOrigin: String) {
        let files = filled(merchantOrigin: merchantOrigin)
        let policy = Self.policy(merchantOrigin: merchantOrigin)
        router.get("client/v1/:file") { _, context -> Response in
            guard let name = context.parameters.get("file"), let file = files[name] else {
                return Response(status: .notFound, headers: [.init("X-Content-Type-Options")!: "nosniff"])
            }
            return Response(
                status: .ok, headers: Self.headers(for: name, file, policy: policy, merchantOrigin: merchantOrigin),
                body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlnum: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
