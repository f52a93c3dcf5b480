import Foundation
import ThreeDS2JOSE

/// Keeps the SDK App ID: a UUID made once per install and app version, in a per-user data directory, in a file that
/// device backups leave out (a backup restored to another phone must not bring the same "per-installation" ID).
struct SDKAppIDStore: Sendable {
    let directory: URL
    var probe: any SystemProbe = LiveSystemProbe()

    /// The SDK App ID, and whether its file is excluded from backups.
    struct Stored: Sendable {
        let id: String
        let excludedFromBackup: Bool
    }

    /// The SDK App ID for this app and version, created (and stored) when there is none or the version changed.
    /// The file is marked as excluded from backups each time, so a file an earlier version wrote is marked too.
    func sdkAppID(appIdentifier: String, appVersion: String) throws(ThreeDS2Error) -> Stored {
        let safeName = String(
            appIdentifier.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }.prefix(100))
        let file = directory.appendingPathComponent("sdk-app-id-\(safeName).json")
        if let data = try? Data(contentsOf: file), data.count < 4096,
            let object = try? JSONParser().parse(Array(data)).objectValue,
            object["appVersion"]?.stringValue == appVersion,
            let id = object["sdkAppID"]?.stringValue, UUID(uuidString: id) != nil
        {
            return Stored(id: id, excludedFromBackup: probe.excludeFromBackup(file.path))
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
        return Stored(id: id, excludedFromBackup: probe.excludeFromBackup(file.path))
    }
}
