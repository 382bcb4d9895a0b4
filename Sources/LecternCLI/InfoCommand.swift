import ArgumentParser
import Bookshelf
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern info PATH`: metadata, format, table of contents, protection and rights, read
/// without fetching any resource.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a publication's metadata, format, table of contents and protection.",
        discussion: "Exit status: 0 opened, 2 cannot be opened, 3 opened but restricted."
    )

    @Argument(help: "The publication file, folder or URL.", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials, json: json) { [path, json, credentials] error in
            await UnreachableLicensedPublication.report(path: path, credentials: credentials.credentials, error: error, json: json)
        }
        let publication = opened.publication
        defer { publication.close() }
        let protection = await ProtectionSummary(publication)
        if json {
            var object = JSONObject()
            object["path"] = .string(path)
            object["format"] = .string(opened.asset.format.description)
            object["mediaType"] = .string(opened.asset.format.mediaType.string)
            object["protection"] = protection?.json ?? .null
            object["license"] = protection?.license?.json ?? .null
            object["manifest"] = publication.manifest.json
            object["warnings"] = .array(opened.warnings.map { .string($0.description) })
            if let shelved = Self.calibreDetails(of: path) {
                var library = JSONObject()
                library["series"] = shelved.series.map(JSONValue.string) ?? .null
                library["series_index"] = shelved.series == nil ? .null : shelved.seriesIndex.map(JSONValue.double) ?? .null
                library["tags"] = .array(shelved.tags.map(JSONValue.string))
                object["library"] = .object(library)
            }
            Output.json(.object(object))
        } else {
            printText(opened, protection: protection)
        }
        Output.flush()
        if protection?.restricted ?? false { throw ExitStatus.restricted }
    }

    private func printText(_ opened: PublicationLoader.Opened, protection: ProtectionSummary?) {
        let publication = opened.publication
        let metadata = publication.metadata
        func field(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            Output.line((name + ":").padding(14) + value)
        }
        func people(_ name: String, _ list: [Contributor]) {
            field(name, list.map(\.name).joined(separator: ", "))
        }
        field("Title", metadata.title ?? opened.asset.name)
        field("Subtitle", metadata.subtitle)
        people("Authors", metadata.authors)
        people("Translators", metadata.translators)
        people("Editors", metadata.editors)
        people("Illustrators", metadata.illustrators)
        people("Narrators", metadata.narrators)
        people("Contributors", metadata.contributors)
        people("Publisher", metadata.publishers)
        field("Published", metadata.published)
        field("Language", metadata.languages.joined(separator: ", "))
        field("Identifier", metadata.identifier)
        field("Subjects", metadata.subjects.map(\.name).joined(separator: ", "))
        for (role, collections) in metadata.belongsTo.sorted(by: { $0.key < $1.key }) {
            field(role.prefix(1).uppercased() + role.dropFirst(), collections.map { collection in
                collection.position.map { "\(collection.name) #\(formatNumber($0))" } ?? collection.name
            }.joined(separator: ", "))
        }
        field("Format", "\(opened.asset.format) (\(opened.asset.format.mediaType))")
        field("Reading order", "\(publication.readingOrder.count) items, \(metadata.effectiveReadingProgression.rawValue)")
        field("Duration", metadata.duration.map(formatDuration))
        field("Pages", metadata.numberOfPages.map(String.init))
        if let protection {
            field("Protection", (protection.name ?? protection.scheme) + (protection.restricted ? " (restricted)" : ""))
            field("Reason", protection.error)
            field("Advice", protection.advice)
            field("Rights", "copy \(protection.canCopy ? "allowed" : "not allowed"), print \(protection.canPrint ? "allowed" : "not allowed")")
            for (label, value) in protection.license?.fields ?? [] { field(label, value) }
        } else {
            field("Protection", "none")
        }
        if let shelved = Self.calibreDetails(of: path) {
            field("Series", shelved.series.map { name in name + (shelved.seriesIndex.map { " #\(formatNumber($0))" } ?? "") })
            field("Tags", shelved.tags.joined(separator: ", "))
        }
        field("Description", metadata.description)
        for warning in opened.warnings { field("Warning", warning.description) }
        if !publication.tableOfContents.isEmpty {
            Output.line("Table of contents:")
            printTOC(publication.tableOfContents, depth: 1)
        }
    }

    /// What calibre said of the book (series, tags) when the library holds this file (#34).
    static func calibreDetails(of path: String) -> LibraryStore.CalibreDetails? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        guard case .success(let database) = LibraryDatabase.process,
              let entry = try? database.library.entry(path: String(cString: resolved)),
              entry.series != nil || !entry.tags.isEmpty else { return nil }
        return LibraryStore.CalibreDetails(of: entry)
    }

    private func printTOC(_ links: [Link], depth: Int) {
        for link in links {
            Output.line(String(repeating: "  ", count: depth) + (link.title ?? link.path ?? link.href))
            printTOC(link.children, depth: depth + 1)
        }
    }
}

func formatNumber(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(value.clampedInt) : String(value)
}

/// `h:mm:ss` for a duration in seconds.
func formatDuration(_ seconds: Double) -> String {
    let total = max(0, seconds.clampedInt)
    let hours = total / 3600, minutes = total / 60 % 60, secs = total % 60
    let mm = minutes < 10 ? "0\(minutes)" : "\(minutes)", ss = secs < 10 ? "0\(secs)" : "\(secs)"
    return "\(hours):\(mm):\(ss)"
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
