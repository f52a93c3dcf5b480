// Benchmarks: each composite JOSE operation of the SDK against the bare swift-crypto / swift-certificates
// operations it is built from, measured in the same run, interleaved, and reported as a ratio; then whole
// challenges, the client's cost against an independent peer, the TestLab under load and the binary sizes.
//
//   swift run --package-path Tools -c release threeds-benchmarks [--quick] [--only TEXT] [--peer PYTHON]
//
// The goal is a ratio of at most 1.3 for every composite. The floor is what any implementation must do (the key
// operations, the cipher and MAC over the same bytes, the certificate parsing and path validation); the composite
// adds encoding, header handling and the checks. One file per measured concern: JOSECompositeRows (keys, key
// agreement, device data, channel, strict JSON), SignedContentRows, ChallengeExchangeRows, PaymentRow,
// WholeChallenges, PeerComparison, LabUnderLoad, BinarySizes.

import BenchmarkFixtures
import Crypto
import Foundation
import ThreeDS2SplitServer

let options = Options(arguments: CommandLine.arguments)
let fixtures = try Fixtures()
let signedContents = try SignedContents(fixtures)
let exchange = try ExchangeFixture(fixtures)
let payment = try PaymentFixture(fixtures, exchange: exchange, signedContent: signedContents.ps256)

var results: [Measurement?] = try JOSECompositeRows.measure(fixtures, options: options)
results += try await signedContents.measure(fixtures, options: options)
results.append(try exchange.measure(fixtures, options: options))
results.append(try await payment.measure(options: options))
results.append(try JOSECompositeRows.wideObjectRow(options: options))

let challengeTimes = options.includes("full challenge") ? try await WholeChallenges.measure(options: options) : []

print("")
Report.composites(results.compactMap { $0 }).forEach { print($0) }
if !challengeTimes.isEmpty {
    print("")
    print(WholeChallenges.report(challengeTimes))
}

if let python = options.peerPython {
    let rows: [PeerComparison.Row]
    do {
        rows = try await PeerComparison.measure(
            python: python, payment: payment, signedContents: signedContents, options: options)
    } catch {
        FileHandle.standardError.write(Data("threeds-benchmarks: the --peer step failed: \(error)\n".utf8))
        exit(1)
    }
    print("")
    Report.peer(rows).forEach { print($0) }
}

var defaultSDKPerCore: Double?
if options.includes("under load") {
    let measured = try await LabUnderLoad.measure(concurrent: options.quick ? 200 : 1000)
    defaultSDKPerCore = measured.perCore
    print("")
    print(measured.line)
}
if options.includes("split under load") {
    print("")
    print(try await SplitUnderLoad.measure(concurrent: options.quick ? 100 : 500, defaultSDKPerCore: defaultSDKPerCore))
}
// The same with the sessions in PostgreSQL (scripts/postgres.sh starts the database the tests use).
if options.includes("split shared store") {
    print("")
    print(
        try await SplitUnderLoad.measure(
            concurrent: options.quick ? 100 : 500, defaultSDKPerCore: defaultSDKPerCore,
            store: .postgres(
                SplitPostgresStore(
                    host: "127.0.0.1", username: "threeds_split", password: "threeds-split-test",
                    database: "threeds_split", sealingKey: SymmetricKey(size: .bits256)))))
}

print("")
try BinarySizes.report().forEach { print($0) }
