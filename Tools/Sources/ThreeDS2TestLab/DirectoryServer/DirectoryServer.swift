import Crypto
import Foundation
import ThreeDS2JOSE
import ThreeDS2SDK
import _CryptoExtras

extension TestLab {
    /// Decrypts device data as the directory server does: RSA-OAEP-256 to the RSA DS key, ECDH-ES (PartyVInfo = DS
    /// ID) to the EC one.
    func decryptDeviceData(_ compact: String) throws -> (DirectoryServerID, JSONObject) {
        let header = try JSONParser().parse(
            try Base64.urlDecode(compact.split(separator: ".", omittingEmptySubsequences: false).first ?? ""))
        let dsID: DirectoryServerID
        let key: JWEDecryptionKey
        switch header.objectValue?["alg"]?.stringValue {
        case "RSA-OAEP-256":
            guard case .rsa(let rsa) = pki.dsEncryptionRSA.privateKey else {
                throw TestLabError(.failed, "lab RSA key missing")
            }
            (dsID, key) = (Self.rsaDirectoryServerID, .rsaOAEP256(privateKeyDER: Array(rsa.derRepresentation)))
        case "ECDH-ES":
            guard case .p256(let ec) = pki.dsEncryptionEC.privateKey else {
                throw TestLabError(.failed, "lab EC key missing")
            }
            (dsID, key) = (
                Self.ecDirectoryServerID,
                .ecdhES(
                    try P256.KeyAgreement.PrivateKey(rawRepresentation: ec.rawRepresentation),
                    derivation: .emvco(partyVInfo: Self.ecDirectoryServerID.rawValue))
            )
        default:
            throw TestLabError(.invalidRequest, "sdkEncData has an unknown alg")
        }
        let plaintext = try JWE.decrypt(compact, using: key).plaintext
        guard case .object(let deviceData) = try JSONParser().parse(plaintext) else {
            throw TestLabError(.invalidRequest, "device data is not a JSON object")
        }
        return (dsID, deviceData)
    }
}

/// The lab's DS on the results leg: it passes an RReq's bytes to the 3DS Server of the transaction and its answer
/// (RRes or Erro) back to the ACS, as plain JSON (the leg is neither signed nor encrypted).
enum DirectoryServerRouting {
    static func passResults(_ body: [UInt8], to server: ResultStore) -> [UInt8] { server.receive(body) }
}
