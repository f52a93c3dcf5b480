import Foundation
@_spi(ThreeDS2Tools) import ThreeDS2SDK

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of the CLI's that holds what a run saved (`conform --output`, `pay --save-messages`): made 0700 in one
/// step, or, when something is already there — made before, or by whoever won a race to the name — taken only when it
/// is a folder (not a link to one) that this user owns and that neither group nor others can write to. Another local
/// user cannot hand the command a folder of theirs to write into. Tools only: the SDK an app links makes no such check.
enum PrivateFolder {
    /// Why a folder was refused or could not be made, without its path (the caller names the option and the path).
    struct Refusal: Error {
        let reason: String
    }

    /// Makes or accepts `path`; returns whether this call created it.
    @discardableResult
    static func make(_ path: String) throws(Refusal) -> Bool {
        do {
            try SecretFile.makeDirectory(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        } catch {
            throw Refusal(reason: "cannot be created (\(error.message))")
        }
        if mkdir(path, 0o700) == 0 { return true }
        guard errno == EEXIST else { throw Refusal(reason: "cannot be created (\(String(cString: strerror(errno))))") }
        // The entry itself, not what a link points to (attributesOfItem does not follow the last link).
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value,
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { throw Refusal(reason: "cannot be read") }
        guard attributes[.type] as? FileAttributeType == .typeDirectory else {
            throw Refusal(reason: "is not a directory")
        }
        guard owner == geteuid() else { throw Refusal(reason: "belongs to another user; use a folder of your own") }
        guard mode & 0o022 == 0 else {
            throw Refusal(
                reason: "group or others can write to it (mode \(String(mode & 0o7777, radix: 8))); use a private "
                    + "folder (chmod go-w, or a new path)")
        }
        return false
    }
}
