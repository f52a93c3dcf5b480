import Crypto
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages

@Suite("Channel keys")
struct ChannelKeysTests {
    private func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }

    private func raw(_ key: SymmetricKey) -> [UInt8] { key.withUnsafeBytes { Array($0) } }

    @Test("the EMVCo channel example: whole key for CBC, first half SDK→ACS and second half ACS→SDK for GCM")
    func emvcoExample() {
        // Z, the reference number and the expected keys of `emvco_sdk_acs_channel` in the known-answer vectors.
        let keys = ChannelKeys(
            sharedSecret: bytes("5c32bc13f8eceb148abaf2a6b9dd1f6891bb2a80ab09347c64068231a59e8ca2"),
            sdkReferenceNumber: "3DS_LOA_SDK_PPFU_020100_00007")
        let cek = bytes("acd2d8899622ce560f2d98c273461613d0842b5ed1ae7cc60b4a475c95c3b102")
        #expect(raw(keys.sdkToACS(.a128cbcHS256)) == cek && raw(keys.acsToSDK(.a128cbcHS256)) == cek)
        #expect(raw(keys.sdkToACS(.a128gcm)) == bytes("acd2d8899622ce560f2d98c273461613"))
        #expect(raw(keys.acsToSDK(.a128gcm)) == bytes("d0842b5ed1ae7cc60b4a475c95c3b102"))
        #expect(
            keys.sdkToACSKeys.count == 2
                && raw(keys.acsToSDKKeys[.a128gcm]!) == bytes("d0842b5ed1ae7cc60b4a475c95c3b102"))
    }

    @Test("counter IVs: 0x00 fill from the SDK, 0xFF from the ACS, 16 bytes for CBC and 12 for GCM")
    func counterIVs() {
        #expect(
            ChannelKeys.counterIV(3, encryption: .a128cbcHS256, fromSDK: true) == [UInt8](repeating: 0, count: 15) + [3]
        )
        #expect(ChannelKeys.counterIV(255, encryption: .a128gcm, fromSDK: false) == [UInt8](repeating: 0xFF, count: 12))
        #expect(
            ChannelKeys.counterIV(1, encryption: .a128gcm, fromSDK: false) == [UInt8](repeating: 0xFF, count: 11) + [1])
    }
}
