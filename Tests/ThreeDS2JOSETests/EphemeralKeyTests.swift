import Crypto
import Foundation
import Testing
import ThreeDS2JOSE

@Suite("Ephemeral P-256 keys")
struct EphemeralKeyTests {
    /// n, the order of P-256 (SEC 2, FIPS 186-4 D.1.2.3), big-endian.
    private static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// `value` added to a 32-byte big-endian number (wrapping).
    private static func adding(_ value: Int, to bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var carry = value
        for index in stride(from: 31, through: 0, by: -1) where carry != 0 {
            let sum = Int(result[index]) + carry
            result[index] = UInt8(truncatingIfNeeded: sum & 0xFF)
            carry = sum >> 8
            if sum < 0 { carry = -1 }
        }
        return result
    }

    @Test("a scalar is accepted exactly when it lies in [1, n − 1]")
    func scalarRange() {
        let zero = [UInt8](repeating: 0, count: 32)
        let one = Self.adding(1, to: zero)
        let nMinusOne = Self.adding(-1, to: Self.order)
        #expect(nMinusOne.last == 0x50)
        #expect(!P256.KeyAgreement.PrivateKey.isValidScalar(zero))
        #expect(P256.KeyAgreement.PrivateKey.isValidScalar(one))
        #expect(P256.KeyAgreement.PrivateKey.isValidScalar(nMinusOne))
        #expect(!P256.KeyAgreement.PrivateKey.isValidScalar(Self.order))
        #expect(!P256.KeyAgreement.PrivateKey.isValidScalar(Self.adding(1, to: Self.order)))
        #expect(!P256.KeyAgreement.PrivateKey.isValidScalar([UInt8](repeating: 0xFF, count: 32)))
        // Differences only in the low bytes, above and below n.
        var low = Self.order
        low[0] = 0xFE
        #expect(P256.KeyAgreement.PrivateKey.isValidScalar(low))
        var high = Self.order
        high[30] = 0x26
        #expect(!P256.KeyAgreement.PrivateKey.isValidScalar(high))
        // BoringSSL draws the same line: n − 1 makes a key, n does not.
        #expect((try? P256.KeyAgreement.PrivateKey(rawRepresentation: nMinusOne)) != nil)
        #expect((try? P256.KeyAgreement.PrivateKey(rawRepresentation: Self.order)) == nil)
    }

    @Test("keys are fresh, in range, and agree with each other and with swift-crypto's own keys")
    func freshKeys() throws {
        var scalars = Set<[UInt8]>()
        for _ in 0..<200 {
            let key = P256.KeyAgreement.PrivateKey.ephemeral()
            let scalar = Array(key.rawRepresentation)
            #expect(P256.KeyAgreement.PrivateKey.isValidScalar(scalar))
            scalars.insert(scalar)
            // The public key is the scalar's: rebuilding from the scalar gives the same point.
            let rebuilt = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
            #expect(rebuilt.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        }
        #expect(scalars.count == 200)
        let mine = P256.KeyAgreement.PrivateKey.ephemeral()
        let theirs = P256.KeyAgreement.PrivateKey()
        let one = try mine.sharedSecretFromKeyAgreement(with: theirs.publicKey)
        let other = try theirs.sharedSecretFromKeyAgreement(with: mine.publicKey)
        #expect(one == other)
    }

    @Test("the random bytes are not constant and fill the whole buffer")
    func randomFill() {
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        P256.KeyAgreement.PrivateKey.fillRandom(&first)
        P256.KeyAgreement.PrivateKey.fillRandom(&second)
        #expect(first != second)
        // Each of the 32 positions is written: over 64 fills, a position left at zero every time is a bug
        // (probability 2⁻⁵¹² for a working generator).
        var seen = [UInt8](repeating: 0, count: 32)
        for _ in 0..<64 {
            var bytes = [UInt8](repeating: 0, count: 32)
            P256.KeyAgreement.PrivateKey.fillRandom(&bytes)
            for index in 0..<32 { seen[index] |= bytes[index] }
        }
        #expect(seen.allSatisfy { $0 != 0 })
    }

    @Test("a JWK made from the signing form of a key equals the one from its agreement form, and verifies")
    func signingForm() throws {
        let signing = P256.Signing.PrivateKey()
        let fromSigning = P256PublicJWK(signing.publicKey)
        let agreement = try P256.KeyAgreement.PublicKey(rawRepresentation: signing.publicKey.rawRepresentation)
        let fromAgreement = P256PublicJWK(agreement)
        #expect(fromSigning == fromAgreement)
        #expect(fromSigning.hashValue == fromAgreement.hashValue)
        #expect(fromAgreement.signingKey.rawRepresentation == signing.publicKey.rawRepresentation)
        let message = Array("signed".utf8)
        let signature = try signing.signature(for: message)
        #expect(fromAgreement.signingKey.isValidSignature(signature, for: message))
        #expect(fromAgreement.x + fromAgreement.y == Array(signing.publicKey.rawRepresentation))
    }
}

@Suite("The crypto core's imports")
struct CryptoCoreImportTests {
    /// The JOSE module's sources, found from this file's place in the repository.
    private static var sourceFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ThreeDS2JOSE")
    }

    @Test("no source of the crypto core imports the standard library's internals or calls them by symbol name")
    func noStandardLibraryInternals() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sourceFolder.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: Self.sourceFolder.appendingPathComponent(file), encoding: .utf8)
            for forbidden in ["import SwiftShims", "swift_stdlib_", "@_silgen_name"] {
                #expect(!text.contains(forbidden), "\(file) uses \(forbidden)")
            }
        }
    }
}
