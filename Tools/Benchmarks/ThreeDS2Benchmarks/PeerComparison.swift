import BenchmarkFixtures
import Crypto
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2TestLab
import _CryptoExtras

/// The client's cost against an independent peer (`--peer PYTHON`): Python's `cryptography` over OpenSSL doing the
/// same steps on the same fixtures (`Tools/Interop/client_cost_peer.py`), measured in the same run, the same way.
enum PeerComparison {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One row: what is measured, the SDK's time and the peer's in microseconds.
    struct Row: Sendable {
        let label: String
        let sdk: Duration
        let peerMicroseconds: Double
    }

    /// The peer script, beside the package's other interoperability checks.
    static let script = BinarySizes.root.appendingPathComponent("Tools/Interop/client_cost_peer.py")

    /// Writes the fixtures the peer reads: the DS root, both signed contents, the directory server's RSA key and the
    /// payment's messages.
    static func writeFixtures(to directory: URL, payment: PaymentFixture, signedContents: SignedContents) throws {
        let fixtures = payment.fixtures
        let identifiers = payment.exchange.identifiers
        let paymentObject: JSONObject = [
            "deviceData": .string(String(decoding: fixtures.deviceData, as: UTF8.self)),
            "channelKey": .string(
                fixtures.channelKey.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }),
            "sdkReferenceNumber": .string(fixtures.reference),
            "identifiers": .object([
                "threeDSServerTransID": .string(identifiers.threeDSServerTransID),
                "acsTransID": .string(identifiers.acsTransID), "sdkTransID": .string(identifiers.sdkTransID),
            ]),
            "creq": .array(payment.requests.map { .object($0) }),
            "cres": .array(payment.cres.map { .string(String(decoding: $0, as: UTF8.self)) }),
        ]
        let files = [
            "root.pem": try fixtures.root.certificatePEM, "ps256.jws": signedContents.ps256.compact,
            "es256.jws": signedContents.es256.compact,
            "ds-rsa.pem": try _RSA.Encryption.PublicKey(derRepresentation: fixtures.dsRSAPublicDER).pemRepresentation,
            "payment.json": paymentObject.serialized,
        ]
        for (name, text) in files {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }

    /// Measures the SDK's side, then runs the peer on the same fixtures (each on an otherwise idle machine).
    static func measure(
        python: String, payment: PaymentFixture, signedContents: SignedContents, options: Options
    ) async throws -> [Row] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "threeds-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFixtures(to: directory, payment: payment, signedContents: signedContents)
        let verifier = payment.fixtures.verifier
        let (ps256, es256) = (signedContents.ps256.compact, signedContents.es256.compact)
        let sdk: [String: Duration] = [
            "keygen_jwk": try await options.time(iterations: 2000) {
                blackHole(P256PublicJWK(P256.KeyAgreement.PrivateKey.ephemeral().publicKey).jsonString)
            },
            "keygen": try await options.time(iterations: 2000) { blackHole(P256.KeyAgreement.PrivateKey.ephemeral()) },
            "signed_content_ps256": try await options.time(iterations: 300) {
                blackHole(try await verifier.verify(ps256))
            },
            "signed_content_es256": try await options.time(iterations: 300) {
                blackHole(try await verifier.verify(es256))
            },
            "payment": try await options.time(iterations: 200) { try await payment.client() },
        ]
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, directory.path, String(options.rounds), options.quick ? "20" : "1"]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, case .object(let peer) = try JSONParser().parse(Array(data)) else {
            throw Failure(
                description: "\(python) \(script.path) exited \(process.terminationStatus) or printed no JSON object")
        }
        let rows = [
            ("P-256 key generation + JWK", "keygen_jwk"), ("P-256 key generation alone", "keygen"),
            ("ACS signed content check, PS256, 3-cert chain", "signed_content_ps256"),
            ("ACS signed content check, ES256, 3-cert chain", "signed_content_es256"),
            ("client side of one payment (no network)", "payment"),
        ]
        return rows.map { label, key in
            let microseconds: Double
            if case .number(let text) = peer[key] { microseconds = Double(text) ?? .nan } else { microseconds = .nan }
            return Row(label: label, sdk: sdk[key]!, peerMicroseconds: microseconds)
        }
    }
}
