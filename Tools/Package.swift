// swift-tools-version:6.1
// The workshop beside the SDK: the TestLab (a directory server, a 3DS Server and an ACS on loopback HTTPS), the
// `threeds` CLI, the terminal presenter, the AsyncHTTPClient transport, the JOSE interop tool, the example app and
// their tests. A package of its own so that an app that adds the SDK (the package one folder up) resolves only the
// SDK's four dependencies; this one depends on it by path:
//
//   swift run --package-path Tools threeds demo
//   swift test --package-path Tools
import PackageDescription

/// Settings every target shares, as in the SDK's manifest.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The SDK's modules, from the package one folder up.
let jose = Target.Dependency.product(name: "ThreeDS2JOSE", package: "ThreeDS2")
let messages = Target.Dependency.product(name: "ThreeDS2Messages", package: "ThreeDS2")
let acsKit = Target.Dependency.product(name: "ThreeDS2ACSKit", package: "ThreeDS2")
let sdk = Target.Dependency.product(name: "ThreeDS2SDK", package: "ThreeDS2")
let sdkTesting = Target.Dependency.product(name: "ThreeDS2SDKTesting", package: "ThreeDS2")
let html = Target.Dependency.product(name: "ThreeDS2HTML", package: "ThreeDS2")

/// The cryptography the lab's PKI and the CLI's inspectors use directly.
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

/// The AsyncHTTPClient transport, from its own package (Packages/ThreeDS2NIOTransport).
let nioTransport = Target.Dependency.product(name: "ThreeDS2NIOTransport", package: "ThreeDS2NIOTransport")

let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let clocks = Target.Dependency.product(name: "Clocks", package: "swift-clocks")

