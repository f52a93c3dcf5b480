import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2Tools) import ThreeDS2SDK

/// Writes what a payment sent and received to a directory (`pay --save-messages DIR`, test systems only), as
/// `threeds inspect` reads it: `areq.json` (the AReq parameters posted to the 3DS Server, without the card number),
/// `ares.json` (its answer), and `creq-1.jwe`, `cres-1.jwe`, `creq-2.jwe`, … (each CReq and the ACS's answer to it; an
/// answer that is an Erro is `cres-N.json`); an Erro the SDK posts is `erro.json`. Files are created with mode 0600 through ``SecretFile``; the folder is
/// made 0700 when missing and refused when group or others can write to it, or when it holds an earlier payment's
/// messages (one payment per folder).
final class MessageCapture: Sendable {
    let directory: String
    private let exchanges = Locked(0)
    private let failures = Locked<[String]>([])

    /// Creates the directory (mode 0700, through ``SecretFile``) when missing; throws a usage error when it cannot be
    /// written, or when it exists and another user owns it or group or others may write to it (they could replace
    /// or read the saved messages).
    init(directory: String) throws {
        self.directory = directory
        let created: Bool
        do throws(PrivateFolder.Refusal) {
            // Made exclusively, or an existing folder accepted only when this user's alone: another local user who
            // wins a race to the name cannot hand over a folder of theirs (issue 42).
            created = try PrivateFolder.make(directory)
        } catch {
            throw CLIError("--save-messages \(directory): \(error.reason)")
        }
        if !created {
            // One payment per folder: an earlier payment's creq-3 or cres-3 left beside this one's would be read as
            // this payment's by `inspect`. Other files (this payment's key file, say) may share the folder.
            let present = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if let earlier = present.sorted().first(where: Self.isMessageFile) {
                throw CLIError(
                    "--save-messages \(directory): holds an earlier payment's messages (\(earlier)); give an empty or "
                        + "new folder for each payment")
            }
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw CLIError("--save-messages \(directory): is not writable")
        }
    }

    /// Whether a file name is one this capture writes: `areq.json`, `ares.json`, `creq-N.jwe`, `cres-N.jwe`,
    /// `cres-N.json` or `erro.json`.
    static func isMessageFile(_ name: String) -> Bool {
        if name == "areq.json" || name == "ares.json" || name == Self.errorFile { return true }
        guard name.hasPrefix("creq-") || name.hasPrefix("cres-") else { return false }
        let rest = name.dropFirst(5)
        let number = rest.prefix { $0.isASCII && $0.isNumber }
        return !number.isEmpty && [".jwe", ".json"].contains(String(rest.dropFirst(number.count)))
    }

    /// The files that could not be written.
    var failed: [String] { failures.withLock { $0 } }

    /// Saves the AReq parameters as posted, without `acctNumber` (the card number never reaches a file).
    func saveRequest(_ body: JSONObject) {
        var saved = body
        saved["acctNumber"] = nil
        write("areq.json", saved.serializedBytes)
    }

    /// Saves the 3DS Server's answer.
    func saveResponse(_ json: JSONObject) { write("ares.json", json.serializedBytes) }

    /// Saves one CReq/CRes exchange, numbered from 1.
    func saveExchange(request: [UInt8], response: [UInt8]?) {
        let number = exchanges.withLock {
            $0 += 1
            return $0
        }
        write("creq-\(number).jwe", request)
        if let response {
            write("cres-\(number).\(Self.isPlainJSON(response) ? "json" : "jwe")", response)
        }
    }

    /// Whether a body on the challenge channel is plain JSON (an Erro, a plaintext message) rather than a compact JWE,
    /// as the SDK reads it (``ChallengeChannelBody``).
    static func isPlainJSON(_ body: [UInt8]) -> Bool { ChallengeChannelBody.startsAsJSON(body) }

    /// The file of the Erro the SDK posted to the ACS (plain JSON, at most one per challenge).
    static let errorFile = "erro.json"

    /// Saves the Erro the SDK posted to the ACS: not a CReq, so not numbered with them.
    func saveErrorPost(_ body: [UInt8]) { write(Self.errorFile, body) }

    private func write(_ name: String, _ bytes: [UInt8]) {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        // Created 0600 from the start (O_EXCL, then renamed into place), never chmod'ed afterwards.
        do {
            try SecretFile.write(bytes, to: path)
        } catch {
            failures.withLock { $0.append(path) }
        }
    }
}

/// A transport that hands each CReq and its answer to a ``MessageCapture``.
struct CapturingTransport: ChallengeTransport {
    let base: any ChallengeTransport
    let capture: MessageCapture

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        // The SDK's Erro goes out as plain JSON (a CReq is JOSE): saved as what it is, whatever the ACS answers.
        if MessageCapture.isPlainJSON(request.body) {
            capture.saveErrorPost(request.body)
            return try await base.send(request)
        }
        do {
            let response = try await base.send(request)
            capture.saveExchange(request: request.body, response: response.body)
            return response
        } catch {
            capture.saveExchange(request: request.body, response: nil)
            throw error
        }
    }
}
