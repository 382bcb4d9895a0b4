import CLecternCurses

/// The character locale ncursesw needs for wide characters.
public enum TerminalLocale {
    /// Takes the locale from the environment; when its codeset is not UTF-8 (no `LANG` on a
    /// CI machine, a `POSIX` locale), switches the character type to `C.UTF-8`, which Debian
    /// always has: without it CJK text and box drawing turn to garbage.
    @discardableResult
    public static func setUp() -> String {
        setlocale(LC_ALL, "")
        if isUTF8 { return codeset }
        if setlocale(LC_CTYPE, "C.UTF-8") == nil { _ = setlocale(LC_CTYPE, "C.utf8") }
        return codeset
    }

    static var codeset: String {
        guard let name = nl_langinfo(nl_item(CODESET)) else { return "" }
        return String(cString: name)
    }

    static var isUTF8: Bool {
        let name = codeset.uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}
