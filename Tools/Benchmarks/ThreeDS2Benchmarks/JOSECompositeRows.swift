import BenchmarkFixtures
import Crypto
import Foundation
import ThreeDS2JOSE
import ThreeDS2Messages

/// The key, key-agreement, device-data and channel rows: each composite JOSE operation of the SDK against the bare
/// operations it is built from.
enum JOSECompositeRows {
    static func measure(_ fixtures: Fixtures, options: Options) throws -> [Measurement?] {
        // Name, calls per round, composite, floor. The key-generation floor is the bare scalar multiplication and the
        // affine coordinates of its result (the scalar drawn once, outside the loop); the key-agreement floor is ECDH
        // plus one SHA-256 over the same KDF input; the device data is 2 KB, to an RSA-2048 and to a P-256
        // directory-server key.
        let rows: [(String, Int, () throws -> Void, () throws -> Void)] = [
            ("P-256 key generation + JWK", 2000, fixtures.keyGenerationAndJWK, fixtures.keyGenerationFloor),
            ("ECDH + Concat KDF", 2000, fixtures.keyAgreementAndKDF, fixtures.keyAgreementFloor),
            ("device data JWE 2 KB, RSA-OAEP-256", 500, fixtures.deviceDataRSA, fixtures.deviceDataRSAFloor),
            ("device data JWE 2 KB, ECDH-ES P-256", 1000, fixtures.deviceDataECDHES, fixtures.deviceDataECDHESFloor),
        ]
        var results = try rows.map { name, iterations, composite, floor in
            try options.compare(name, iterations: iterations, composite: composite, floor: floor)
        }
        results += try channelRows(fixtures, options: options)
        return results
    }

    /// One direction pair of the channel: the keys, a CRes sealed by the ACS, the SDK's counter IV and the floor.
    private struct ChannelCase {
        let encryption: ContentEncryption
        let sendKey: SymmetricKey
        let receiveKey: SymmetricKey
        let cres: String
        let iv: [UInt8]
        let floor: () throws -> Void
    }

    /// CReq encrypt + CRes decrypt of 1 KB, in both content encryptions: through the SDK's channel
    /// (`JWE.DirectEncrypter`/`DirectDecrypter`, which prepare their keys and CReq header once per transaction and
    /// work on HTTP body bytes), then through the one-shot JWE calls, which check and split the key and build the
    /// header for every message and work on strings. The floors seal with a fixed IV as well.
    private static func channelRows(_ fixtures: Fixtures, options: Options) throws -> [Measurement?] {
        let message = fixtures.message
        let acsTransID = fixtures.acsTransID
        let channelKey = fixtures.channelKey
        let cresCBC = try JWE.encrypt(message, to: .direct(channelKey), encryption: .a128cbcHS256, keyID: acsTransID)
        let cresCBCParts = try ivAndCiphertext(ofCompact: cresCBC)
        let gcmKeyStoA = fixtures.channelKeys.sdkToACS(.a128gcm)
        let gcmKeyAtoS = fixtures.channelKeys.acsToSDK(.a128gcm)
        let cresGCM = try JWE.encrypt(message, to: .direct(gcmKeyAtoS), encryption: .a128gcm, keyID: acsTransID)
        let cresGCMParts = cresGCM.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let cresGCMIV = try Base64.urlDecode(cresGCMParts[2])
        let cresGCMCiphertext = try Base64.urlDecode(cresGCMParts[3])
        let cresGCMTag = try Base64.urlDecode(cresGCMParts[4])
        let cresGCMAAD = Array(cresGCMParts[0].utf8)
        let counterIVCBC = ChannelKeys.counterIV(1, encryption: .a128cbcHS256, fromSDK: true)
        let counterIVGCM = ChannelKeys.counterIV(1, encryption: .a128gcm, fromSDK: true)

        let channelCases = [
            ChannelCase(
                encryption: .a128cbcHS256, sendKey: channelKey, receiveKey: channelKey, cres: cresCBC,
                iv: counterIVCBC,
                floor: {
                    try cbcSealFloor(message, key: channelKey, aadLength: 100)
                    try cbcOpenFloor(cresCBCParts.ciphertext, iv: cresCBCParts.iv, key: channelKey, aadLength: 100)
                }),
            ChannelCase(
                encryption: .a128gcm, sendKey: gcmKeyStoA, receiveKey: gcmKeyAtoS, cres: cresGCM, iv: counterIVGCM,
                floor: {
                    blackHole(
                        try AES.GCM.seal(
                            message, using: gcmKeyStoA, nonce: AES.GCM.Nonce(data: counterIVGCM),
                            authenticating: [UInt8](repeating: 0, count: 100)))
                    // The CRes side: the sealed box is assembled from its parts, as any decryption must.
                    let box = try AES.GCM.SealedBox(
                        nonce: AES.GCM.Nonce(data: cresGCMIV), ciphertext: cresGCMCiphertext, tag: cresGCMTag)
                    blackHole(try AES.GCM.open(box, using: gcmKeyAtoS, authenticating: cresGCMAAD))
                }),
        ]
        var results: [Measurement?] = []
        for item in channelCases {
            let encrypter = try JWE.DirectEncrypter(key: item.sendKey, encryption: item.encryption, keyID: acsTransID)
            let decrypter = try JWE.DirectDecrypter(
                keys: [item.encryption: item.receiveKey],
                expecting: JWE.Expectations(encryptions: [item.encryption], keyID: .exactly(acsTransID)))
            let cresBytes = Array(item.cres.utf8)
            results.append(
                try options.compare(
                    "CReq encrypt + CRes decrypt 1 KB, \(item.encryption.rawValue)", iterations: 5000,
                    composite: {
                        blackHole(try encrypter.encryptedBytes(message, iv: item.iv))
                        blackHole(try decrypter.decrypt(bytes: cresBytes))
                    },
                    floor: item.floor))
        }
        for item in channelCases {
            let expectations = JWE.Expectations(encryptions: [item.encryption], keyID: .exactly(acsTransID))
            results.append(
                try options.compare(
                    "  the same through one-shot JWE calls, \(item.encryption.rawValue)", iterations: 5000,
                    composite: {
                        blackHole(
                            try JWE.encrypt(
                                message, to: .direct(item.sendKey), encryption: item.encryption, keyID: acsTransID,
                                iv: item.iv))
                        blackHole(
                            try JWE.decrypt(
                                item.cres, using: .direct([item.encryption: item.receiveKey]),
                                expecting: expectations))
                    },
                    floor: item.floor))
        }
        return results
    }

    /// A hostile JSON object: 30,000 members, parsed strictly (duplicate check, order kept) against Foundation's
    /// JSONSerialization of the same bytes. Lookup by name is indexed, so this stays linear in the member count.
    static func wideObjectRow(options: Options) throws -> Measurement? {
        let wideObject = Array(("{" + (0..<30_000).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + "}").utf8)
        let wideLimits = JSONParser.Limits(maxBytes: 1 << 20, maxDepth: 4)
        return try options.compare(
            "strict JSON, object of 30,000 members", iterations: 100,
            composite: { blackHole(try JSONParser(limits: wideLimits).parse(wideObject)) },
            floor: { blackHole(try JSONSerialization.jsonObject(with: Data(wideObject))) })
    }
}
