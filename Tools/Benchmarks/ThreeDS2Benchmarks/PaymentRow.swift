import BenchmarkFixtures

extension PaymentFixture {
    /// The client side of one payment against the sum of its steps' floors.
    func measure(options: Options) async throws -> Measurement? {
        try await options.compareAsync(
            "client side of one payment (no network)", iterations: 200, composite: { try await client() },
            floor: { try await floor() })
    }
}
