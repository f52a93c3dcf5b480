import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE

@Suite("RawPatch: an inspectable value, the one patch vocabulary")
struct RawPatchTests {
    @Test("a patch names its path and its operation; equal patches compare equal and collapse in a set")
    func inspectable() {
        let nested = RawPatch.set(.number("7"), at: "challengeEntryBox", "challengeDataEntryLengthMax")
        #expect(nested.path == ["challengeEntryBox", "challengeDataEntryLengthMax"])
        #expect(nested.operation == .set(.number("7")))
        #expect(RawPatch.remove("challengeInfoHeader").path == ["challengeInfoHeader"])
        #expect(RawPatch.remove("challengeInfoHeader").operation == .remove)
        #expect(RawPatch.set("acsCounterAtoS", .string("007")) == .set("acsCounterAtoS", .string("007")))
        #expect(RawPatch.set("acsCounterAtoS", .string("007")) != .set("acsCounterAtoS", .string("7")))
        #expect(RawPatch.remove("a") != .remove(at: "a", "b"))
        let patches: Set<RawPatch> = [.remove("a"), .remove("a"), .set("a", .null)]
        #expect(patches.count == 2)
    }

    @Test("its description says what it does, the value as JSON text")
    func description() {
        #expect(RawPatch.remove("challengeInfoHeader").description == "remove challengeInfoHeader")
        #expect(RawPatch.set("acsCounterAtoS", .string("007")).description == #"set acsCounterAtoS to "007""#)
        #expect(
            RawPatch.remove(at: "challengeEntryBox", "challengeDataEntryLabel").description
                == "remove challengeEntryBox.challengeDataEntryLabel")
        #expect(
            RawPatch.set(.array([.bool(true)]), at: "a", "b").description == "set a.b to [true]")
    }

    @Test("applied: a top-level member removed or set (added at the end); nested objects created or replaced")
    func apply() {
        var object: JSONObject = ["a": .string("x"), "b": .number("1"), "c": .string("not an object")]
        RawPatch.remove("a").apply(to: &object)
        RawPatch.remove("absent").apply(to: &object)
        RawPatch.set("d", .bool(false)).apply(to: &object)
        RawPatch.set(.number("7"), at: "box", "max").apply(to: &object)
        RawPatch.set(.string("y"), at: "c", "inner").apply(to: &object)
        #expect(object.names == ["b", "c", "d", "box"])
        #expect(object["box"] == .object(["max": .number("7")]))
        #expect(object["c"] == .object(["inner": .string("y")]))
        RawPatch.remove(at: "box", "max").apply(to: &object)
        #expect(object["box"] == .object([:]))
    }
}
