import ArgumentParser
import Foundation
import ThreeDS2SDK

/// `--ui-customization FILE`: the look for each appearance, in the SDK's JSON vocabulary
/// (`UiCustomization.appearances(fromJSON:)`), passed to `initialize` as an app would.
enum UiCustomizationOption {
    /// The help text.
    static let help = ArgumentHelp(
        "JSON file: the challenge screens' look per appearance (default, dark, monochrome; Tools/README.md, \"The look\").",
        valueName: "file")

    /// The customizations from the file, or the CLI's own look when no file is given.
    ///
    /// - Throws: `ValidationError` (a usage error) naming the file and the bad key.
    static func load(_ path: String?) throws -> [UiCustomizationType: UiCustomization] {
        guard let path else { return demoCustomizations }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ValidationError(
                "--ui-customization \(path) is a folder: a JSON file is expected (Tools/README.md, \"The look\")")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("--ui-customization \(path) does not exist: give the path of a JSON file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ValidationError("--ui-customization \(path) could not be read (permission denied?)")
        }
        do {
            // Bounded before reading: a regular file of at most UiCustomization.maxJSONBytes.
            return try UiCustomization.appearances(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--ui-customization \(path): \(error.message)")
        }
    }
}
