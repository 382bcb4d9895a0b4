import ArgumentParser
import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern cat PATH [--href H] [--range A-B]`: writes the bytes of one resource, as the reader
/// sees them, to standard output. Refused for publications whose rights are limited, since
/// writing content out is copying.
struct CatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Write one resource of a publication to standard output (the first of the reading order by default)."
    )

    @Argument(help: "The publication file, folder or URL.", completion: .file())
    var path: String

    @Option(help: "The resource to write, as a path in the package.")
    var href: String?

    @Option(help: "Only these bytes, as START-END (END excluded).")
    var range: String?

    @OptionGroup var credentials: CredentialsOption

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        let publication = opened.publication
        defer { publication.close() }
        try publication.requireUnlocked(path: path)
        guard publication.rights is UnrestrictedUserRights else {
            Output.error("\(path): its license limits copying; writing its content out would copy it")
            throw ExitStatus.restricted
        }
        guard let target = href ?? publication.readingOrder.first?.href else {
            Output.error("\(path): the publication has no reading order")
            throw ExitStatus.someFailed
        }
        var byteRange: Range<UInt64>?
        if let range {
            let bounds = range.split(separator: "-").compactMap { UInt64($0) }
            guard bounds.count == 2, bounds[0] <= bounds[1] else {
                throw ValidationError("--range must be START-END with START ≤ END")
            }
            byteRange = bounds[0]..<bounds[1]
        }
        let resource = publication.get(target)
        defer { resource.close() }
        switch resource.read(range: byteRange) {
        case .success(let data):
            data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        case .failure(let error):
            Output.error("\(path): \(target): \(userMessage(of: error))")
            throw ExitStatus.someFailed
        }
    }
}
