import ArgumentParser
import FoundationEssentials
import LibCrypto
import Shared

/// `lectern check PATH`: opens without interaction and reads every resource of the reading
/// order and the resources through `Publication.get`, reporting each one's length and SHA-256
/// (of what the reader sees: decrypted, deobfuscated).
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Open a publication and read every resource, reporting lengths and SHA-256.",
        discussion: "Exit status: 0 all readable, 1 some failed, 2 cannot be opened, 3 opened but restricted."
    )

    @Argument(help: "The publication file, folder or URL.", completion: .file())
    var path: String

    @OptionGroup var credentials: CredentialsOption

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials, json: json)
        let publication = opened.publication
        defer { publication.close() }

        let results = ResourceCheck.run(publication)
        let protection = await ProtectionSummary(publication)
        let failed = results.filter { !$0.ok }.count
        if json {
            Output.json(report(opened, results: results, protection: protection))
        } else {
            printText(opened, results: results, protection: protection, failed: failed)
        }
        Output.flush()
        if protection?.restricted ?? false { throw ExitStatus.restricted }
        if failed > 0 { throw ExitStatus.someFailed }
    }

    private func report(_ opened: PublicationLoader.Opened, results: [ResourceCheck], protection: ProtectionSummary?) -> JSONValue {
        let publication = opened.publication
        var object = JSONObject()
        object["path"] = .string(path)
        object["format"] = .string(opened.asset.format.description)
        object["mediaType"] = .string(opened.asset.format.mediaType.string)
        object["title"] = publication.metadata.title.map(JSONValue.string) ?? .null
        object["protection"] = protection?.json ?? .null
        object["license"] = protection?.license?.json ?? .null
        object["readingOrder"] = .array(publication.readingOrder.map { .string(ResourceCheck.displayHref($0)) })
        object["resources"] = .array(results.map(\.json))
        object["warnings"] = .array(opened.warnings.map { .string($0.description) })
        return .object(object)
    }

    private func printText(_ opened: PublicationLoader.Opened, results: [ResourceCheck], protection: ProtectionSummary?, failed: Int) {
        let publication = opened.publication
        Output.line("\(publication.metadata.title ?? opened.asset.name) (\(opened.asset.format))")
        if let protection {
            Output.line("Protection: \(protection.name ?? protection.scheme)\(protection.restricted ? " — restricted" : "")")
            if let error = protection.error { Output.line("  \(error)") }
            if let advice = protection.advice { Output.line("  \(advice)") }
            for (label, value) in protection.license?.fields ?? [] { Output.line("  " + (label + ":").padding(14) + value) }
        }
        for warning in opened.warnings { Output.line("warning: \(warning)") }
        for result in results {
            if let sha256 = result.sha256, let length = result.length {
                Output.line("ok    \(sha256)  \(String(length).leftPadded(9))  \(result.href)")
            } else {
                Output.line("FAIL  \(result.href): \(result.error ?? "unreadable")")
            }
        }
        Output.line("\(results.count - failed) of \(results.count) resources readable")
    }
}

/// The outcome of reading one resource whole.
struct ResourceCheck {
    let href: String
    let mediaType: String?
    let length: Int?
    let sha256: String?
    let error: String?

    var ok: Bool { sha256 != nil }

    /// Reads every link of the reading order and the resources (each href once).
    static func run(_ publication: Publication) -> [ResourceCheck] {
        var seen = Set<String>()
        var results: [ResourceCheck] = []
        for link in publication.readingOrder + publication.resources where seen.insert(link.href).inserted {
            let resource = publication.get(link)
            defer { resource.close() }
            switch resource.read() {
            case .success(let data):
                results.append(ResourceCheck(href: displayHref(link), mediaType: (resource.link.mediaType ?? link.mediaType)?.string,
                                             length: data.count, sha256: Digest.sha256(data).hexString, error: nil))
            case .failure(let error):
                results.append(ResourceCheck(href: displayHref(link), mediaType: link.mediaType?.string,
                                             length: nil, sha256: nil, error: userMessage(of: error)))
            }
        }
        return results
    }

    /// The path inside the package, percent-decoded and without a leading slash; absolute
    /// URLs as they are.
    static func displayHref(_ link: Link) -> String {
        link.path ?? link.href
    }

    var json: JSONValue {
        var object = JSONObject()
        object["href"] = .string(href)
        object["mediaType"] = mediaType.map(JSONValue.string) ?? .null
        object["ok"] = .bool(ok)
        if let sha256, let length {
            object["length"] = .int(length)
            object["sha256"] = .string(sha256)
        } else {
            object["error"] = .string(error ?? "unreadable")
        }
        return .object(object)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
