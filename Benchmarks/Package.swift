// swift-tools-version:6.1
// The benchmarks: `threeds-benchmarks`, each composite operation of the SDK against the bare operations it is built
// from (the ratio-to-floor report the README's performance goals are stated in), whole challenges, the TestLab under
// load, the client's cost against an independent peer and the binary sizes; and `Composites`, the key composites on
// ordo-one/benchmark (time, allocations, memory, thresholds). A package of its own, beside the SDK's, so that building
// the SDK never builds its benchmarks:
//
//   swift run --package-path Benchmarks -c release threeds-benchmarks [--quick] [--only TEXT] [--peer PYTHON]
//   swift package --package-path Benchmarks benchmark
import PackageDescription

/// The SDK's modules (the ACS kit's builders make the ACS's messages), the TestLab (from the tools package) and the
/// swift-crypto products the fixtures and both runners use.
let sdk: [Target.Dependency] =
    ["ThreeDS2JOSE", "ThreeDS2Messages", "ThreeDS2ACSKit"].map { .product(name: $0, package: "ThreeDS2") }
    + [.product(name: "ThreeDS2TestLab", package: "ThreeDS2Tools")]
let crypto: [Target.Dependency] = [
    .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
]

let package = Package(
    name: "ThreeDS2Benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ThreeDS2", path: ".."),
        .package(name: "ThreeDS2Tools", path: "../Tools"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Time, allocations and memory per call, with thresholds (`swift package benchmark`). Swift 6.3 on Linux
        // counts allocations through the malloc interposer (no jemalloc); its runtime interposer, whose package is
        // not to be had here, is left out.
        .package(
            url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The fixtures, floors and composites both runners share: keys, messages, the DS PKI, the signed contents,
        // one exchange and one payment.
        .target(
            name: "BenchmarkFixtures",
            dependencies: sdk + crypto + [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .executableTarget(
            name: "threeds-benchmarks",
            dependencies: ["BenchmarkFixtures"] + sdk + crypto + [
                .product(name: "ThreeDS2SDK", package: "ThreeDS2"),
                .product(name: "ThreeDS2NIOTransport", package: "ThreeDS2Tools"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Sources/ThreeDS2Benchmarks"
        ),
        .executableTarget(
            name: "Composites",
            dependencies: ["BenchmarkFixtures", .product(name: "Benchmark", package: "benchmark")] + sdk
                + crypto,
            path: "Benchmarks/Composites",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
