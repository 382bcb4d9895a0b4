import LibArchive
import Shared

/// Parses comic books in RAR (CBR), 7z (CB7) and tar (CBT) archives, read through libarchive:
/// the archive becomes a ``ComicArchiveFetcher`` and the CBZ parser (``ImageParser``) does
/// the rest, so that pages, `ComicInfo.xml` and the comic reader are the same as a CBZ's.
public struct ComicArchiveParser: PublicationParser {
    public let limits: ArchiveLimits

    public init(limits: ArchiveLimits = ArchiveLimits()) {
        self.limits = limits
    }

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard [.cbr, .cb7, .cbt].contains(asset.format.kind) else { return nil }
        let archiveFetcher: ComicArchiveFetcher
        if let opened = fetcher as? ComicArchiveFetcher {
            archiveFetcher = opened
        } else {
            do {
                archiveFetcher = try ComicArchiveFetcher(path: asset.location, limits: limits)
            } catch {
                switch error {
                case .encrypted, .unsupported: throw .unsupported(reason: "\(asset.name): \(error.description)")
                default: throw .invalid(href: nil, reason: "\(asset.name): \(error.description)")
                }
            }
        }
        let comic = Asset(name: asset.name, location: asset.location, format: Format(kind: .cbz), fetcher: archiveFetcher)
        do {
            guard var builder = try ImageParser().parse(asset: comic, fetcher: archiveFetcher, warnings: warnings) else {
                archiveFetcher.close()
                return nil
            }
            builder.format = asset.format
            return builder
        } catch {
            archiveFetcher.close()
            if case .invalid(_, let reason) = error, reason.contains("no images") {
                throw .invalid(href: nil, reason: "\(Format.describe(asset.format)) without pictures: "
                    + "Lectern reads RAR, 7z and tar archives as comic books, one picture a page")
            }
            throw error
        }
    }
}
