import ArgumentParser
import Foundation
import ThreeDS2Messages

/// `--requestor-app-url` (`threeDSRequestorAppURL`), checked before anything is sent: the one place the CLI decides
/// whether the value can be sent, so that the SDK's own validator can take its place in one line.
enum RequestorAppURLOption {
    /// Why `value` cannot be the 3DS Requestor App URL in `version`, naming the option and the fix; `nil` when it can.
    ///
    /// The rules are the protocol's: 2.1.0 has no such field; 2.2.0 takes a fully qualified URL of at most 256
    /// characters, as a custom scheme (`merchantScheme://appName`) or https; 2.3.1 an https universal or app link of
    /// at most 2,048 characters. Plain http, a URL without a scheme or host, and control characters are refused in
    /// every version: the bank's app would be sent somewhere no app answers.
    static func problem(_ value: String, version: MessageVersion) -> String? {
        let option = "--requestor-app-url"
        guard version.carriesRequestorAppURL else {
            return "\(option): message version \(version) has no threeDSRequestorAppURL; leave the option out or "
                + "use --message-version 2.2.0 or 2.3.1"
        }
        let limit = version.maxRequestorAppURLLength
        let example = "for example https://shop.example/3ds-return"
        guard value.count <= limit else {
            return "\(option) is \(value.count) characters long; message version \(version) allows at most \(limit)"
        }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }),
            let url = URL(string: value), let scheme = url.scheme?.lowercased(), !scheme.isEmpty
        else {
            return "\(option) must be a fully qualified URL with a scheme (\(example)), got \"\(value)\""
        }
        if version.requiresHTTPSRequestorAppURL {
            guard ChallengeResponseValidator.isHTTPSURL(value) else {
                return "\(option) must be an https universal or app link in message version \(version) (\(example)); "
                    + "got \"\(value)\". A custom scheme is taken with --message-version 2.2.0 only"
            }
            return nil
        }
        guard scheme != "http" else {
            return "\(option) uses plain http; give an https link or the app's own scheme (\(example), or "
                + "myapp://3ds-return)"
        }
        guard let rest = value.split(separator: ":", maxSplits: 1).last, rest.count > 2, rest.hasPrefix("//")
        else {
            return "\(option) must be a fully qualified URL (scheme://…, \(example)), got \"\(value)\""
        }
        return nil
    }

    /// Throws a usage error (exit 2) when ``problem(_:version:)`` finds one. `version` is the one the payment asks
    /// for: `--message-version`, else the highest the SDK speaks.
    static func check(_ value: String?, messageVersion: String?) throws {
        guard let value else { return }
        let version = messageVersion.flatMap(MessageVersion.init) ?? .highest
        if let problem = problem(value, version: version) { throw ValidationError(problem) }
    }
}
