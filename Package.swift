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

let package = Package(
    name: "ThreeDS2",
    // The SDK's own texts: one `Localizable.strings` table per language in Sources/ThreeDS2SDK/Resources/*.lproj,
    // English the source and the fallback.
    defaultLocalization: "en",
    // The floor an app can adopt: iOS 16 and macOS 13 (README "Platforms"). Nothing in the package uses an API newer
    // than that; the one lock type (`Locked`, on `OSAllocatedUnfairLock` on Apple platforms) replaces
    // `Synchronization.Mutex`, which needs iOS 18 / macOS 15.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ThreeDS2JOSE", targets: ["ThreeDS2JOSE"]),
        .library(name: "ThreeDS2Messages", targets: ["ThreeDS2Messages"]),
        // The other side of the protocol, for the testing product's scripted ACS, the TestLab, the CLI and the
        // benchmarks: never a dependency of ThreeDS2SDK, so an app's `import ThreeDS2SDK` does not show it.
        .library(name: "ThreeDS2ACSKit", targets: ["ThreeDS2ACSKit"]),
        .library(name: "ThreeDS2SDK", targets: ["ThreeDS2SDK"]),
        .library(name: "ThreeDS2SDKTesting", targets: ["ThreeDS2SDKTesting"]),
        .library(name: "ThreeDS2HTML", targets: ["ThreeDS2HTML"]),
        // Declared on every platform, so one app manifest serves Xcode and a Linux CI job; its sources are guarded
        // inside (`#if canImport(SwiftUI)`), so on Linux it builds an empty module.
        .library(name: "ThreeDS2UI", targets: ["ThreeDS2UI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Test-only: the timer tests' TestClock. SwiftPM does not resolve a dependency that only test targets use for
        // a package that depends on this one (checked by scripts/check-consumer-graph.sh).
        .package(url: "https://github.com/pointfreeco/swift-clocks.git", from: "1.1.1"),
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
        // The ACS side and the tools' side of the messages: the ACS's channel end, the ARes and CRes builders, raw
        // patches, the client's ARes rules, the Split-SDK Server's signed content (signed with a certificate: X509 and
        // the RSA extras, verified with a registered one). On the messages only: the core an app links never imports
        // it.
        .target(
            name: "ThreeDS2ACSKit",
            dependencies: ["ThreeDS2JOSE", "ThreeDS2Messages"] + cryptography
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
            // held against the device-parameter registry by PrivacyManifestTests. The SDK's texts, one
            // `Localizable.strings` per language in `.lproj` folders (SDKStrings reads them for the app's locale).
            resources: [.copy("PrivacyInfo.xcprivacy"), .process("Resources")]
        ),
        // Test values beside the core's seams, for the SDK's tests and an app's: scripted, failing and recording
        // transports, a stalling HTTP server, a scripted ACS, a fake system probe, a fixed app opener, a log capture
        // and an in-memory PKI. Links the core and the ACS kit (no server framework).
        .target(
            name: "ThreeDS2SDKTesting",
            dependencies: ["ThreeDS2SDK", "ThreeDS2ACSKit", .product(name: "Logging", package: "swift-log")]
                + cryptography
        ),
        // libxml2: Debian's through pkg-config on Linux; on Apple platforms the SDK's own `libxml2` module.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "ThreeDS2HTML",
            dependencies: [
                "ThreeDS2SDK",
                .target(name: "CLibXML2", condition: .when(platforms: [.linux])),
            ],
            // Every Apple platform SwiftPM may build the package for (the listed floors are macOS and iOS; Mac Catalyst,
            // tvOS, watchOS and visionOS take SwiftPM's defaults): each SDK carries libxml2.
            linkerSettings: [
                .linkedLibrary("xml2", .when(platforms: [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS]))
            ]
        ),
        // The SwiftUI challenge UI: every file compiles to nothing where SwiftUI is missing (Linux);
        // `.github/workflows/apple.yml` builds it for macOS and the iOS Simulator.
        .target(
            name: "ThreeDS2UI",
            dependencies: ["ThreeDS2SDK", "ThreeDS2Messages", "ThreeDS2JOSE"],
            path: "Sources/ThreeDS2UI"
        ),
        // One test target per module, linking their module and the testing library (PKI fixtures, scripted
        // transports). The TestLab, the CLI, the NIO transport, the terminal presenter, their tests and the end-to-end
        // tests are the tools package's (Tools/Package.swift).
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
            dependencies: ["ThreeDS2Messages", "ThreeDS2JOSE", "ThreeDS2SDKTesting"] + cryptography
        ),
        .testTarget(
            name: "ThreeDS2ACSKitTests",
            dependencies: [
                "ThreeDS2ACSKit", "ThreeDS2Messages", "ThreeDS2JOSE", "ThreeDS2SDKTesting",
            ] + cryptography
        ),
        .testTarget(
            name: "ThreeDS2SDKTests",
            dependencies: [
                "ThreeDS2SDK",
                "ThreeDS2SDKTesting",
                "ThreeDS2ACSKit",
                "ThreeDS2JOSE",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ] + cryptography
        ),
        .testTarget(
            name: "ThreeDS2HTMLTests",
            dependencies: ["ThreeDS2HTML", "ThreeDS2SDK", "ThreeDS2Messages", "ThreeDS2JOSE"]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}

// The SwiftUI challenge UI's tests: Apple platforms only (the manifest is evaluated on the host).
#if canImport(Darwin)
    // Apple code executed: `xcodebuild test -only-testing:ThreeDS2UITests` on an iOS Simulator
    // (`.github/workflows/apple.yml`) calls every LiveSystemProbe fact, draws ChallengeView for each UI type, submits
    // a GET and a POST form through the web view's coordinator in WebKit, and checks URLSessionTransport's TLS host
    // rule. Its files compile to nothing on macOS (`#if os(iOS)`).
    package.targets.append(
        .testTarget(
            name: "ThreeDS2UITests",
            dependencies: ["ThreeDS2UI", "ThreeDS2SDK", "ThreeDS2SDKTesting", "ThreeDS2Messages", "ThreeDS2JOSE"],
            path: "Tests/ThreeDS2UITests",
            swiftSettings: swiftSettings
        ))
#endif

// The README's and the DocC articles' SwiftUI and UIKit snippets, compiled (and their wording of an outcome tested)
// by the Apple workflow: Apple platforms only, like ThreeDS2UI.
#if canImport(Darwin)
    package.targets.append(
        .testTarget(
            name: "ThreeDS2UISnippetTests",
            dependencies: ["ThreeDS2UI", "ThreeDS2SDK"],
            path: "Tests/ThreeDS2UISnippetTests",
            swiftSettings: swiftSettings
        ))
#endif
