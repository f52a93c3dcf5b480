import Foundation
import Testing
import ThreeDS2SDK

/// The repository's root, from this file's place in it.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The APIs of each of Apple's required-reason categories, as they appear in Swift source.
private let requiredReasonSymbols: [String: [String]] = [
    "NSPrivacyAccessedAPICategoryFileTimestamp": [
        "creationDate", "modificationDate", "contentModificationDateKey", "creationDateKey", "attributesOfItem",
        "getattrlist", "fgetattrlist", "getattrlistat", "getattrlistbulk", "stat(", "fstat(", "fstatat(", "lstat(",
    ],
    "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time", "kern.boottime"],
    "NSPrivacyAccessedAPICategoryDiskSpace": [
        "volumeAvailableCapacity", "volumeTotalCapacity", "systemFreeSize", "systemSize", "statfs(", "statvfs(",
        "fstatfs(", "fstatvfs(",
    ],
    "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
    "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults"],
]

/// The required-reason categories whose APIs `source` calls (comments skipped).
private func categoriesUsed(in source: String) -> Set<String> {
    let code = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        .joined(separator: "\n")
    return Set(
        requiredReasonSymbols.filter { _, symbols in
            symbols.contains { symbol in
                // A whole identifier: `stat(` but not `isStat(`, `systemSize` but not `systemSizeLimit`.
                var range = code.startIndex..<code.endIndex
                while let found = code.range(of: symbol, range: range) {
                    let before = found.lowerBound == code.startIndex ? " " : code[code.index(before: found.lowerBound)]
                    let after = found.upperBound == code.endIndex ? " " : code[found.upperBound]
                    if !(before.isLetter || before.isNumber || before == "_"),
                        symbol.hasSuffix("(") || !(after.isLetter || after.isNumber || after == "_")
                    {
                        return true
                    }
                    range = found.upperBound..<code.endIndex
                }
                return false
            }
        }.keys)
}

@Suite("Privacy manifest")
struct PrivacyManifestTests {
    private func manifest() throws -> [String: Any] {
        let url = repositoryRoot.appendingPathComponent("Sources/ThreeDS2SDK/PrivacyInfo.xcprivacy")
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        return try #require(plist as? [String: Any])
    }

    @Test("no tracking, no tracking domains")
    func tracking() throws {
        let manifest = try manifest()
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true)
    }

    @Test("the collected data types are exactly those of the parameters collected by default on Apple platforms")
    func collectedDataTypes() throws {
        let entries = try #require(try manifest()["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        let declared = Set(entries.compactMap { $0["NSPrivacyCollectedDataType"] as? String })
        #expect(declared == Set(ApplePrivacy.collectedDataTypesByDefault.map(\.rawValue)))
        #expect(declared.count == entries.count, "each type once")
        for entry in entries {
            #expect(entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == false)
            #expect(entry["NSPrivacyCollectedDataTypeLinked"] is Bool)
            #expect(
                entry["NSPrivacyCollectedDataTypePurposes"] as? [String]
                    == ["NSPrivacyCollectedDataTypePurposeAppFunctionality"])
        }
        #expect(ApplePrivacy.collectedDataTypesByDefault == [.deviceID, .otherDataTypes])
    }

    @Test("required-reason APIs: the manifest, the registry and the sources agree, both ways")
    func requiredReasonAPIs() throws {
        let entries = try #require(try manifest()["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        var declared: [String: [String]] = [:]
        for entry in entries {
            let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            declared[category] = try #require(entry["NSPrivacyAccessedAPITypeReasons"] as? [String])
        }
        let registry = Dictionary(
            uniqueKeysWithValues: ApplePrivacy.requiredReasonAPIs.map { ($0.category, $0.reasons) })
        #expect(declared == registry)
        // What the shipped, Apple-built code calls: every category used is declared, and nothing is declared that
        // nothing uses.
        var used: Set<String> = []
        for module in ["ThreeDS2JOSE", "ThreeDS2Messages", "ThreeDS2SDK", "ThreeDS2HTML", "ThreeDS2UI"] {
            let folder = repositoryRoot.appendingPathComponent("Sources/\(module)")
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            #expect(!files.isEmpty, "\(module)")
            for file in files where file.hasSuffix(".swift") {
                used.formUnion(
                    categoriesUsed(in: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)))
            }
        }
        #expect(used == Set(declared.keys), "used \(used.sorted()), declared \(declared.keys.sorted())")
    }

    @Test("the source scan finds each category's APIs, and not names that merely contain them")
    func scannerFindsUses() {
        #expect(
            categoriesUsed(in: "let t = ProcessInfo.processInfo.systemUptime") == [
                "NSPrivacyAccessedAPICategorySystemBootTime"
            ])
        #expect(categoriesUsed(in: "guard lstat(path, &info) == 0") == ["NSPrivacyAccessedAPICategoryFileTimestamp"])
        #expect(categoriesUsed(in: "let d = UserDefaults.standard") == ["NSPrivacyAccessedAPICategoryUserDefaults"])
        #expect(categoriesUsed(in: "x.volumeAvailableCapacityForImportantUsage") == [])
        #expect(categoriesUsed(in: "// lstat(path) in a comment\nlet a = isStat(x)").isEmpty)
    }
}

@Suite("Data-safety page")
struct DataSafetyPageTests {
    @Test("Docs.docc/DataSafety.md holds the table the registry makes")
    func matchesRegistry() throws {
        let url = repositoryRoot.appendingPathComponent("Sources/ThreeDS2SDK/Docs.docc/DataSafety.md")
        let page = try String(contentsOf: url, encoding: .utf8)
        let (begin, end) = ("<!-- registry table: begin -->\n", "\n<!-- registry table: end -->")
        let start = try #require(page.range(of: begin)), stop = try #require(page.range(of: end))
        let table = DeviceParameter.dataSafetyTable()
        if ProcessInfo.processInfo.environment["THREEDS_WRITE_DATA_SAFETY"] == "1" {
            try (page[..<start.upperBound] + table + page[stop.lowerBound...]).write(
                to: url, atomically: true, encoding: .utf8)
        }
        #expect(
            String(page[start.upperBound..<stop.lowerBound]) == table,
            "regenerate with THREEDS_WRITE_DATA_SAFETY=1 swift test --filter DataSafetyPageTests")
        #expect(table.split(separator: "\n").count == 2 + 33)
    }
}
