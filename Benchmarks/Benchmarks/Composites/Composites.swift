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
    // Allocations nearly repeat from run to run (RSA-OAEP's varied by two at the 90th percentile): a run may make two
    // more per call at the median and four at the 90th percentile before it fails. Time and memory vary with the
    // machine and its load, so a run may take a quarter longer, or a tenth more memory (the README notes the
    // run-to-run variation on the 2-core machine). CPU time is not among the metrics: Linux reports it in 10 ms
    // steps, longer than any of these calls.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        maxDuration: .seconds(2),
        maxIterations: 2000,
        thresholds: [
            .mallocCountTotal: .init(absolute: [.p50: 2, .p90: 4]),
            .wallClock: .init(relative: [.p50: 25, .p90: 25]),
            .peakMemoryResident: .init(relative: [.p90: 10]),
        ]
    )
    let made = Result { try Subjects() }

    /// Registers a benchmark of `body`; making the subjects is not measured. The names are those of the
    /// `threeds-benchmarks` rows, without spaces: package-benchmark 1.38 writes a threshold file with its spaces
    /// replaced but looks for it under the name as given.
    func measure(_ name: String, _ body: @escaping @Sendable (Subjects) async throws -> Void) {
        Benchmark(name) { benchmark in
            let subjects = try made.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try await body(subjects) }
            benchmark.stopMeasurement()
        }
    }

    measure("KeyGenerationAndJWK") { $0.fixtures.keyGenerationAndJWK() }
    measure("ECDHAndConcatKDF") { try $0.fixtures.keyAgreementAndKDF() }
    measure("DeviceDataJWE-RSA-OAEP-256") { try $0.fixtures.deviceDataRSA() }
    measure("DeviceDataJWE-ECDH-ES-P-256") { try $0.fixtures.deviceDataECDHES() }
    measure("SignedContentCheck-PS256") {
        BenchmarkFixtures.blackHole(try await $0.fixtures.verifier.verify($0.signedContents.ps256.compact))
    }
    measure("SignedContentCheck-ES256") {
        BenchmarkFixtures.blackHole(try await $0.fixtures.verifier.verify($0.signedContents.es256.compact))
    }
    measure("ChallengeExchange") { subjects in
        try subjects.exchange.exchange(
            counter: 1, answer: ChallengeAnswer(.submitText("123456")), cres: subjects.exchange.cresBytes,
            expecting: subjects.exchange.expectation(acsCounter: 1), encrypter: subjects.encrypter,
            decrypter: subjects.decrypter)
    }
    measure("ClientPayment") { try await $0.payment.client() }
}
