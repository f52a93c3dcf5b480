import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

/// The ARes status rules a strict SDK client holds a 3DS Server to (issue 36, point 4).
@Suite("ARes: transStatus by version, and the challenge fields for C")
struct AuthenticationResponseRulesTests {
    @Test("Y, N, U, A, C and R in every version; D and I from 2.2.0; anything else is ares.transStatus.invalid")
    func statuses() {
        for version in [MessageVersion.v2_1_0, .v2_2_0, .v2_3_1] {
            for letter in ["Y", "N", "U", "A", "R"] {
                let audit = AuthenticationResponseRules.audit(["transStatus": .string(letter)], version: version)
                #expect(audit.isConformant && audit.reading?.rawValue == letter, "\(version) \(letter)")
            }
            let unknown = AuthenticationResponseRules.audit(["transStatus": .string("Z")], version: version)
            #expect(unknown.rules == [.aresTransStatusInvalid] && unknown.first?.field == "transStatus")
            #expect(unknown.first?.value == "Z")
        }
        for letter in ["D", "I"] {
            #expect(
                AuthenticationResponseRules.audit(["transStatus": .string(letter)], version: .v2_1_0).rules
                    == [.aresTransStatusInvalid])
            #expect(AuthenticationResponseRules.audit(["transStatus": .string(letter)], version: .v2_2_0).isConformant)
        }
    }

    @Test("a missing or non-string transStatus is ares.transStatus.missing")
    func missing() {
        #expect(AuthenticationResponseRules.audit([:], version: .v2_2_0).rules == [.aresTransStatusMissing])
        let number = AuthenticationResponseRules.audit(["transStatus": .number("1")], version: .v2_2_0)
        #expect(number.rules == [.aresTransStatusMissing])
    }

    @Test("C without the challenge fields reports each missing one")
    func challengeFields() {
        let ares: JSONObject = ["transStatus": .string("C"), "acsTransID": .string("x")]
        let audit = AuthenticationResponseRules.audit(ares, version: .v2_3_1)
        #expect(audit.rules.contains(.aresFieldMissing) && !audit.isConformant)
        #expect(audit.findings.contains { $0.field == "acsSignedContent" })
    }
}
