import Basics
import Foundation
import SSH
import TUIKit

/// The session's connection: lost (the session says so at once and keeps its output), made again with `r` on the
/// same screen, and a reconnection's stages, questions and end.
extension Update {
    /// The connection went (a keepalive or a command found it gone): the session stays with its output, a line says
    /// what happened and how to go on. Nothing when it was known already.
    static func sessionLost(_ state: inout AppState, reason: String) -> [Effect] {
        let lost = state.withSession { session, state in
            guard session.link == .up else { return false }
            session.link = .lost(reason)
            session.historySearch = nil
            session.appendNote("connection lost: " + TextSanitizer.line(reason))
            state.notice = nil
            return true
        }
        // The worker lets go of the broken session (its socket, the channels it parked).
        return lost == true ? [.disconnect] : []
    }

    /// Whether a reconnection from the session is under way (its stages, questions and end are the session's).
    static func reconnecting(_ state: AppState) -> Bool {
        guard state.connecting == nil, let link = state.session?.link, case .reconnecting = link else { return false }
        return true
    }

    /// A reconnection reached `stage`.
    static func reconnectStage(_ state: inout AppState, _ stage: String) {
        state.withSession { session, _ in session.link = .reconnecting(stage) }
    }

    /// The reconnection failed: lost again, saying why; `r` tries again.
    static func reconnectFailed(_ state: inout AppState, _ reason: String) {
        PromptOverlay.closeConnectionPrompt(&state)
        state.withSession { session, _ in
            session.link = .lost(reason)
            session.appendNote("could not reconnect: " + TextSanitizer.line(reason))
        }
    }

    /// Connected again: a new session on the same screen, the output kept, a line saying so.
    static func reconnected(_ state: inout AppState, os: ServerOS?, auth: LoginMethod?, at: Date) -> [Effect] {
        let name = state.withSession { session, _ -> String? in
            session.link = .up
            if let os { session.remoteOS = os }
            if let auth { session.authUsed = auth }
            // A reconnection says again whether the vault gave its password.
            session.loginFromVault = false
            session.appendNote("reconnected to \(session.title) at \(Self.clockTime(at)): a new session, so the "
                               + "folder and variables start afresh")
            return session.target.name
        }
        state.now = max(state.now, at)
        guard let name = name ?? nil else { return [] }
        return [.recordConnection(name: name, os: os)]
    }

    /// `14:03:12` in the local time zone.
    static func clockTime(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}

extension SessionState {
    /// A line of eSSH's own in the output, `[like this]`, on a line of its own.
    mutating func appendNote(_ text: String) {
        if !atLineStart { scrollback.append("\n") }
        scrollback.appendLine("[" + text + "]")
        atLineStart = true
        view.follow = true
    }
}
