import Mail
import TUIKit

extension Update {
    /// Keys every output form shares (F6 in a session, F6 on the fleet results, F7, `|`): Tab / arrows move between
    /// the fields, other keys edit the focused one and clear the error. False for keys it does not take (Esc, Enter).
    static func editForm(_ form: inout OutputToolState, _ key: Key) -> Bool {
        switch key {
        case .escape, .enter: return false
        case .tab, .down: form.focus = (form.focus + 1) % form.fields.count
        case .backTab, .up: form.focus = (form.focus + form.fields.count - 1) % form.fields.count
        default:
            form.error = nil
            _ = form.fields[form.focus].input.handle(key)
        }
        return true
    }

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
