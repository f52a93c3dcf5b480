// swift-tools-version:6.1
import PackageDescription

/// Settings every target shares: Swift 6 mode is the default for tools 6.x; these upcoming features keep the
/// code ready for the next language mode.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ThreeDS2",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "ThreeDS2JOSE", targets: ["ThreeDS2JOSE"]),
        .library(name: "ThreeDS2SDK", targets: ["ThreeDS2SDK"]),
        .library(name: "ThreeDS2TestLab", targets: ["ThreeDS2TestLab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "ThreeDS2JOSE",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "ThreeDS2SDK",
            dependencies: [
                "ThreeDS2JOSE",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ThreeDS2TestLab",
            dependencies: [
                "ThreeDS2JOSE",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "jose-interop",
            dependencies: [
                "ThreeDS2JOSE",
                "ThreeDS2TestLab",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Interop/JOSEInteropTool"
        ),
        .executableTarget(
            name: "threeds-benchmarks",
            dependencies: [
                "ThreeDS2JOSE",
                "ThreeDS2TestLab",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Benchmarks/ThreeDS2Benchmarks"
        ),
        .testTarget(
            name: "ThreeDS2JOSETests",
            dependencies: [
                "ThreeDS2JOSE",
                "ThreeDS2TestLab",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "ThreeDS2SDKTests",
            dependencies: [
                "ThreeDS2SDK",
                "ThreeDS2JOSE",
                "ThreeDS2TestLab",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
