import LibXML
import Shared

/// Maps the EPUB rendition properties to the RWPM presentation hints: package-level ones to
/// `metadata.presentation`, per-itemref and per-item ones to link properties (Readium's
/// `Presentation+EPUB` and `OPFParser.parseStringProperties`).
enum EPUBPresentation {
    /// `{"layout": "fixed"|"reflowable", "orientation": …, "spread": …, "overflow": …}` from
    /// the package's `rendition:*` metas. `layout` is always present (reflowable by default);
    /// the others only when declared.
    static func packageLevel(entries: OPFMetadataEntries, displayOptions: XMLDocument?) -> JSONObject {
        func rendition(_ name: String) -> String? {
            entries.metas(OPFVocabulary.rendition + name).last?.content.lowercased().nilIfEmpty
        }
        var object = JSONObject()
        var layout = rendition("layout").flatMap { layouts[$0] }
        if layout == nil, displayOption("fixed-layout", in: displayOptions) == "true" { layout = "fixed" }
        object["layout"] = .string(layout ?? "reflowable")

        var orientation = rendition("orientation").flatMap { orientations[$0] }
        if orientation == nil {
            switch displayOption("orientation-lock", in: displayOptions) {
            case "none": orientation = "auto"
            case "landscape-only": orientation = "landscape"
            case "portrait-only": orientation = "portrait"
            default: break
            }
        }
        object.set("orientation", orientation.map(JSONValue.string))
        object.set("spread", rendition("spread").flatMap { spreads[$0] }.map(JSONValue.string))
        if let flow = rendition("flow"), let overflow = overflows[flow] {
            object["overflow"] = .string(overflow)
            object["continuous"] = .bool(flow == "scrolled-continuous")
        }
        return object
    }

    /// Link properties from the tokens of `item@properties` and `itemref@properties`:
    /// `contains` (mathml, svg, js…), `layout`, `orientation`, `overflow`, `page`, `spread`.
    static func linkProperties(_ tokens: [String]) -> JSONObject {
        var contains: [String] = []
        var object = JSONObject()
        for token in tokens {
            let name = token.hasPrefix("rendition:") ? String(token.dropFirst("rendition:".count)) : token
            switch name {
            case "scripted": contains.append("js")
            case "mathml": contains.append("mathml")
            case "svg": contains.append("svg")
            case "remote-resources": contains.append("remote-resources")
            case "onix-record": contains.append("onix")
            case "xmp-record": contains.append("xmp")
            case "page-spread-left": object["page"] = .string("left")
            case "page-spread-right": object["page"] = .string("right")
            case "page-spread-center": object["page"] = .string("center")
            default:
                if let value = name.removingPrefix("layout-").flatMap({ layouts[$0] }) {
                    object["layout"] = .string(value)
                } else if let value = name.removingPrefix("orientation-").flatMap({ orientations[$0] }) {
                    object["orientation"] = .string(value)
                } else if let value = name.removingPrefix("spread-").flatMap({ spreads[$0] }) {
                    object["spread"] = .string(value)
                } else if let value = name.removingPrefix("flow-").flatMap({ overflows[$0] }) {
                    object["overflow"] = .string(value)
                }
            }
        }
        if !contains.isEmpty { object["contains"] = .array(contains.map(JSONValue.string)) }
        return object
    }

    private static let layouts = ["pre-paginated": "fixed", "reflowable": "reflowable"]
    private static let orientations = ["auto": "auto", "landscape": "landscape", "portrait": "portrait"]
    /// `portrait` is deprecated in EPUB 3.3 and read as `both` (Readium's mapping).
    private static let spreads = ["auto": "auto", "none": "none", "landscape": "landscape", "portrait": "both", "both": "both"]
    private static let overflows = ["auto": "auto", "paginated": "paginated", "scrolled-continuous": "scrolled",
                                    "scrolled-doc": "scrolled"]

    /// An option of the Apple display options file: the `*` platform first, then iPad, iPhone.
    private static func displayOption(_ name: String, in document: XMLDocument?) -> String? {
        guard let root = document?.root else { return nil }
        let platforms = root.children(named: "platform")
        let platform = platforms.first { $0.attribute("name") == "*" }
            ?? platforms.first { $0.attribute("name") == "ipad" }
            ?? platforms.first { $0.attribute("name") == "iphone" }
            ?? platforms.first
        return platform?.children(named: "option").first { $0.attribute("name") == name }?.normalizedText.lowercased()
    }
}

extension String {
    func removingPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
