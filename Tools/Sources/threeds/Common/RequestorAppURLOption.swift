import ArgumentParser
import Foundation
import ThreeDS2Messages
import ThreeDS2SDK

/// `--requestor-app-url` (`threeDSRequestorAppURL`), checked before anything is sent: the one place the CLI decides
/// whether the value can be sent, so that the SDK's own validator can take its place in one line.
enum RequestorAppURLOption {
    /// Why `value` cannot be the 3DS Requestor App URL in `version`, naming the option and the fix; `nil` when it can.
    ///
    /// The rules are the SDK's own validator's (`RequestorAppURL`: the URL, then the version's rule), so the CLI and
    /// an app refuse the same links; the CLI adds only that 2.1.0, which has no such field, makes the option a usage
    /// error rather than a value silently never sent.
    static func problem(_ value: String, version: MessageVersion) -> String? {
        let option = "--requestor-app-url"
        guard version.carriesRequestorAppURL else {
            return "\(option): message version \(version) has no threeDSRequestorAppURL; leave the option out or "
                + "use --message-version 2.2.0 or 2.3.1"
        }
        do throws(ThreeDS2Error) {
            try RequestorAppURL(value).check(for: version)
            return nil
        } catch {
            let example =
                version.requiresHTTPSRequestorAppURL
                ? "https://shop.example/3ds-return" : "https://shop.example/3ds-return or myapp://3ds-return"
            return "\(option): \(error.message) (for example \(example))"
        }
    }

    /// Throws a usage error (exit 2) when ``problem(_:version:)`` finds one. `version` is the one the payment asks
    /// for: `--message-version`, else the highest the SDK speaks.
    static func check(_ value: String?, messageVersion: String?) throws {
        guard let value else { return }
        let version = messageVersion.flatMap(MessageVersion.init) ?? .highest
        if let problem = problem(value, version: version) { throw ValidationError(problem) }
    }
}
