import CLecternPoppler

/// Copies a string that glib or poppler hands over, and frees it.
func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { lectern_g_free(pointer) }
    return String(cString: pointer)
}

/// A document string, trimmed; nil when missing or blank.
func takeNonBlankString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let string = takeString(pointer) else { return nil }
    var trimmed = Substring(string)
    while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
    while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
    return trimmed.isEmpty ? nil : String(trimmed)
}

extension PDFError {
    /// The error a failed `poppler_document_new_*` reported. The code is only meaningful in
    /// poppler's own domain: glib and GIO domains reuse the same numbers.
    init(gerror: UnsafeMutablePointer<lectern_gerror>?) {
        guard let gerror else {
            self = .damaged("unknown error")
            return
        }
        let message = gerror.pointee.message.map { String(cString: $0) } ?? "unknown error"
        guard gerror.pointee.domain == lectern_poppler_error_domain() else {
            self = .cannotOpen(message)
            return
        }
        switch Int(gerror.pointee.code) {
        case Int(LECTERN_POPPLER_ERROR_ENCRYPTED): self = .passwordRequired
        case Int(LECTERN_POPPLER_ERROR_OPEN_FILE): self = .cannotOpen(message)
        default: self = .damaged(message)
        }
    }
}
