import Foundation

/// The RFC 5322 date-time of a `Date:` header, e.g. `Sat, 21 Nov 2026 06:51:31 +0000`.
public enum MailDate {
    /// `date` in `timeZone`, in RFC 5322's format (English day and month names whatever the locale).
    public static func format(_ date: Date, timeZone: TimeZone = .current) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// Reads a date written by `format` (for tests and the outbox listing); nil when it does not parse.
    public static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
