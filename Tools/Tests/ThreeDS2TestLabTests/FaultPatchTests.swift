import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2TestLab

@Suite("Fault profiles made of the ACS kit's raw patches: inspectable, applied to the CRes they target")
struct FaultPatchTests {
    static func profile(_ name: String) throws -> ACSFaultProfile {
        try #require(ACSFaultProfile.all.first { $0.name == name })
    }

    @Test("a profile's patches are values a test can read: the field and what is done to it")
    func inspectable() throws {
        let counter = try Self.profile("conform-counter")
        let patches = counter.patches[.v2_2_0] ?? []
        #expect(patches.map(\.patch) == [.set("acsCounterAtoS", .string("005"))])
        #expect(patches.map(\.description) == [#"first: set acsCounterAtoS to "005""#])
        #expect(patches.first?.patch.path == ["acsCounterAtoS"])
        // Every patch of every profile names a field, and a profile's patches for one version touch different
        // fields (so an audit reports each once).
        for profile in ACSFaultProfile.all {
            for (version, list) in profile.patches {
                #expect(list.allSatisfy { !$0.patch.path.isEmpty }, "\(profile) \(version)")
                let fields = list.map { $0.patch.path.joined(separator: ".") }
                #expect(Set(fields).count == fields.count, "\(profile) \(version): \(fields)")
            }
        }
    }

    @Test("first-CRes patches reach only the first CRes, final ones every final CRes, per version")
    func targets() throws {
        let identifiers = try Self.profile("conform-identifiers")
        #expect(identifiers.patches(response: 1, isFinal: false, version: .v2_1_0).count == 3)
        #expect(identifiers.patches(response: 2, isFinal: false, version: .v2_1_0).isEmpty)
        #expect(identifiers.patches(response: 2, isFinal: true, version: .v2_1_0).isEmpty)
        let final = try Self.profile("conform-final-status")
        #expect(final.patches(response: 1, isFinal: false, version: .v2_2_0).isEmpty)
        #expect(final.patches(response: 1, isFinal: true, version: .v2_2_0) == [.set("transStatus", .string("D"))])
        #expect(final.patches(response: 3, isFinal: true, version: .v2_1_0) == [.remove("transStatus")])
        #expect(final.patches(response: 3, isFinal: true, version: try #require(MessageVersion("2.4.0"))).isEmpty)
    }
}
