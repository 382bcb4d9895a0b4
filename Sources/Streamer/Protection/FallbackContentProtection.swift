import Shared

/// Recognises publications protected by something Lectern cannot unlock and opens them
/// restricted with a clear error, instead of parsing ciphertext as content.
///
/// (Stub: detection lands with the fallback protection work.)
struct FallbackContentProtection: ContentProtection {
    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        nil
    }
}
