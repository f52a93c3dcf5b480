// swift-tools-version:6.1
// libFuzzer targets, one executable per parser. Built and run by `scripts/fuzz.sh`, which passes the sanitizer
// flags; not part of the main package, so `swift build` and `swift test` never need libFuzzer.
import PackageDescription

let jose = Target.Dependency.product(name: "ThreeDS2JOSE", package: "ThreeDS2")
let messages = Target.Dependency.product(name: "ThreeDS2Messages", package: "ThreeDS2")
let sdk = Target.Dependency.product(name: "ThreeDS2SDK", package: "ThreeDS2")
let html = Target.Dependency.product(name: "ThreeDS2HTML", package: "ThreeDS2")

let package = Package(
    name: "ThreeDS2Fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ThreeDS2", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", jose]),
        .executableTarget(name: "fuzz-base64", dependencies: ["FuzzSupport", jose]),
        .executableTarget(name: "fuzz-jwk", dependencies: ["FuzzSupport", jose]),
        .executableTarget(
            name: "fuzz-jwe",
            dependencies: ["FuzzSupport", jose, .product(name: "Crypto", package: "swift-crypto")]),
        .executableTarget(
            name: "fuzz-jws",
            dependencies: [
                "FuzzSupport", jose, .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        .executableTarget(name: "fuzz-cres", dependencies: ["FuzzSupport", jose, messages]),
        .executableTarget(name: "fuzz-html", dependencies: ["FuzzSupport", sdk, html]),
        .executableTarget(name: "fuzz-form", dependencies: ["FuzzSupport", jose, messages, sdk, html]),
        // Issue 34: the trust-bundle and UI-customization parsers.
        .executableTarget(name: "fuzz-bundle", dependencies: ["FuzzSupport", sdk]),
        .executableTarget(name: "fuzz-customization", dependencies: ["FuzzSupport", messages, sdk]),
    ]
)
