import FoundationEssentials
import Shared

/// How a publication of the library is protected, as its mark on the bookshelf.
public enum ProtectionMark: String, Sendable, Hashable, CaseIterable {
    case none
    /// Readium LCP.
    case lcp
    /// A password-protected ZIP or PDF.
    case password
    /// A signed library audiobook manifest.
    case signedAudiobook = "signed"
    /// A DRM Lectern cannot open (Adobe ADEPT, unknown encryption).
    case unsupported

    /// The short label shown in the bookshelf's protection column.
    public var label: String {
        switch self {
        case .none: ""
        case .lcp: "LCP"
        case .password: "password"
        case .signedAudiobook: "signed"
        case .unsupported: "DRM"
        }
    }

    /// The mark of a content-protection scheme (`ContentProtectionService.scheme`).
    public init(scheme: String?) {
        switch scheme {
        case nil: self = .none
        case "http://readium.org/2014/01/lcp": self = .lcp
        case "zip-password", "pdf-password": self = .password
        case let scheme? where scheme.contains("audiobook") || scheme.contains("jws"): self = .signedAudiobook
        default: self = .unsupported
        }
    }
}

/// One publication of the library, as the bookshelf lists it.
public struct LibraryEntry: Sendable, Hashable, Identifiable {
    /// The row id (0 before it is stored).
    public var id: Int64
    /// What identifies the content wherever the file is (``ContentIdentity``).
    public var identity: String
    /// Where the file was last seen.
    public var path: String
    public var title: String
    public var author: String
    /// How the authors sort: the first author's `file-as` (or `sortAs`) when the publication
    /// gives one, else the family name first (``LibraryStore/authorSortKey(_:)``).
    public var authorSortKey: String
    /// The format as shown ("EPUB", "Audiobook"…).
    public var format: String
    public var protection: ProtectionMark
    /// The LCP license id, to find the loan in the license repository.
    public var licenseID: String?
    /// Whether the file was acquired into the library folder (then deleting it deletes the file).
    public var acquired: Bool
    public var addedAt: Date
    public var openedAt: Date?
    /// Reading progress in the whole publication, 0…1, when known.
    public var progress: Double?
    /// The last reading position, a serialised `Locator`.
    public var locator: String?
    /// The series the book belongs to and its number in it, as calibre says (#34).
    public var series: String?
    public var seriesIndex: Double?
    /// calibre's tags, sorted.
    public var tags: [String]
    /// calibre's `cover.jpg` for the book, shown on the bookshelf instead of the file's own.
    public var cover: String?

    public init(id: Int64 = 0, identity: String, path: String, title: String, author: String = "", authorSortKey: String? = nil,
                format: String = "", protection: ProtectionMark = .none, licenseID: String? = nil, acquired: Bool = false,
                addedAt: Date = Date(), openedAt: Date? = nil, progress: Double? = nil, locator: String? = nil,
                series: String? = nil, seriesIndex: Double? = nil, tags: [String] = [], cover: String? = nil) {
        self.id = id
        self.identity = identity
        self.path = path
        self.title = title
        self.author = author
        self.authorSortKey = authorSortKey ?? LibraryStore.authorSortKey(author)
        self.format = format
        self.protection = protection
        self.licenseID = licenseID
        self.acquired = acquired
        self.addedAt = addedAt
        self.openedAt = openedAt
        self.progress = progress
        self.locator = locator
        self.series = series
        self.seriesIndex = seriesIndex
        self.tags = tags
        self.cover = cover
    }
}

/// A bookmark: a position in a publication with a label (the text it starts with).
public struct Bookmark: Sendable, Hashable, Identifiable {
    /// The row id: this library's key.
    public var id: Int64
    /// A serialised `Locator`.
    public var locator: String
    public var label: String
    /// Progress in the publication, when known, for sorting and display.
    public var progress: Double?
    public var createdAt: Date
    /// The stable id, the same on every device the bookmark is synced to (#32).
    public var uid: String
    /// The last change (made, renamed, deleted): the newest version wins a sync.
    public var modifiedAt: Date
    /// A deletion tombstone, kept for syncing; never listed.
    public var deleted: Bool

    public init(id: Int64 = 0, locator: String, label: String, progress: Double? = nil, createdAt: Date = Date(),
                uid: String = UUID().uuidString.lowercased(), modifiedAt: Date? = nil, deleted: Bool = false) {
        self.id = id
        self.locator = locator
        self.label = label
        self.progress = progress
        self.createdAt = createdAt
        self.uid = uid
        self.modifiedAt = modifiedAt ?? createdAt
        self.deleted = deleted
    }
}

extension Bookmark {
    /// Whether this bookmark marks the place `locator` points at: the same resource and
    /// position, and the same progression in it. The words at the place count only when one
    /// of the two has no progression (the first part of a long chapter, whose length was not
    /// known yet): a protected book's bookmarks are stored without words, and a reflowed
    /// page's first words may differ.
    public func marks(_ locator: Locator) -> Bool {
        guard let stored = Locator(jsonString: self.locator), stored.href == locator.href else { return false }
        let (mine, theirs) = (stored.locations, locator.locations)
        if let mine = mine.position, let theirs = theirs.position, mine != theirs { return false }
        switch (mine.progression, theirs.progression) {
        // The progression in the resource names the place; the fragment is only the nearest
        // id before it (and a position may be known to one of them only, before the count).
        // A JSON round trip may move the last digit.
        case let (mine?, theirs?): return abs(mine - theirs) < 1e-9
        case (nil, nil):
            guard mine.fragments == theirs.fragments, mine.position == theirs.position else { return false }
            if let words = stored.text.highlight, let others = locator.text.highlight { return words == others }
            return true
        default:
            // One made while the first part of a long chapter was shown, before its whole
            // length (so its progression) was known: the same nearest id and the same words.
            guard mine.fragments == theirs.fragments, let words = stored.text.highlight, !words.isEmpty else { return false }
            return words == locator.text.highlight
        }
    }
}
