import LibMobi
import Shared

/// Refuses Mobipocket and Kindle books whose record 0 declares Amazon's DRM, naming it, as an
/// access denial rather than damage: Lectern does not remove DRM, and no password or
/// restricted mode would help. Reads the first kilobytes only (the record list and record 0);
/// the MOBI parser checks again, through libmobi, the KF8 half of a hybrid file.
public struct KindleDRMContentProtection: ContentProtection {
    public init() {}

    public func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
                     sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        guard asset.format.kind == .mobi || asset.format.kind == .azw3,
              let link = fetcher.links.first else { return nil }
        let resource = fetcher.get(link)
        defer { resource.close() }
        guard case .success(let head) = resource.read(range: 0..<82) else { return nil }
        let bytes = [UInt8](head)
        guard bytes.count == 82 else { return nil }
        let record0 = UInt64(bytes[78]) << 24 | UInt64(bytes[79]) << 16 | UInt64(bytes[80]) << 8 | UInt64(bytes[81])
        guard case .success(let field) = resource.read(range: (record0 + 12)..<(record0 + 14)), field.count == 2 else { return nil }
        let type = UInt16(field[field.startIndex]) << 8 | UInt16(field[field.startIndex + 1])
        guard type != 0 else { return nil }
        throw .forbidden(MobiError.drmProtected(protection: MobiError.protection(encryptionType: type)))
    }
}
