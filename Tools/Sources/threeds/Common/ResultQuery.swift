import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

/// A transaction's authoritative result as a 3DS Server holds it (the TestLab's `GET /3ds/result` answer, or what
/// `--result-exec` prints in the same shape): `state` `pending` or `final`, and the outcome once final.
struct AuthoritativeResult: Sendable {
    /// The answer as received.
    let json: JSONObject

    /// Whether the result is known (`state` `final`).
    var isFinal: Bool { json["state"] == .string("final") }
    /// The authoritative `transStatus`, once final.
    var transStatus: TransactionStatus? {
        guard isFinal else { return nil }
        return json["transStatus"]?.stringValue.map(TransactionStatus.init(rawValue:))
    }
    /// Where it came from: `RReq` after a challenge, `ARes` without one.
    var source: String { json["source"]?.stringValue ?? "3DS Server" }
    /// How many RReqs the 3DS Server received (more than one is a duplicate).
    var resultsRequestCount: Int {
        guard case .number(let text)? = json["resultsRequestCount"] else { return 0 }
        return Int(text) ?? 0
    }
    /// The Erro codes the 3DS Server answered refused RReqs with.
    var refusals: [String] {
        json["refusals"]?.arrayValue?.compactMap { entry in
            guard let code = entry.objectValue?["errorCode"]?.stringValue else { return nil }
            let field = entry.objectValue?["errorDetail"]?.stringValue ?? ""
            return ReportText.line("\(code) \(field)".trimmingCharacters(in: .whitespaces))
        } ?? []
    }

    /// `Result (RReq): transStatus Y`, or what is missing.
    var line: String {
        var text =
            transStatus.map { "Result (\(ReportText.line(source))): transStatus \(ReportText.line($0.rawValue))" }
            ?? "Result: pending (the 3DS Server has no result for this transaction yet)"
        if let reason = json["transStatusReason"]?.stringValue { text += ", reason \(ReportText.line(reason))" }
        if let cancel = json["challengeCancel"]?.stringValue { text += ", challengeCancel \(ReportText.line(cancel))" }
        if resultsRequestCount > 1 { text += "; \(resultsRequestCount) RReqs received (duplicate)" }
        if !refusals.isEmpty { text += "; refused: \(refusals.joined(separator: ", "))" }
        return text
    }

    /// Why the result and the challenge's end disagree, or `nil` when they agree (or cannot: a challenge that ended
    /// without a final CRes status has nothing to compare, and a U after a cancel is the documented case).
    ///
    /// - Parameter finalStatus: The final CRes's status, when the challenge completed.
    func disagreement(withFinalCRes finalStatus: TransactionStatus?) -> String? {
        guard let finalStatus else { return nil }
        guard let transStatus else {
            return "the final CRes said \(finalStatus) but the 3DS Server has no result"
        }
        guard transStatus != finalStatus else { return nil }
        return "the final CRes said \(finalStatus) but the \(ReportText.line(source)) says \(transStatus)"
    }
}

/// Asks a 3DS Server for a transaction's result: the TestLab contract's `GET /3ds/result` (`--server`), or the
/// tester's command (`--result-exec`), which gets `{"threeDSServerTransID"|"sdkTransID": …}` on standard input and
/// prints the result object.
struct ResultQuery: Sendable {
    /// Where the question goes.
    enum Target: Sendable {
        case server(URL)
        case exec(command: String, timeLimit: Duration)
    }

    /// Which transaction: by one of its two identifiers.
    enum Key: Sendable {
        case threeDSServerTransID(String)
        case sdkTransID(String)

        var name: String {
            switch self {
            case .threeDSServerTransID: "threeDSServerTransID"
            case .sdkTransID: "sdkTransID"
            }
        }
        var value: String {
            switch self {
            case .threeDSServerTransID(let id), .sdkTransID(let id): id
            }
        }
    }

    let target: Target
    /// The largest answer read.
    static let maxBytes = 256 * 1024

    /// The result, or `nil` when the 3DS Server does not know the transaction.
    func fetch(_ key: Key, transport: any ChallengeTransport) async throws -> AuthoritativeResult? {
        switch target {
        case .server(let base):
            var components = URLComponents(
                url: base.appendingPathComponent("3ds/result"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: key.name, value: key.value)]
            guard let url = components?.url else { throw CLIError("the result URL cannot be built", exitStatus: 1) }
            let response = try await transport.send(
                TransportRequest(method: .get, url: url, timeout: .seconds(30), maxResponseBytes: Self.maxBytes))
            if response.status == 404 { return nil }
            guard response.status == 200 else {
                throw CLIError("the 3DS Server answered the result query with HTTP \(response.status)", exitStatus: 1)
            }
            return try Self.parse(response.body, from: "the 3DS Server")
        case .exec(let command, let timeLimit):
            let input: JSONObject = [key.name: .string(key.value)]
            guard
                let outcome = await ShellCommand.run(
                    command, input: input.serializedBytes, capturingOutput: true, maxOutputBytes: Self.maxBytes,
                    timeLimit: timeLimit)
            else { throw CLIError("--result-exec: /bin/sh could not be started", exitStatus: 1) }
            guard !outcome.timedOut, outcome.status == 0 else {
                throw CLIError("--result-exec: the command failed or ran too long", exitStatus: 1)
            }
            if outcome.output.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { return nil }
            return try Self.parse(outcome.output, from: "--result-exec's command")
        }
    }

    /// Asks until the result is final (or an RReq was refused) or `wait` has passed (the RReq may trail the
    /// challenge's end).
    func awaitFinal(_ key: Key, transport: any ChallengeTransport, wait: Duration) async throws -> AuthoritativeResult?
    {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: wait)
        while true {
            let result = try await fetch(key, transport: transport)
            // Final, or an RReq arrived and was refused (it will not become final): nothing to wait for.
            if result?.isFinal == true || (result?.resultsRequestCount ?? 0) > 0 || clock.now >= deadline {
                return result
            }
            try await clock.sleep(for: .milliseconds(50))
        }
    }

    static func parse(_ body: [UInt8], from who: String) throws -> AuthoritativeResult {
        guard case .object(let object)? = try? JSONParser(limits: .init(maxBytes: maxBytes, maxDepth: 16)).parse(body)
        else { throw CLIError("\(who) did not answer the result query with one JSON object", exitStatus: 1) }
        return AuthoritativeResult(json: object)
    }
}
