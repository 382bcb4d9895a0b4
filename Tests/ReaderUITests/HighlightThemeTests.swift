import Annotations
import Foundation
@testable import ReaderSettings
@testable import ReaderUI
@testable import Terminal
import Testing

/// The highlights' colours are the theme's (#31): each built-in theme gives its own, readable
/// on its page (WCAG contrast: 4.5:1 for a solid highlight's text on its mark, 3:1 for an
/// ink on the page; the default theme, on a terminal of unknown background, on black and on
/// white alike); a theme file that leaves them out takes the defaults; without colours the
/// styles stay reverse video, underline and dim underline.
@MainActor @Suite struct HighlightThemeTests {
    static func palette(_ name: String, colorCount: Int = 256) throws -> ThemePalette {
        try Theme(name: name, toml: #require(BuiltinThemes.files[name])).palette(colorCount: colorCount)
    }

    /// The relative luminance of a 256-colour index (WCAG 2).
    static func luminance(_ color: TerminalColor) throws -> Double {
        guard case .indexed(let index) = color else { throw Unexpected(color: color) }
        let (red, green, blue) = TerminalColor.rgb(of: index)
        func channel(_ value: Int) -> Double {
            let v = Double(value) / 255
            return v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
    }

    static func contrast(_ first: TerminalColor, _ second: TerminalColor) throws -> Double {
        let (a, b) = (try luminance(first), try luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    struct Unexpected: Error { let color: TerminalColor }

    @Test(arguments: BuiltinThemes.order)
    func eachBuiltinThemesHighlightsAreReadableOnItsPage(_ name: String) throws {
        let palette = try Self.palette(name)
        let page = palette[.text].background
        // The default theme keeps the terminal's background: black and white both.
        let pages: [TerminalColor] = page == .default ? [.indexed(16), .indexed(231)] : [page]
        for color in HighlightColor.allCases {
            let style = HighlightPaint.highlight(color, .solid).style(over: palette[.text], palette: palette, colorCount: 256)
            #expect(try Self.contrast(style.foreground, style.background) >= 4.5, "\(name) \(color) solid: \(style)")
            for style in [HighlightStyle.underline, .strikethrough] {
                let inked = HighlightPaint.highlight(color, style).style(over: palette[.text], palette: palette, colorCount: 256)
                #expect(inked.background == page, "\(name) \(color) \(style) keeps the page's background")
                for background in pages {
                    #expect(try Self.contrast(inked.foreground, background) >= 3, "\(name) \(color) \(style) ink \(inked.foreground) on \(background)")
                }
            }
        }
    }

    @Test func theColoursComeFromTheTheme() throws {
        let dark = try Self.palette("dark"), light = try Self.palette("light")
        for color in HighlightColor.allCases {
            let onDark = HighlightPaint.highlight(color, .solid).style(over: dark[.text], palette: dark, colorCount: 256)
            let onLight = HighlightPaint.highlight(color, .solid).style(over: light[.text], palette: light, colorCount: 256)
            #expect(onDark.background != onLight.background, "\(color)")
            // A dark theme's mark is darker than its text; a light theme's lighter.
            #expect(try Self.luminance(onDark.background) < Self.luminance(onDark.foreground))
            #expect(try Self.luminance(onLight.background) > Self.luminance(onLight.foreground))
        }
        // A theme file of one's own: the keys it gives are used, the others are the defaults.
        let own = try Theme(name: "own", toml: "[text]\nfg = 252\nbg = 235\n[highlight_green]\nbg = 22\nink = 120\n").palette(colorCount: 256)
        let solid = HighlightPaint.highlight(.green, .solid).style(over: own[.text], palette: own, colorCount: 256)
        #expect(solid.background == .indexed(22) && solid.foreground == .indexed(16))
        #expect(HighlightPaint.highlight(.green, .underline).style(over: own[.text], palette: own, colorCount: 256).foreground == .indexed(120))
        #expect(HighlightPaint.highlight(.pink, .solid).style(over: own[.text], palette: own, colorCount: 256).background == .indexed(218))
        // On 16 colours, reduced to the basic ones.
        let basic = try Self.palette("dark", colorCount: 16)
        let reduced = HighlightPaint.highlight(.yellow, .underline).style(over: basic[.text], palette: basic, colorCount: 16)
        guard case .indexed(let index) = reduced.foreground else { Issue.record("\(reduced)"); return }
        #expect(index < 16)
    }

    @Test(arguments: BuiltinThemes.order)
    func withoutColoursTheStylesStay(_ name: String) throws {
        let palette = try Self.palette(name, colorCount: 0)
        let base = palette[.text]
        for color in HighlightColor.allCases {
            let solid = HighlightPaint.highlight(color, .solid).style(over: base, palette: palette, colorCount: 0)
            let underline = HighlightPaint.highlight(color, .underline).style(over: base, palette: palette, colorCount: 0)
            let strike = HighlightPaint.highlight(color, .strikethrough).style(over: base, palette: palette, colorCount: 0)
            #expect(solid.attributes.contains(.reverse) && solid.foreground == .default && solid.background == .default)
            #expect(underline.attributes.contains(.underline) && underline.foreground == .default)
            #expect(strike.attributes.isSuperset(of: [.underline, .dim]) && strike.foreground == .default)
        }
    }
}
