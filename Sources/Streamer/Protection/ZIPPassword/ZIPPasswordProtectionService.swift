import Shared

/// The protection service of a publication unlocked with its ZIP password: unrestricted,
/// and it hands the password back so that an application can store it and reopen the
/// publication without asking again.
final class ZIPPasswordProtectionService: ContentProtectionService {
    let password: String

    init(password: String) {
        self.password = password
    }

    var isRestricted: Bool { false }
    var error: (any Error)? { nil }
    var credentials: String? { password }
    var rights: any UserRights { UnrestrictedUserRights() }
    var name: LocalizedString? { .nonlocalized("ZIP password") }
    var scheme: String { ZIPPasswordContentProtection.scheme }
}
