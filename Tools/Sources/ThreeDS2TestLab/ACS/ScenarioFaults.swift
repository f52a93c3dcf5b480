import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

extension Scenario {
    /// The raw patch a fault scenario plants in its first CRes (`ChallengeResponseBuilder.patched(_:)`), or `nil`
    /// when the first CRes is sent as built. The bad-tag, slow and Erro faults act on the JWE, the timing or the
    /// answer instead.
    var firstResponseFault: RawPatch? {
        switch self {
        case .faultWrongCounter: .set("acsCounterAtoS", .string("007"))
        case .faultWrongTransactionID: .set("sdkTransID", .string(UUID().uuidString.lowercased()))
        case .faultMissingField: .remove("challengeInfoHeader")
        case .faultCriticalExtension:
            .set(
                "messageExtension",
                .array([
                    .object([
                        "name": .string("TestLabCritical"), "id": .string("A999999999-001"),
                        "criticalityIndicator": .bool(true), "data": .object([:]),
                    ])
                ]))
        default: nil
        }
    }
}
