import LCP
import Shared

/// Readium LCP as the loader's first protection, with its service (the license database,
/// the trust anchors parsed with libcrypto) made only when an asset is LCP-protected: opening
/// an open book costs neither, which keeps the reader's start and memory small.
struct DeferredLCPProtection: ContentProtection {
    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        // The same test as LCPContentProtection's first line, before anything is made.
        guard asset.format.isLCPProtected || asset.format.kind == .lcpl else { return nil }
        let service: LCPService
        do {
            service = try LCPSetup.service.get()
        } catch {
            throw .unavailable(error)
        }
        return try await service.contentProtection().open(
            asset: asset, fetcher: fetcher, credentials: credentials, allowUserInteraction: allowUserInteraction,
            sender: sender, onAskCredentials: onAskCredentials)
    }
}
