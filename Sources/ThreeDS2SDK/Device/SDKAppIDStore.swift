import Foundation
import ThreeDS2JOSE

/// Keeps the SDK App ID: a UUID made once per install and app version, in a per-user data directory.
struct SDKAppIDStore: Sendable {
    let directory: URL

    /// The SDK App ID for this app and version, created (and stored) when there is none or the version changed.
    func sdkAppID(appIdentifier: String, appVersion: String) throws(ThreeDS2Error) -> String {
        let safeName = String(
            appIdentifier.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(100))
        let file = directory.appendingPathComponent("sdk-app-id-\(safeName).json")
        if let data = try? Data(contentsOf: file), data.count < 4096,
            let object = try? JSONParser().parse(Array(data)).objectValue,
            object["appVersion"]?.stringValue == appVersion,
            let id = object["sdkAppID"]?.stringValue, UUID(uuidString: id) != nil
        {
            return id
        }
        let id = UUID().uuidString.lowercased()
        let record: JSONObject = [
            "appIdentifier": .string(appIdentifier), "appVersion": .string(appVersion), "sdkAppID": .string(id),
        ]
        do {
            // Created 0600 in a 0700 folder, never readable by others in between.
            try SecretFile.write(Array(record.serialized.utf8), to: file.path)
        } catch {
            throw .runtime("the SDK App ID could not be stored in \(directory.path)", underlying: error)
        }
        return id
    }
}
