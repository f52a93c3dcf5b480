// swift-tools-version:6.1
// The Split-SDK Server (EMV 3-D Secure 2.3.1's Split-SDK, server half): the SDK's core run on a server, speaking to
// a merchant's backend and to the Split-SDK Client (the web client in Sources/ThreeDS2SplitServer/WebClient/) over
// the interfaces docs/split-sdk.md fixes. A package of its own, never in an app's graph: it resolves Hummingbird and
// SwiftNIO, which an app that adds the SDK (the package one folder up) never does. Its tests live in the tools
// package (Tools/Tests/ThreeDS2SplitSDKTests), because they stand on the TestLab.
import PackageDescription

let package = Package(
    name: "ThreeDS2SplitSDK",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ThreeDS2SplitServer", targets: ["ThreeDS2SplitServer"])
    ],
    dependencies: [
        .package(name: "ThreeDS2", path: ".."),
        .package(name: "ThreeDS2NIOTransport", path: "../Packages/ThreeDS2NIOTransport"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The shared store of several instances (PostgreSQL); the Split-SDK Server only, never an app.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        .target(
            name: "ThreeDS2SplitServer",
            dependencies: [
                .product(name: "ThreeDS2SDK", package: "ThreeDS2"),
                .product(name: "ThreeDS2Messages", package: "ThreeDS2"),
                // The Split-SDK Server's signed content (server-side: never in an app's vocabulary).
                .product(name: "ThreeDS2ACSKit", package: "ThreeDS2"),
                .product(name: "ThreeDS2JOSE", package: "ThreeDS2"),
                .product(name: "ThreeDS2NIOTransport", package: "ThreeDS2NIOTransport"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // A graceful stop of the listener (its service group), as the TestLab's.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Sessions shared by several instances, and calls forwarded to a session's owner.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The web client (plain JavaScript modules, CSS and the frame page), served as static files. Found
            // without `Bundle.module` (a missing folder is a startup error, never a crash); the server can also be
            // given the folder's path.
            resources: [.copy("WebClient")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ]
)
