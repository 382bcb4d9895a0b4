/// Whether a publication's text may be shown on screen or written out, from its protection:
/// a protection policy, so it lives with the protections rather than with the layout.
public enum RenderingPermission {
    /// Why text may not be shown or written out.
    public enum Refusal: Error, Sendable, UserMessageConvertible {
        /// The publication is locked by its protection, for this reason.
        case restricted(ProtectionRestriction)
        /// Its rights limit copying, and writing the text out would copy it.
        case copyLimited

        public var userMessage: String {
            switch self {
            case .restricted(let restriction): restriction.message
            case .copyLimited: "its license limits copying, and rendering to stdout is copying"
            }
        }
    }

    /// For a reader's screen: refused only when the publication is restricted.
    public static func checkDisplay(_ publication: Publication) throws(Refusal) {
        guard publication.isRestricted else { return }
        throw .restricted(publication.protectionRestriction ?? .unavailable(.unexplained(nil)))
    }

    /// For writing the text out (`lectern render`, exports): refused when the publication is
    /// restricted, and unless its rights are unrestricted.
    public static func checkExport(_ publication: Publication) throws(Refusal) {
        try checkDisplay(publication)
        guard publication.rights is UnrestrictedUserRights else { throw .copyLimited }
    }
}
