// The SDK's key composite operations under ordo-one/benchmark: CPU time, wall-clock time, allocations and peak
// memory per call, with thresholds (stored in `Thresholds/`) that `swift package benchmark thresholds check` holds a
// run to. The ratio to each operation's floor stays in `threeds-benchmarks`, which measures both in the same run.

import Benchmark
import BenchmarkFixtures
import Crypto
import ThreeDS2JOSE
import ThreeDS2Messages

let benchmarks: @Sendable () -> Void = {
    // Allocations are exact: any new one fails the check. Time varies with the machine and its load, so a run may
    // take a quarter longer before it fails (the README notes the run-to-run variation on the 2-core machine).
    Benchmark.defaultConfiguration = .init(
        metrics: [.cpuTotal, .wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .microseconds,
        maxDuration: .seconds(2),
        maxIterations: 2000,
        thresholds: [
            .mallocCountTotal: .init(absolute: [.p50: 0, .p90: 0]),
            .cpuTotal: .init(relative: [.p50: 25]),
            .wallClock: .init(relative: [.p50: 25]),
        ]
    )
    let made = Result {
        let fixtures = try Fixtures()
        let signedContents = try SignedContents(fixtures)
        let exchange = try ExchangeFixture(fixtures)
        let payment = try PaymentFixture(fixtures, exchange: exchange, signedContent: signedContents.ps256)
        return (fixtures, signedContents, exchange, payment)
    }

    Benchmark("P-256 key generation + JWK") { _ in
        BenchmarkFixtures.blackHole(P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey).jsonString)
    }

    Benchmark("ECDH + Concat KDF") { _ in
        let (fixtures, _, _, _) = try made.get()
        let secret = try fixtures.sdkKey.sharedSecretFromKeyAgreement(with: fixtures.acsKey)
        BenchmarkFixtures.blackHole(
            ConcatKDF.emvcoKey(sharedSecret: secret.withUnsafeBytes { Array($0) }, partyVInfo: fixtures.reference))
    }

    Benchmark("device data JWE 2 KB, RSA-OAEP-256") { _ in
        let (fixtures, _, _, _) = try made.get()
        BenchmarkFixtures.blackHole(
            try JWE.encrypt(
                fixtures.deviceData, to: .rsaOAEP256(publicKeyDER: fixtures.dsRSAPublicDER), encryption: .a128cbcHS256))
    }

    Benchmark("ACS signed content check, PS256, 3-cert chain") { _ in
        let (fixtures, signedContents, _, _) = try made.get()
        BenchmarkFixtures.blackHole(try await fixtures.verifier.verify(signedContents.ps256.compact))
    }

    Benchmark("ACS signed content check, ES256, 3-cert chain") { _ in
        let (fixtures, signedContents, _, _) = try made.get()
        BenchmarkFixtures.blackHole(try await fixtures.verifier.verify(signedContents.es256.compact))
    }

    Benchmark("challenge exchange (CReq out, CRes in), SDK side") { benchmark in
        let (fixtures, _, exchange, _) = try made.get()
        let (encrypter, decrypter) = try ExchangeFixture.channel(fixtures)
        let expectation = exchange.expectation(acsCounter: 1)
        benchmark.startMeasurement()
        try exchange.exchange(
            counter: 1, answer: ChallengeAnswer(.submitText("123456")), cres: exchange.cresBytes,
            expecting: expectation, encrypter: encrypter, decrypter: decrypter)
        benchmark.stopMeasurement()
    }

    Benchmark("client side of one payment (no network)") { _ in
        let (_, _, _, payment) = try made.get()
        try await payment.client()
    }
}
