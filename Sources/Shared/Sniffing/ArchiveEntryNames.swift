
/// Recognises comics (CBZ) and zipped audio books (ZAB) from the names of an archive's
/// entries alone, so that it works on archives whose content is encrypted with a password.
struct ArchiveEntryNames {
    static let bitmapExtensions: Set<String> = [
        "avif", "bmp", "dib", "gif", "jif", "jfi", "jfif", "jpg", "jpeg", "jxl", "png", "tif", "tiff", "webp",
    ]
    /// ComicInfo.xml and Advanced Comic Book Format metadata.
    static let comicMetadataExtensions: Set<String> = ["acbf", "xml"]
    static let audioExtensions: Set<String> = [
        "aac", "aif", "aiff", "alac", "flac", "m4a", "m4b", "mp3", "ogg", "oga", "mogg", "opus", "wav", "webm",
    ]
    static let playlistExtensions: Set<String> = [
        "asx", "bio", "m3u", "m3u8", "pla", "pls", "smil", "vlc", "wpl", "xspf", "zpl",
    ]

    /// Lower-cased extensions of the entries that count (an entry without one counts as "").
    let extensions: [String]

    init(paths: [String]) {
        extensions = paths.filter { !Self.isIgnored($0) }.map { FormatHints.fileExtension(of: $0) ?? "" }
    }

    /// Directories, hidden files and folders (any segment starting with `.`: `.DS_Store`,
    /// `__MACOSX/._page.jpg`) and Windows thumbnail caches are not content.
    static func isIgnored(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        let segments = path.split(separator: "/")
        if segments.contains(where: { $0.hasPrefix(".") }) { return true }
        return segments.last?.lowercased() == "thumbs.db"
    }

    /// CBZ when every entry is a bitmap or comic metadata and one at least is a bitmap; ZAB
    /// when every entry is audio, a cover image or a playlist and one at least is audio.
    ///
    /// A `.cbz` or `.zab` hint is trusted on an archive that also holds other files (credits
    /// in a `.txt`, a `.nfo`) provided the content fits: images and no audio for a comic,
    /// audio for an audio book.
    func kind(hints: FormatHints) -> Format.Kind? {
        let bitmaps = extensions.filter(Self.bitmapExtensions.contains).count
        let audio = extensions.filter(Self.audioExtensions.contains).count
        if bitmaps > 0, extensions.allSatisfy({ Self.bitmapExtensions.contains($0) || Self.comicMetadataExtensions.contains($0) }) {
            return .cbz
        }
        if audio > 0, extensions.allSatisfy({
            Self.audioExtensions.contains($0) || Self.bitmapExtensions.contains($0) || Self.playlistExtensions.contains($0)
        }) {
            return .zab
        }
        if hints.names(.cbz), bitmaps > 0, audio == 0 { return .cbz }
        if hints.names(.zab), audio > 0 { return .zab }
        return nil
    }
}
