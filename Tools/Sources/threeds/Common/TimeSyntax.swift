import ArgumentParser
import Foundation

/// The one way every `--at` option says a time: a day (`YYYY-MM-DD`, 00:00 UTC) or an ISO 8601 time
/// (`2027-06-01T12:00:00Z`).
enum TimeSyntax {
    /// The help text of an `--at` option.
    static let help = "The time to ask about: YYYY-MM-DD (00:00 UTC) or an ISO 8601 time such as 2027-06-01T12:00:00Z."

    /// The instant `text` names, or `nil` when it is neither form.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if let instant = formatter.date(from: text) { return instant }
        formatter.formatOptions = [.withFullDate]
        guard text.count == 10 else { return nil }
        return formatter.date(from: text)
    }

    /// Refuses an `--at` value in neither form, as a usage error naming the value.
    static func validate(_ text: String?) throws {
        if let text, date(text) == nil {
            throw ValidationError(
                "--at must be YYYY-MM-DD or an ISO 8601 time such as 2027-06-01T12:00:00Z, got \(text)")
        }
    }
}
