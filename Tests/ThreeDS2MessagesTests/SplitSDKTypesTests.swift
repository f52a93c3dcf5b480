import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

/// The Split-SDK's messages-level values: `splitSdkType`, the server ID and the signature timestamp (the signed
/// content is server-side: `SDKServerSignedContentTests` in the ACS kit's tests).
@Suite("Split-SDK types")
struct SplitSDKTypesTests {
    @Test("splitSdkType: JSON out and in; Native is 01; a reserved or DS variant stays representable")
    func splitSDKTypeJSON() {
        let native = SplitSDKType(variant: .native, isLimited: false)
        #expect(native.json.serialized == #"{"sdkVariant":"01","limitedInd":"N"}"#)
        #expect(SplitSDKType(.object(native.json)) == native)
        let limited = SplitSDKType(variant: SDKVariant(rawValue: "80"), isLimited: true)
        #expect(limited.json.serialized == #"{"sdkVariant":"80","limitedInd":"Y"}"#)
        #expect(SplitSDKType(.object(limited.json)) == limited)
        #expect(DefaultSDKType.Variant.native == SDKVariant.native)
    }

    @Test("splitSdkType: every malformed object is refused")
    func splitSDKTypeRefusals() {
        let refused: [JSONValue?] = [
            nil, .string("01"), .object(["sdkVariant": .string("01")]), .object(["limitedInd": .string("N")]),
            .object(["sdkVariant": .string("1"), "limitedInd": .string("N")]),
            .object(["sdkVariant": .string("0A"), "limitedInd": .string("N")]),
            .object(["sdkVariant": .string("001"), "limitedInd": .string("N")]),
            .object(["sdkVariant": .number("1"), "limitedInd": .string("N")]),
            .object(["sdkVariant": .string("01"), "limitedInd": .string("y")]),
            .object(["sdkVariant": .string("01"), "limitedInd": .bool(false)]),
        ]
        for value in refused { #expect(SplitSDKType(value) == nil, "\(String(describing: value))") }
    }

    @Test("the Split-SDK Server ID: 1–32 printable ASCII characters")
    func serverIDBounds() {
        #expect(SplitSDKServerID(String(repeating: "A", count: 32))?.rawValue.count == 32)
        #expect(SplitSDKServerID("LAB SPLIT ~1") != nil)
        for bad in ["", String(repeating: "A", count: 33), "caf\u{E9}", "a\u{7}b", "tab\there", "\u{7F}"] {
            #expect(SplitSDKServerID(bad) == nil, "\(bad.debugDescription)")
        }
    }

    @Test("the SDK Signature Timestamp: YYYYMMDDHHMMSS in UTC, round trip; impossible dates refused")
    func timestamp() throws {
        let stamp = try #require(SDKSignatureTimestamp(text: "20261128080000"))
        #expect(stamp.date == Date(timeIntervalSince1970: 1_795_852_800))
        #expect(SDKSignatureTimestamp(Date(timeIntervalSince1970: 1_795_852_800.9)) == stamp)
        #expect(SDKSignatureTimestamp(text: "20240229235959")?.text == "20240229235959")
        for bad in [
            "2026112808000", "202611280800000", "2026112808000a", "20261328080000", "20261131080000",
            "20250229080000", "20261128240000", "20261128086000", "20261128080060", "19991231235959",
            "２０２６1128080000",
        ] {
            #expect(SDKSignatureTimestamp(text: bad) == nil, "\(bad)")
        }
    }

}
