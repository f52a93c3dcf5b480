// The SDK's key composite operations under ordo-one/benchmark: time, allocations and peak memory per call, with
// thresholds (stored in `Benchmarks/Thresholds/`) that `swift package benchmark thresholds check` holds a run to.
// The ratio to each operation's floor stays in `threeds-benchmarks`, which measures both in the same run.

import Benchmark
import BenchmarkFixtures
import ThreeDS2JOSE
import ThreeDS2Messages

/// What the benchmarks work on, made once.
struct Subjects: Sendable {
    let fixtures: Fixtures
    let signedContents: SignedContents
    let exchange: ExchangeFixture
    let payment: PaymentFixture
    /// The SDK's channel of the exchange, made once per transaction as the SDK makes it.
    let encrypter: JWE.DirectEncrypter
    let decrypter: JWE.DirectDecrypter

    init() throws {
        fixtures = try Fixtures()
        signedContents = try SignedContents(fixtures)
        exchange = try ExchangeFixture(fixtures)
        payment = try PaymentFixture(fixtures, exchange: exchange, signedContent: signedContents.ps256)
        (encrypter, decrypter) = try ExchangeFixture.channel(fixtures)
    }
}

let benchmarks: @Sendable () -> Void = {
    // Allocations are exact: any new one fails the check. Time and memory vary with the machine and its load, so a
    // run may take a quarter longer, or a tenth more memory, before it fails (the README notes the run-to-run
    // variation on the 2-core machine). CPU time is not among the metrics: Linux reports it in 10 ms steps, longer
    // than any of these calls.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        maxDuration: .seconds(2),
        maxIterations: 2000,
        thresholds: [
            .mallocCountTotal: .init(absolute: [.p50: 0, .p90: 0]),
            .wallClock: .init(relative: [.p50: 25, .p90: 25]),
            .peakMemoryResident: .init(relative: [.p90: 10]),
        ]
    )
    let made = Result { try Subjects() }

    /// Registers a benchmark of `body`; making the subjects is not measured.
    func measure(_ name: String, _ body: @escaping @Sendable (Subjects) async throws -> Void) {
        Benchmark(name) { benchmark in
            let subjects = try made.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try await body(subjects) }
            benchmark.stopMeasurement()
        }
    }

    measure("P-256 key generation + JWK") { $0.fixtures.keyGenerationAndJWK() }
    measure("ECDH + Concat KDF") { try $0.fixtures.keyAgreementAndKDF() }
    measure("device data JWE 2 KB, RSA-OAEP-256") { try $0.fixtures.deviceDataRSA() }
    measure("device data JWE 2 KB, ECDH-ES P-256") { try $0.fixtures.deviceDataECDHES() }
    measure("ACS signed content check, PS256, 3-cert chain") {
        BenchmarkFixtures.blackHole(try await $0.fixtures.verifier.verify($0.signedContents.ps256.compact))
    }
    measure("ACS signed content check, ES256, 3-cert chain") {
        BenchmarkFixtures.blackHole(try await $0.fixtures.verifier.verify($0.signedContents.es256.compact))
    }
    measure("challenge exchange (CReq out, CRes in), SDK side") { subjects in
        try subjects.exchange.exchange(
            counter: 1, answer: ChallengeAnswer(.submitText("123456")), cres: subjects.exchange.cresBytes,
            expecting: subjects.exchange.expectation(acsCounter: 1), encrypter: subjects.encrypter,
            decrypter: subjects.decrypter)
    }
    measure("client side of one payment (no network)") { try await $0.payment.client() }
}
