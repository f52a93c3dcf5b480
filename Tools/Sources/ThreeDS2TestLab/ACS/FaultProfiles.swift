public import ThreeDS2ACSKit
import ThreeDS2JOSE
public import ThreeDS2Messages

/// One change the TestLab ACS makes to a CRes just before encrypting it, to plant a known violation
/// (`threeds conform` must report its rule and nothing else).
public struct ACSFaultPatch: Sendable, Hashable, CustomStringConvertible {
    /// Which CRes of a challenge the patch applies to.
    public enum Target: String, Sendable, Hashable {
        /// The first CRes (the answer to the first CReq).
        case first
        /// Every final CRes (`challengeCompletionInd` `Y`), whatever answered it.
        case final
        /// The ARes the TestLab 3DS Server answers with.
        case authenticationResponse
        /// The ACS signed content's payload, before it is signed.
        case signedContent
        /// The RReq the ACS sends through the DS after the challenge.
        case resultsRequest
    }

    /// Which CRes is patched.
    public let target: Target
    /// The change, in the ACS kit's one patch vocabulary (the builder's raw-patch step applies it).
    public let patch: RawPatch
    /// The rules the change breaks (several when it sets an object whose keys break different rules).
    public let rules: [ConformanceRule]

    /// Creates a patch.
    ///
    /// - Parameters:
    ///   - target: Which CRes of a challenge the patch applies to.
    ///   - patch: The change.
    ///   - rules: The rules the change breaks.
    public init(_ target: Target, _ patch: RawPatch, breaks rules: ConformanceRule...) {
        self.target = target
        self.patch = patch
        self.rules = rules
    }

    init(target: Target, patch: RawPatch, rules: [ConformanceRule]) {
        self.target = target
        self.patch = patch
        self.rules = rules
    }

    /// `first: set acsCounterAtoS to "7"`: the target and the patch.
    public var description: String { "\(target.rawValue): \(patch)" }
}

/// A TestLab ACS profile that plants known violations in its CRes: a scenario's screens, with patches per message
/// version. A profile is selected by its card number (``cardNumber``); a version without patches is the conformant
/// scenario. The profiles and their rules are listed in the tools manual (Tools/README.md, "Fault profiles").
public struct ACSFaultProfile: Sendable, Hashable, CustomStringConvertible {
    /// The profile's name (`conform-texts`).
    public let name: String
    /// The scenario whose screens the profile starts from.
    public let scenario: Scenario
    /// The patches per message version.
    public let patches: [MessageVersion: [ACSFaultPatch]]
    /// The faults per message version that are no JSON patch: in the first CRes's JWE, or the signed content's bytes.
    public let rawFaults: [MessageVersion: ACSRawFault]
    /// Whether `threeds conform` runs the profile without an app opener (`--no-app-opener`).
    public let withoutAppOpener: Bool
    /// Whether the ACS sends its RReq twice (the duplicate-results fault: the second is answered with Erro 312 in
    /// 2.3.1, 301 before).
    public let duplicatesResults: Bool
    /// The lab's DS fault for a Split-SDK AReq on this card (a Default-SDK AReq runs the scenario unchanged).
    public let splitFault: SplitSDKFault?

    /// Whether the profile plants a rule the SDK tolerates, which `threeds conform` reports only with `--strict`.
    public var needsStrict: Bool {
        MessageVersion.supported.contains { plantedRules($0).contains { $0.tolerance != nil } }
    }

    /// The profile's position in ``all``, which gives its card number.
    let index: Int

    /// The name.
    public var description: String { name }

    /// The rules the profile plants in a version's challenges, each once, in the order of its patches.
    public func plantedRules(_ version: MessageVersion) -> [ConformanceRule] {
        var seen: Set<ConformanceRule> = []
        let rules = (patches[version] ?? []).flatMap(\.rules) + (rawFaults[version].map { [$0.rule] } ?? [])
        return rules.filter { seen.insert($0).inserted }
    }

    /// The card number that selects the profile: `400000000008`, the profile's index in three digits, and a Luhn
    /// check digit.
    public var cardNumber: String {
        let index = String(index)
        let body = "400000000008" + String(repeating: "0", count: 3 - index.count) + index
        return body + String(Luhn.checkDigit(for: body))
    }

    /// The profile a card number selects, if any.
    public init?(cardNumber: String) {
        guard let match = Self.all.first(where: { $0.cardNumber == cardNumber }) else { return nil }
        self = match
    }

    init(
        _ index: Int, _ name: String, _ scenario: Scenario, _ patches: [MessageVersion: [ACSFaultPatch]],
        raw: [MessageVersion: ACSRawFault] = [:], withoutAppOpener: Bool = false, duplicatesResults: Bool = false,
        splitFault: SplitSDKFault? = nil
    ) {
        self.splitFault = splitFault
        self.duplicatesResults = duplicatesResults
        self.index = index
        self.name = name
        self.scenario = scenario
        self.patches = patches
        self.rawFaults = raw
        self.withoutAppOpener = withoutAppOpener
    }

    /// The patches of the ARes (`.authenticationResponse`), of the signed content's payload (`.signedContent`) or of
    /// the RReq (`.resultsRequest`) in a version.
    ///
    /// - Parameters:
    ///   - target: Which of the two.
    ///   - version: The transaction's message version.
    /// - Returns: The patches, in order.
    public func patches(for target: ACSFaultPatch.Target, version: MessageVersion) -> [RawPatch] {
        (patches[version] ?? []).filter { $0.target == target }.map(\.patch)
    }

    /// The patches the ACS applies to a CRes about to be encrypted, in order: the `number`th of its challenge (from
    /// 1), final or not.
    ///
    /// - Parameters:
    ///   - number: Which CRes of the challenge it is.
    ///   - isFinal: Whether it is a final CRes (`challengeCompletionInd` `Y`).
    ///   - version: The challenge's message version.
    /// - Returns: The patches, for the CRes builder's raw-patch step.
    public func patches(response number: Int, isFinal: Bool, version: MessageVersion) -> [RawPatch] {
        (patches[version] ?? []).compactMap { patch in
            switch patch.target {
            case .first where number == 1, .final where isFinal: patch.patch
            case .first, .final, .authenticationResponse, .signedContent, .resultsRequest: nil
            }
        }
    }
}
