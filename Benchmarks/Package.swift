// swift-tools-version:6.1
// The ordo-one/benchmark composites: `Composites`, the key composite operations of the SDK measured for time,
// allocations and memory, with thresholds. A package of its own, for that package's plugin and its allocation counter,
// so that neither the SDK nor the tools resolve them:
//
//   swift package --package-path Benchmarks benchmark
//
// The ratio-to-floor runner, `threeds-benchmarks`, and the fixtures both share live in the tools package
// (Tools/Benchmarks/):
//
//   swift run --package-path Tools -c release threeds-benchmarks [--quick] [--only TEXT] [--peer PYTHON]
import PackageDescription

let package = Package(
    name: "ThreeDS2Benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ThreeDS2", path: ".."),
        .package(name: "ThreeDS2Tools", path: "../Tools"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // Time, allocations and memory per call, with thresholds (`swift package benchmark`). Swift 6.3 on Linux
        // counts allocations through the malloc interposer (no jemalloc); its runtime interposer, whose package is
        // not to be had here, is left out.
        .package(
            url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Composites",
            dependencies: [
                .product(name: "BenchmarkFixtures", package: "ThreeDS2Tools"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ThreeDS2JOSE", package: "ThreeDS2"),
                .product(name: "ThreeDS2Messages", package: "ThreeDS2"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/Composites",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)

for target in package.targets {
    target.swiftSettings = [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
