/// Words that end with a full stop without ending the sentence, by language.
///
/// Only what the general rules cannot tell: a full stop followed by a lower-case word, inside
/// a number or a URL, or after a single letter (an initial: `J. R. R. Tolkien`, `M. Dupont`,
/// `z. B.`) never ends a sentence anyway. Words that end sentences as often as not (`etc.`,
/// `usw.`, `Inc.`) are left out: the word after them decides.
enum SentenceAbbreviations {
    /// Lower-cased, without the final full stop (internal ones kept: `e.g`, `z.b`).
    static func words(for language: String) -> Set<String> {
        var words = common
        switch language {
        case "en": words.formUnion(english)
        case "fr": words.formUnion(french)
        case "de": words.formUnion(german)
        case "es": words.formUnion(spanish)
        case "it": words.formUnion(italian)
        case "pt": words.formUnion(portuguese)
        case "nl": words.formUnion(dutch)
        case "ru", "uk", "be", "bg": words.formUnion(russian)
        default: words.formUnion(english)
        }
        return words
    }

    /// Languages that write ordinal numbers with a full stop (`am 3. Oktober`): there a number
    /// followed by a full stop does not end the sentence unless the paragraph ends.
    static func writesOrdinalsWithFullStop(_ language: String) -> Bool {
        ["de", "da", "nb", "nn", "no", "fi", "cs", "sk", "sl", "hr", "sr", "bs", "pl", "hu", "et", "lv", "is", "fo", "tr"]
            .contains(language)
    }

    /// Titles and references shared by the languages written in Latin letters.
    private static let common: Set<String> = [
        "dr", "prof", "vs", "cf", "fig", "figs", "vol", "vols", "pp", "no", "nos", "nr", "ch", "ca", "approx",
        "e.g", "i.e", "viz", "st",
    ]
    private static let english: Set<String> = [
        "mr", "mrs", "ms", "messrs", "mt", "jr", "sr", "capt", "col", "gen", "lt", "sgt", "cpl", "maj", "adm", "rev", "hon",
        "gov", "sen", "rep", "pres", "supt", "insp", "ft", "ave", "blvd", "rd", "chap", "ed", "eds", "dept", "est",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "a.m", "p.m", "u.s", "u.k", "co", "bros",
    ]
    private static let french: Set<String> = [
        "mm", "mme", "mmes", "mlle", "mlles", "me", "mgr", "pr", "ste", "av", "apr", "j.-c", "chap", "éd", "env",
        "cf", "ex", "boul", "bd", "hab", "dép", "réf", "sq", "sqq", "tél",
    ]
    private static let german: Set<String> = [
        "hr", "hrn", "fr", "frl", "str", "bzw", "evtl", "ggf", "vgl", "d.h", "u.a", "z.b", "s", "bd", "jh", "abs", "art",
        "ca", "inkl", "zzgl", "sog", "geb", "gest", "u.ä", "o.ä", "dt", "allg", "urspr",
        "jan", "feb", "febr", "aug", "sept", "okt", "nov", "dez",
    ]
    private static let spanish: Set<String> = [
        "sr", "sra", "sras", "srta", "dra", "ud", "uds", "d", "dña", "pág", "págs", "av", "avda", "c", "cía", "núm", "aprox", "p.ej",
    ]
    private static let italian: Set<String> = [
        "sig", "sigg", "sig.ra", "sig.na", "dott", "dott.ssa", "ing", "avv", "geom", "rag", "pag", "pagg", "cap", "ecc", "es",
    ]
    private static let portuguese: Set<String> = [
        "sr", "sra", "srta", "dra", "exmo", "exma", "pág", "págs", "av", "cap", "p.ex",
    ]
    private static let dutch: Set<String> = [
        "dhr", "mevr", "mw", "drs", "ir", "mr", "blz", "bijv", "o.a", "d.w.z", "m.a.w", "z.g.a", "ca",
    ]
    private static let russian: Set<String> = [
        "г", "гг", "т.е", "т.д", "т.п", "т.к", "ул", "им", "стр", "см", "др", "пр", "проф", "тов", "рис",
    ]
}
