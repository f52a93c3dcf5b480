// swift-tools-version:6.1
// The AsyncHTTPClient transport: TLS 1.2 or newer, extra trust roots (which Linux `URLSession` cannot take), no
// redirects, bounded bodies. A package of its own so that the Split-SDK Server (SplitSDK/) can use it without
// resolving the tools' dependencies, and an app that adds the SDK never resolves SwiftNIO. Its tests live in the
// tools package (Tools/Tests/ThreeDS2NIOTransportTests), which stands on the TestLab:
//
//   swift test --package-path Tools --filter ThreeDS2NIOTransportTests
import PackageDescription

let package = Package(
    name: "ThreeDS2NIOTransport",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        // For servers and tools on Linux that need extra trusted roots (URLSession there cannot take them).
        .library(name: "ThreeDS2NIOTransport", targets: ["ThreeDS2NIOTransport"])
    ],
    dependencies: [
        .package(name: "ThreeDS2", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "ThreeDS2NIOTransport",
            dependencies: [
                .product(name: "ThreeDS2SDK", package: "ThreeDS2"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ]
)
