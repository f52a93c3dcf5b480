// swift-tools-version:6.1
import PackageDescription

/// Settings every target shares: Swift 6 mode is the default for tools 6.x; these upcoming features keep the
/// code ready for the next language mode.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The cryptography the core and its fixtures are built on: swift-crypto (with its RSA extras), swift-certificates
/// and swift-asn1. Named once; targets add it to their own dependencies.
let cryptography: [Target.Dependency] = [
    .product(name: "Crypto", package: "swift-crypto"),
    .product(name: "_CryptoExtras", package: "swift-crypto"),
    .product(name: "X509", package: "swift-certificates"),
    .product(name: "SwiftASN1", package: "swift-asn1"),
]

/// SwiftNIO's HTTP client stack, for the NIO transport and its tests.
let nioHTTP: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
    .product(name: "NIOHTTP1", package: "swift-nio"),
    .product(name: "NIOSSL", package: "swift-nio-ssl"),
]

let package = Package(
    name: "ThreeDS2",
    // The floor an app can adopt: iOS 16 and macOS 13 (README "Platforms"). Nothing in the package uses an API newer
    // than that; the one lock type (`Locked`, on `OSAllocatedUnfairLock` on Apple platforms) replaces
    // `Synchronization.Mutex`, which needs iOS 18 / macOS 15.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ThreeDS2JOSE", targets: ["ThreeDS2JOSE"]),
        .library(name: "ThreeDS2Messages", targets: ["ThreeDS2Messages"]),
        .library(name: "ThreeDS2SDK", targets: ["ThreeDS2SDK"]),
        .library(name: "ThreeDS2SDKTesting", targets: ["ThreeDS2SDKTesting"]),
        .library(name: "ThreeDS2NIOTransport", targets: ["ThreeDS2NIOTransport"]),
        .library(name: "ThreeDS2HTML", targets: ["ThreeDS2HTML"]),
        .library(name: "ThreeDS2TerminalUI", targets: ["ThreeDS2TerminalUI"]),
        .library(name: "ThreeDS2TestLab", targets: ["ThreeDS2TestLab"]),
        .executable(name: "threeds", targets: ["threeds"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
    ],
    targets: [
        .target(
            name: "ThreeDS2JOSE",
            dependencies: cryptography
        ),
        .target(
            name: "ThreeDS2Messages",
            dependencies: ["ThreeDS2JOSE", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The core an app links: Foundation, swift-crypto, swift-certificates, swift-asn1 and swift-log only
        // (checked by scripts/check-core-dependencies.py).
        .target(
            name: "ThreeDS2SDK",
            dependencies: [
                "ThreeDS2JOSE",
                "ThreeDS2Messages",
                .product(name: "Logging", package: "swift-log"),
            ] + cryptography,
            // Apple's privacy manifest: the required-reason APIs the SDK calls (none) and the data it collects;
            // held against the device-parameter registry by PrivacyManifestTests.
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // Test values beside the core's seams, for the SDK's tests and an app's: scripted, failing and recording
        // transports, a scripted ACS, a fake system probe, a fixed app opener and an in-memory PKI. Links only the
        // core (no server).
        .target(
            name: "ThreeDS2SDKTesting",
            dependencies: ["ThreeDS2SDK"] + cryptography
        ),
        // Adapters around the core.
        .target(
            name: "ThreeDS2NIOTransport",
            dependencies: [
                "ThreeDS2SDK",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ] + nioHTTP
        ),
        // libxml2: Debian's through pkg-config on Linux; on Apple platforms the SDK's own `libxml2` module.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // zlib, for the compressed histograms of HdrHistogram logs (`threeds load --histogram-log`).
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "ThreeDS2HTML",
            dependencies: [
                "ThreeDS2SDK",
                .target(name: "CLibXML2", condition: .when(platforms: [.linux])),
            ],
            linkerSettings: [.linkedLibrary("xml2", .when(platforms: [.macOS, .iOS]))]
        ),
        .target(
            name: "ThreeDS2TerminalUI",
            dependencies: ["ThreeDS2JOSE", "ThreeDS2SDK", "ThreeDS2Messages", "ThreeDS2HTML"]
        ),
        .target(
            name: "ThreeDS2TestLab",
            dependencies: [
                "ThreeDS2JOSE",
                "ThreeDS2SDK",
                "ThreeDS2SDKTesting",
                "ThreeDS2Messages",
                "ThreeDS2NIOTransport",
                "ThreeDS2HTML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ] + cryptography
        ),
        .executableTarget(
            name: "threeds",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                "ThreeDS2SDK",
                "ThreeDS2NIOTransport",
                "ThreeDS2TerminalUI",
                "ThreeDS2JOSE",
                "ThreeDS2Messages",
                "ThreeDS2TestLab",
                "CZlib",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "jose-interop",
            dependencies: [
                "ThreeDS2JOSE",
                "ThreeDS2Messages",
                "ThreeDS2SDK",
                "ThreeDS2TestLab",
            ] + cryptography,
            path: "Interop/JOSEInteropTool"
        ),
        // The example app: links only the core (checked by scripts/check-core-dependencies.py).
        .target(
            name: "MinimalCheckout",
            dependencies: ["ThreeDS2SDK", "ThreeDS2Messages"],
            path: "Examples/MinimalCheckout/Sources/MinimalCheckout"
        ),
        .executableTarget(
            name: "minimal-checkout",
            dependencies: ["MinimalCheckout", "ThreeDS2SDK"],
            path: "Examples/MinimalCheckout/Sources/minimal-checkout"
        ),
        .testTarget(
            name: "MinimalCheckoutTests",
            dependencies: ["MinimalCheckout", "ThreeDS2SDK", "ThreeDS2Messages", "ThreeDS2TestLab"],
            path: "Examples/MinimalCheckout/Tests/MinimalCheckoutTests"
        ),
        // Runs one transport exchange against a hostile server in a process of its own, so the transport tests can
        // hold its peak memory to a bound without the noise of tests running beside them.
        .executableTarget(
            name: "hostile-transport-probe",
            dependencies: ["ThreeDS2SDK", "ThreeDS2NIOTransport", "ThreeDS2TestLab", "ThreeDS2TestSupport"],
            path: "Tests/HostileTransportProbe"
        ),
        .target(
            name: "ThreeDS2TestSupport",
            dependencies: ["ThreeDS2SDK", "ThreeDS2SDKTesting", .product(name: "Logging", package: "swift-log")],
            path: "Tests/ThreeDS2TestSupport"
        ),
        // One test target per module. Unit tests link their module and the testing library (PKI fixtures, scripted
        // transports), never the TestLab's server: only the TestLab's, the CLI's and the end-to-end tests link it.
        .testTarget(
            name: "ThreeDS2JOSETests",
            dependencies: [
                "ThreeDS2JOSE",
                "ThreeDS2SDKTesting",
            ] + cryptography,
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "ThreeDS2MessagesTests",
            dependencies: ["ThreeDS2Messages", "ThreeDS2JOSE", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "ThreeDS2SDKTests",
            dependencies: [
                "ThreeDS2TestSupport",
                "ThreeDS2SDK",
                "ThreeDS2SDKTesting",
                "ThreeDS2JOSE",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ] + cryptography
        ),
        .testTarget(
            name: "ThreeDS2HTMLTests",
            dependencies: ["ThreeDS2HTML", "ThreeDS2SDK", "ThreeDS2Messages", "ThreeDS2JOSE"]
        ),
        .testTarget(
            name: "ThreeDS2NIOTransportTests",
            dependencies: [
                "ThreeDS2NIOTransport",
                "ThreeDS2SDK",
                "ThreeDS2SDKTesting",
                "ThreeDS2TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ] + nioHTTP
        ),
        .testTarget(
            name: "ThreeDS2TerminalUITests",
            dependencies: [
                "ThreeDS2TerminalUI",
                "ThreeDS2SDK",
                "ThreeDS2SDKTesting",
                "ThreeDS2HTML",
                "ThreeDS2Messages",
                "ThreeDS2JOSE",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "ThreeDS2TestLabTests",
            dependencies: [
                "ThreeDS2TestSupport",
                "ThreeDS2TestLab",
                "ThreeDS2SDK",
                "ThreeDS2NIOTransport",
                "ThreeDS2JOSE",
                "ThreeDS2Messages",
            ]
        ),
        // The `threeds` executable, run as a process (and through tmux) against TestLabs.
        .testTarget(
            name: "ThreeDSCLITests",
            dependencies: [
                "ThreeDS2TestSupport",
                "ThreeDS2SDK",
                "ThreeDS2Messages",
                "ThreeDS2JOSE",
                "ThreeDS2TestLab",
            ]
        ),
        // Integration: the SDK and its adapters end to end against the TestLab over real HTTP(S) on loopback.
        .testTarget(
            name: "ThreeDS2EndToEndTests",
            dependencies: [
                "ThreeDS2TestSupport",
                "ThreeDS2SDK",
                "ThreeDS2SDKTesting",
                "ThreeDS2NIOTransport",
                "ThreeDS2HTML",
                "ThreeDS2JOSE",
                "ThreeDS2Messages",
                "ThreeDS2TestLab",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}

// The SwiftUI challenge UI: Apple platforms only. The manifest is evaluated on the host, so Linux builds never see
// this target; `.github/workflows/apple.yml` builds it for macOS and the iOS Simulator.
#if canImport(Darwin)
    package.products.append(.library(name: "ThreeDS2UI", targets: ["ThreeDS2UI"]))
    package.targets.append(
        .target(
            name: "ThreeDS2UI",
            dependencies: ["ThreeDS2SDK", "ThreeDS2Messages", "ThreeDS2JOSE"],
            path: "Sources/ThreeDS2UI",
            swiftSettings: swiftSettings
        ))
#endif
