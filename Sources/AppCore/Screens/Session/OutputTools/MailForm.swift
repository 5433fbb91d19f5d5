import Mail
import TUIKit

/// The one mail form of the session's output (F6) and of the fleet results (F6).
extension Update {
    /// The mail form's To and Subject checked, then the message to send; nil (the reason on the form) when either
    /// is wrong, so the form stays open.
    static func mailEffect(_ state: inout AppState, _ form: inout OutputToolState, report: CommandReport?,
                           output: [UInt8], attachmentName: String = "essh-output.txt") -> [Effect]? {
        let recipients: [String]
        let subject = form.text(1)
        do throws(MailError) {
            recipients = try MailAddress.parseList(form.text(0))
            try HeaderSafety.check(subject, field: "Subject")
        } catch {
            form.error = error.message
            return nil
        }
        let mail = OutputMail(from: state.settings.mailFrom, to: recipients, subject: subject, report: report,
                              output: output, maxInline: state.settings.mailMaxInline, attachmentName: attachmentName,
                              date: state.now)
        state.notice = "Sending mail to \(recipients.joined(separator: ", "))…"
        return [.sendMail(mail, sendmail: state.settings.sendmailPath)]
    }
}
