import CLecternPoppler

/// Copies a string that glib or poppler hands over, and frees it.
func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { lectern_g_free(pointer) }
    return String(cString: pointer)
}

/// A document string, trimmed; nil when missing or blank.
func takeNonBlankString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let string = takeString(pointer) else { return nil }
    var trimmed = Substring(string)
    while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
    while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
    return trimmed.isEmpty ? nil : String(trimmed)
}

extension PDFError {
    /// The error a failed `poppler_document_new_*` reported. The code is only meaningful in
    /// poppler's own domain: glib and GIO domains reuse the same numbers.
    init(gerror: UnsafeMutablePointer<GError>?) {
        guard let gerror else {
            self = .damaged("unknown error")
            return
        }
        let message = gerror.pointee.message.map { String(cString: $0) } ?? "unknown error"
        guard gerror.pointee.domain == lectern_poppler_error_domain() else {
            self = .cannotOpen(message)
            return
        }
        switch gerror.pointee.code {
        case lectern_poppler_error_encrypted(): self = .passwordRequired
        case lectern_poppler_error_open_file(): self = .cannotOpen(message)
        default: self = .damaged(message)
        }
    }
}
