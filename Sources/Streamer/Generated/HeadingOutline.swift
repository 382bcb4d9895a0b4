import Shared

/// Nests headings into a table of contents: each heading holds the deeper ones that follow it
/// until one of its level or higher.
enum HeadingOutline {
    struct Heading {
        var level: Int
        var title: String
        var href: String
    }

    static func contents(_ headings: [Heading]) -> [Link] {
        var index = 0
        return nest(headings, &index, aboveLevel: 0)
    }

    private static func nest(_ headings: [Heading], _ index: inout Int, aboveLevel parent: Int) -> [Link] {
        var links: [Link] = []
        while index < headings.count, headings[index].level > parent {
            let heading = headings[index]
            index += 1
            var link = Link(href: heading.href, title: heading.title.isEmpty ? "—" : heading.title)
            link.children = nest(headings, &index, aboveLevel: heading.level)
            links.append(link)
        }
        return links
    }
}
