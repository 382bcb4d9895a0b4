/// A string that may have translations, keyed by BCP 47 language tag.
public enum LocalizedString: Sendable, Hashable {
    case nonlocalized(String)
    case localized([String: String])

    /// The default translation: the untagged one, else English, else the first by tag.
    public var string: String {
        switch self {
        case .nonlocalized(let value): return value
        case .localized(let translations):
            for key in ["", "und", "en"] { if let value = translations[key] { return value } }
            // Tags in order, so that the choice never depends on the dictionary's order.
            let tags = translations.keys.sorted()
            if let english = tags.first(where: { $0.lowercased().hasPrefix("en") }) { return translations[english]! }
            return tags.first.flatMap { translations[$0] } ?? ""
        }
    }

    /// The translation for `language`, falling back to ``string``.
    public func string(forLanguage language: String?) -> String {
        guard let language, case .localized(let translations) = self else { return string }
        return translations[language] ?? string
    }

    /// Parses `"text"` or `{"en": "text", "fr": "texte"}`.
    public init?(json: JSONValue?) {
        switch json {
        case .string(let value): self = .nonlocalized(value)
        case .object(let object):
            var translations: [String: String] = [:]
            for member in object.members { if let value = member.value.string { translations[member.key] = value } }
            guard !translations.isEmpty else { return nil }
            self = .localized(translations)
        default: return nil
        }
    }

    public var json: JSONValue {
        switch self {
        case .nonlocalized(let value): return .string(value)
        case .localized(let translations):
            return .object(JSONObject(translations.keys.sorted().map { .init(key: $0, value: .string(translations[$0]!)) }))
        }
    }
}

extension LocalizedString: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .nonlocalized(value) }
}
