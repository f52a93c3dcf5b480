import BenchmarkFixtures
import ThreeDS2JOSE
import ThreeDS2Messages

extension ExchangeFixture {
    /// One challenge exchange as the SDK processes it (CReq built and encrypted, CRes decrypted, parsed and validated),
    /// against the cryptographic floor of that exchange (AES-CBC + HMAC each way over the same bytes).
    func measure(_ fixtures: Fixtures, options: Options) throws -> Measurement? {
        let channelKey = fixtures.channelKey
        let (encrypter, decrypter) = try Self.channel(fixtures)
        let cresParts = try ivAndCiphertext(ofCompact: String(decoding: cresBytes, as: UTF8.self))
        let expectation = expectation(acsCounter: 1)
        let creqLength = try builder.request(counter: 1, answer: ChallengeAnswer(.submitText("123456")))
            .serializedBytes.count
        return try options.compare(
            "challenge exchange (CReq out, CRes in), SDK side", iterations: 5000,
            composite: {
                try exchange(
                    counter: 1, answer: ChallengeAnswer(.submitText("123456")), cres: cresBytes,
                    expecting: expectation, encrypter: encrypter, decrypter: decrypter)
            },
            floor: {
                try cbcSealFloor([UInt8](repeating: 0x61, count: creqLength), key: channelKey, aadLength: 100)
                try cbcOpenFloor(cresParts.ciphertext, iv: cresParts.iv, key: channelKey, aadLength: 100)
            })
    }
}
