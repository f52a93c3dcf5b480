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

    /// The frame's content security policy.
    static func policy(merchantOrigin: String) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
            + "frame-ancestors \(merchantOrigin)"
    }

    func add(to router: Router<BasicRequestContext>, merchantOrigin: String) {
        let files = self.files
        let policy = Self.policy(merchantOrigin: merchantOrigin)
        router.get("client/v1/:file") { _, context -> Response in
            guard let name = context.parameters.get("file"), let file = files[name] else {
                return Response(status: .notFound, headers: [.init("X-Content-Type-Options")!: "nosniff"])
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: file.contentType, .init("X-Content-Type-Options")!: "nosniff",
                    .init("Content-Security-Policy")!: policy, .cacheControl: "no-cache",
                    .init("Referrer-Policy")!: "no-referrer",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlnum: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
