import Shared
import Testing
@testable import ReaderUI

/// What the restricted screen says follows the protection's case (#30 item 2): the advice of
/// a revoked provider certificate is not the loan advice, though its message says "revoked";
/// Enter retries only where retrying can help.
@Suite struct RestrictedScreenAdviceTests {
    static func info(_ restriction: ProtectionRestriction, cancelled: Bool = false) -> RestrictedInfo {
        RestrictedInfo(title: "Forged Book", protection: "Readium LCP", restriction: restriction, credentialsCancelled: cancelled)
    }

    @Test func aRevokedCertificateGetsItsOwnAdviceNotTheLoanAdvice() {
        let info = Self.info(.untrusted(.certificateRevoked))
        #expect(info.message.contains("revoked"))
        let advice = info.advice.joined(separator: " ")
        #expect(advice.contains("new copy of the book"), "\(advice)")
        #expect(!advice.lowercased().contains("renew"), "\(advice)")
        #expect(!advice.contains("Press Enter"))
        #expect(!info.canRetry)
    }

    @Test func anExpiredRenewableLoanSaysToRenewThenRetry() {
        let info = Self.info(.loanInactive(.expired(nil), renewable: true))
        #expect(info.advice.first?.contains("Renew the loan from its license details (L on the bookshelf") == true)
        #expect(info.advice.last == "Press Enter to try again.")
        #expect(info.canRetry)
    }

    @Test func aReturnedLoanCannotBeRetried() {
        let info = Self.info(.loanInactive(.returned(nil), renewable: false))
        #expect(info.advice == [ProtectionRestriction.loanInactive(.returned(nil), renewable: false).advice])
        #expect(!info.canRetry)
    }

    @Test func aCancelledPassphraseDialogSaysSoAndAsksAgain() {
        let info = Self.info(.credentialsRequired(.init(kind: .passphrase)), cancelled: true)
        #expect(info.advice.first == "You cancelled the passphrase dialog: the publication stays locked.")
        #expect(info.advice.last == "Press Enter to enter the passphrase again.")
        #expect(info.canRetry)
        let password = RestrictedInfo(title: "locked", protection: nil, restriction: .credentialsRequired(.init(kind: .password)),
                                      credentialsCancelled: true)
        #expect(password.protection == "a password")
        #expect(password.advice.first == "You cancelled the password dialog: the publication stays locked.")
    }

    @Test func anUnsupportedDRMIsNotRetried() {
        let info = Self.info(.unsupported(scheme: "Adobe ADEPT"))
        #expect(info.message.contains("Adobe ADEPT"))
        #expect(!info.canRetry)
        #expect(!info.advice.contains { $0.contains("Press Enter") })
    }
}
