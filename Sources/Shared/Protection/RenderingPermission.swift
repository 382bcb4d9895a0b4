import Shared

/// Whether a publication's text may be shown on screen or written out, from its protection.
public enum RenderingPermission {
    /// Why text may not be shown or written out.
    public enum Refusal: Error, Sendable, UserMessageConvertible {
        /// The publication is locked; the message is its protection error.
        case restricted(String)
        /// Its rights limit copying, and writing the text out would copy it.
        case copyLimited

        public var userMessage: String {
            switch self {
            case .restricted(let message): message
            case .copyLimited: "its license limits copying, and rendering to stdout is copying"
            }
        }
    }

    /// For a reader's screen: refused only when the publication is restricted.
    public static func checkDisplay(_ publication: Publication) throws(Refusal) {
        if publication.isRestricted {
            throw .restricted(publication.protectionError.map(userMessage(of:)) ?? "the publication is locked")
        }
    }

    /// For writing the text out (`lectern render`, exports): refused when the publication is
    /// restricted, and unless its rights are unrestricted.
    public static func checkExport(_ publication: Publication) throws(Refusal) {
        try checkDisplay(publication)
        guard publication.rights is UnrestrictedUserRights else { throw .copyLimited }
    }
}
