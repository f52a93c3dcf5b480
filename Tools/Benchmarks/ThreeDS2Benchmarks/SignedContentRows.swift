import BenchmarkFixtures
import ThreeDS2JOSE

extension SignedContents {
    /// The SDK's check of each signed content (`X5CVerifier`) against its floor.
    func measure(_ fixtures: Fixtures, options: Options) async throws -> [Measurement?] {
        var results: [Measurement?] = []
        for (label, item) in [("PS256", ps256), ("ES256", es256)] {
            results.append(
                try await options.compareAsync(
                    "ACS signed content check, \(label), 3-cert chain", iterations: 300,
                    composite: { [verifier = fixtures.verifier] in blackHole(try await verifier.verify(item.compact)) },
                    floor: { try await item.floor() }))
        }
        return results
    }
}
