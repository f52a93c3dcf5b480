public import Foundation

/// Finding a SwiftPM resource bundle (the SDK's texts, the terminal presenter's) without SwiftPM's generated
/// `Bundle.module` accessor, which stops the process ("could not load resource bundle") when the folder is neither
/// beside the executable nor at the build path baked into the binary — a copied binary or a server deployment.
///
/// The folder is looked for where SwiftPM and Xcode put it: in the app's resources (`Bundle.main.resourceURL`), in the
/// bundle holding the code (a framework), and beside the executable (`Bundle.main.bundleURL` on Linux). Its name is
/// `<package>_<target>.resources` on Linux and `<package>_<target>.bundle` on Apple platforms. When it is found
/// nowhere the lookup answers `nil` and the caller falls back to the texts compiled into the binary.
@_spi(ThreeDS2Tools) public enum ResourceFolder {
    /// The places a resource folder is looked for, in order, each a directory that may hold it.
    @_spi(ThreeDS2Tools) public static var searchDirectories: [URL] {
        var directories = [Bundle.main.resourceURL, Bundle(for: BundleMarker.self).resourceURL]
        directories += [Bundle.main.bundleURL, Bundle(for: BundleMarker.self).bundleURL]
        directories.append(Bundle.main.executableURL?.deletingLastPathComponent())
        var seen = Set<String>()
        return directories.compactMap { $0?.standardizedFileURL }.filter { seen.insert($0.path).inserted }
    }

    /// The resource folder of a SwiftPM target, or `nil` when none of the directories holds it.
    ///
    /// - Parameters:
    ///   - name: The folder's name without its extension, `<package>_<target>` (for example `ThreeDS2_ThreeDS2SDK`).
    ///   - directories: Where to look, in order (``searchDirectories`` unless a test says otherwise).
    /// - Returns: The folder's URL, a directory that exists.
    @_spi(ThreeDS2Tools) public static func locate(_ name: String, in directories: [URL]) -> URL? {
        for directory in directories {
            for suffix in [".resources", ".bundle"] {
                let url = directory.appendingPathComponent(name + suffix, isDirectory: true)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    return url
                }
            }
        }
        return nil
    }

    /// A file of a language folder in a resource folder: `<language>.lproj/<file>`, at the folder's root (Linux,
    /// iOS) or under `Contents/Resources/` (a macOS bundle); SwiftPM on Linux lower-cases the language folder's
    /// name (`pt-br.lproj`).
    ///
    /// - Parameters:
    ///   - file: The file's name, for example `Localizable.strings`.
    ///   - language: The language folder's name without `.lproj`.
    ///   - folder: The resource folder, or `nil` when there is none.
    /// - Returns: The file's URL when it exists.
    @_spi(ThreeDS2Tools) public static func file(_ file: String, language: String, in folder: URL?) -> URL? {
        guard let folder else { return nil }
        for name in [language, language.lowercased()] {
            for base in ["", "Contents/Resources/"] {
                let url = folder.appendingPathComponent("\(base)\(name).lproj/\(file)")
                if FileManager.default.fileExists(atPath: url.path) { return url }
            }
        }
        return nil
    }

    /// A class of the SDK's, for the bundle its code was loaded from.
    private final class BundleMarker {}
}
