import Shared

extension RestrictedInfo {
    /// What the restricted screen says about `restriction`: its message and advice as the
    /// protections word them, and the way to try again in this interface when trying again
    /// makes sense — chosen by case, never from the wording.
    /// - Parameters:
    ///   - protection: the protection's name ("Readium LCP"); a password is named as such.
    ///   - credentialsCancelled: the person closed the password or passphrase dialog.
    init(title: String, protection: String?, restriction: ProtectionRestriction, credentialsCancelled: Bool) {
        var advice: [String] = []
        var protection = protection
        if case .credentialsRequired(let need) = restriction {
            let dialog = need.kind == .passphrase ? "passphrase" : "password"
            if need.kind == .password, protection == nil { protection = "a password" }
            if credentialsCancelled { advice.append("You cancelled the \(dialog) dialog: the publication stays locked.") }
            advice.append(restriction.advice)
            advice.append(need.kind == .passphrase ? "Press Enter to enter the passphrase again." : "Press Enter to type the password again.")
        } else {
            advice.append(restriction.advice)
            if restriction.canRetry { advice.append("Press Enter to try again.") }
        }
        self.init(title: title, protection: protection, message: restriction.message, advice: advice,
                  canRetry: restriction.canRetry)
    }
}
