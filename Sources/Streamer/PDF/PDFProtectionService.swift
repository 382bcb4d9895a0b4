import LibPoppler
import Shared

/// The protection service of an encrypted PDF: never restricted once open, with the
/// document's print and copy permissions as rights.
public final class PDFProtectionService: ContentProtectionService {
    /// The password that opened the document (user or owner); nil when its user password is
    /// empty.
    public let credentials: String?
    /// Whether the document allows copying (extracting) text.
    public let allowsCopy: Bool
    /// Whether the document allows printing.
    public let allowsPrint: Bool

    init(password: String?, permissions: PDFPermissions) {
        credentials = password
        allowsCopy = permissions.contains(.copy)
        allowsPrint = permissions.contains(.print)
    }

    public var isRestricted: Bool { false }
    public var error: (any Error)? { nil }
    public var name: LocalizedString? { .nonlocalized("PDF password") }
    public var scheme: String { "pdf-password" }

    /// Only copy and print count; the other permission flags are ignored, as the Content
    /// Protection proposal says. A document that allows both is unrestricted.
    public var rights: any UserRights {
        allowsCopy && allowsPrint ? UnrestrictedUserRights() : PDFPermissionUserRights(allowsCopy: allowsCopy, allowsPrint: allowsPrint)
    }
}

/// The rights a PDF's permissions grant: copy only with the extract/copy permission, print
/// only with the print permission (all allowed when it was opened with its owner password —
/// poppler reports the permissions that way). Nothing is consumed: a PDF has no quotas.
public struct PDFPermissionUserRights: UserRights {
    public let allowsCopy: Bool
    public let allowsPrint: Bool

    public init(allowsCopy: Bool, allowsPrint: Bool) {
        self.allowsCopy = allowsCopy
        self.allowsPrint = allowsPrint
    }

    public var allowance: RightsAllowance {
        RightsAllowance(copy: allowsCopy ? .unlimited : .denied, print: allowsPrint ? .unlimited : .denied)
    }
    public func copy(text: String) async -> RightsDecision { allowsCopy ? .granted(allowance) : .refused(allowance) }
    public func print(pages: Int) async -> RightsDecision { allowsPrint ? .granted(allowance) : .refused(allowance) }
}