let package = Package(
    name: "ThreeDS2Tools",
    // The terminal presenter's texts are .lproj tables; English is their source and fallback.
    defaultLocalization: "en",
    // Testers use Macs: the tools build for macOS 13, the SDK's own floor.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ThreeDS2TerminalUI", targets: ["ThreeDS2TerminalUI"]),
        .library(name: "ThreeDS2TestLab", targets: ["ThreeDS2TestLab"]),
        .executable(name: "threeds", targets: ["threeds"]),
        // The benchmarks' fixtures, for the ordo-one composites of the benchmark package (Benchmarks/).
        .library(name: "BenchmarkFixtures", targets: ["BenchmarkFixtures"]),
        .executable(name: "threeds-benchmarks", targets: ["threeds-benchmarks"]),
    ],
    dependencies: [
        .package(name: "ThreeDS2", path: ".."),
        // The AsyncHTTPClient transport, a package of its own (the Split-SDK Server uses it too).
        .package(name: "ThreeDS2NIOTransport", path: "../Packages/ThreeDS2NIOTransport"),
        // The Split-SDK Server, whose tests stand on the TestLab.
        .package(name: "ThreeDS2SplitSDK", path: "../SplitSDK"),
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
        // Hummingbird's header types, named by the browser tests' static site (already in Hummingbird's graph).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // zlib, for the compressed histograms of HdrHistogram logs (`threeds load --histogram-log`).
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "ThreeDS2TerminalUI",
            dependencies: [jose, sdk, messages, html, logging],
            // Its own texts, one table per language; read through the SDK's table loader, never `Bundle.module`.
            resources: [.process("Resources")]
        ),
        .target(
            name: "ThreeDS2TestLab",
            dependencies: [
                jose, sdk, sdkTesting, messages, acsKit, html, nioTransport,
                // A Split-SDK Server's configuration for the lab (TestLab+Split.swift).
                .product(name: "ThreeDS2SplitServer", package: "ThreeDS2SplitSDK"),
                // The Split-SDK client in Swift (Split/SplitClient.swift), for the tests and the benchmarks.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                logging,
            ] + cryptography
        ),
        .executableTarget(
            name: "threeds",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                sdk, jose, messages, acsKit, nioTransport, "ThreeDS2TerminalUI", "ThreeDS2TestLab", "CZlib",
                // `threeds demo --split`: the Split-SDK Server and the demo shop's listener and backend calls.
                .product(name: "ThreeDS2SplitServer", package: "ThreeDS2SplitSDK"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                logging,
            ]
        ),
        .executableTarget(
            name: "jose-interop",
            dependencies: [jose, messages, sdk, acsKit, "ThreeDS2TestLab"] + cryptography,
            path: "Interop/JOSEInteropTool"
        ),
        // The example app: links only the core (checked by scripts/check-core-dependencies.py). It lives here, not
        // beside the SDK, because its tests run it against the TestLab.
        .target(
            name: "MinimalCheckout",
            dependencies: [sdk],
            path: "Examples/MinimalCheckout/Sources/MinimalCheckout"
        ),
        .executableTarget(
            name: "minimal-checkout",
            dependencies: ["MinimalCheckout", sdk],
            path: "Examples/MinimalCheckout/Sources/minimal-checkout"
        ),
        .testTarget(
            name: "MinimalCheckoutTests",
            dependencies: ["MinimalCheckout", sdk, sdkTesting, "ThreeDS2TestLab", clocks],
            path: "Examples/MinimalCheckout/Tests/MinimalCheckoutTests"
        ),
        // The benchmarks (Benchmarks/README.md): `threeds-benchmarks`, each composite operation of the SDK against the
        // bare operations it is built from, whole challenges, the TestLab under load, the client's cost against an
        // independent peer and the binary sizes; and the fixtures it shares with the ordo-one composites, which stay
        // in the benchmark package (Benchmarks/, for its plugin and allocation counter). They live here because they
        // stand on the TestLab: the tools' build already builds everything they need.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [jose, messages, acsKit, "ThreeDS2TestLab"] + cryptography,
            path: "Benchmarks/BenchmarkFixtures"
        ),
        .executableTarget(
            name: "threeds-benchmarks",
            dependencies: [
                "BenchmarkFixtures", jose, messages, acsKit, sdk, "ThreeDS2TestLab", nioTransport, logging,
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                // The Split-SDK Server under load (SplitUnderLoad.swift): the server, the merchant's calls.
                .product(name: "ThreeDS2SplitServer", package: "ThreeDS2SplitSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + cryptography,
            path: "Benchmarks/ThreeDS2Benchmarks"
        ),
        // Test support the tools' tests share (what the SDK's testing product does not ship: peak memory from /proc).
        .target(
            name: "ThreeDS2TestSupport",
            dependencies: [sdk, sdkTesting, logging],
            path: "Tests/ThreeDS2TestSupport"
        ),
        // Runs one transport exchange against a hostile server in a process of its own, so the transport tests can
        // hold its peak memory to a bound without the noise of tests running beside them.
        .executableTarget(
            name: "hostile-transport-probe",
            dependencies: [sdk, sdkTesting, nioTransport, "ThreeDS2TestLab", "ThreeDS2TestSupport"],
            path: "Tests/HostileTransportProbe"
        ),
        // A Split-SDK Server instance in a process of its own, which the shared-store tests kill with SIGKILL.
        .executableTarget(
            name: "split-instance",
            dependencies: [
                "ThreeDS2TestLab", nioTransport, logging,
                .product(name: "ThreeDS2SplitServer", package: "ThreeDS2SplitSDK"),
            ] + cryptography,
            path: "Tests/SplitInstanceProbe"
        ),
        .testTarget(
            name: "ThreeDS2NIOTransportTests",
            dependencies: [
                nioTransport, sdk, sdkTesting, "ThreeDS2TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ] + nioHTTP
        ),
        .testTarget(
            name: "ThreeDS2TerminalUITests",
            dependencies: ["ThreeDS2TerminalUI", sdk, sdkTesting, html, messages, jose, clocks, logging]
        ),
        .testTarget(
            name: "ThreeDS2TestLabTests",
            dependencies: [
                "ThreeDS2TestSupport", "ThreeDS2TestLab", nioTransport, sdk, sdkTesting, jose, messages,
                acsKit, html,
            ]
        ),
        // The `threeds` executable, run as a process (and through tmux) against TestLabs, and in process
        // (`@testable import threeds`) where a test clock drives its timers.
        .testTarget(
            name: "ThreeDSCLITests",
            dependencies: [
                "ThreeDS2TestSupport", "ThreeDS2TestLab", nioTransport, "threeds", "ThreeDS2TerminalUI", sdk,
                sdkTesting, messages, jose, clocks,
                // A command parsed in process, as `threeds` parses it.
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The Split-SDK Server driven by a second implementation of the client's protocol in Swift, against the TestLab.
        .testTarget(
            name: "ThreeDS2SplitSDKTests",
            dependencies: [
                "ThreeDS2TestSupport", "ThreeDS2TestLab", nioTransport, sdk, sdkTesting, jose,
                messages, acsKit, clocks,
                logging,
                .product(name: "ThreeDS2SplitServer", package: "ThreeDS2SplitSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ] + cryptography + nioHTTP
        ),
        // Headless Chromium for tests: Debian's chromium driven over WebDriver (Debian's chromedriver, by path, as a
        // child process), and a static site for test pages. Nothing downloads a browser or a driver.
        .target(
            name: "ThreeDS2BrowserSupport",
            dependencies: [
                jose, logging,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ] + nioHTTP,
            path: "Tests/ThreeDS2BrowserSupport"
        ),
        .testTarget(
            name: "ThreeDS2BrowserSupportTests",
            dependencies: ["ThreeDS2BrowserSupport", jose]
        ),
        .testTarget(
            name: "ThreeDS2SplitBrowserTests",
            dependencies: [
                "ThreeDS2BrowserSupport", "ThreeDS2TestLab", nioTransport, sdk, sdkTesting,
                jose, messages, clocks,
                logging,
                .product(name: "ThreeDS2SplitServer", package: "ThreeDS2SplitSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ] + cryptography + nioHTTP,
            exclude: ["Fixtures"]
        ),
        // Integration: the SDK and its adapters end to end against the TestLab over real HTTP(S) on loopback.
        .testTarget(
            name: "ThreeDS2EndToEndTests",
            dependencies: [
                "ThreeDS2TestSupport", nioTransport, "ThreeDS2TestLab", sdk, sdkTesting, html, jose,
                messages, clocks, logging,
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
