import ThreeDS2Messages
import ThreeDS2SDK

extension ConformChecks {
    /// The results leg, where the 3DS Server can tell it (`GET /3ds/result`, or `--result-exec`): the ACS sent one
    /// RReq, the 3DS Server accepted it, and its status is the final CRes's. Nothing when the server was not asked or
    /// does not know the transaction (a 3DS Server without the endpoint), or for a frictionless payment.
    var resultChecks: [ConformCheck] {
        guard payment.flow == .challenge, let result = payment.authoritative else { return [] }
        var checks: [ConformCheck] = [
            .expect(
                result.resultsRequestCount == 1, "the ACS sent exactly one RReq",
                "the 3DS Server received \(result.resultsRequestCount)"),
            .expect(
                result.refusals.isEmpty, "the 3DS Server accepted the RReq",
                result.refusals.isEmpty ? "accepted" : "refused: " + result.refusals.joined(separator: ", ")),
        ]
        if case .completed(let status)? = payment.challengeOutcome {
            let disagreement = result.disagreement(withFinalCRes: status)
            checks.append(
                .expect(
                    disagreement == nil, "the result (RReq) agrees with the final CRes",
                    disagreement ?? "both \(status)"))
        }
        return checks
    }
}
