import LibXML

/// The attributes of an element, read once.
struct Attributes {
    private var values: [(String, String)] = []

    init(_ element: XMLElement) {
        for attribute in element.attributes {
            values.append((attribute.name.lowercased(), attribute.value))
        }
    }

    subscript(_ name: String) -> String? {
        for (key, value) in values where key == name { return value }
        return nil
    }

    /// `epub:type` tokens.
    var epubTypes: Set<String> {
        guard let value = self["epub:type"] else { return [] }
        return Set(value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { $0.lowercased() })
    }

    /// `xml:lang`, else `lang`.
    var language: String? {
        let value = (self["xml:lang"] ?? self["lang"])?.trimmed
        return value?.isEmpty == false ? value : nil
    }

    /// `hidden`, or an inline style with `display: none`.
    var isHidden: Bool {
        if self["hidden"] != nil { return true }
        guard let style = self["style"]?.lowercased() else { return false }
        return style.filter { $0 != " " && $0 != "\t" }.contains("display:none")
    }
}
