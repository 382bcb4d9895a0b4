import FoundationEssentials
import Shared

/// Checks the Feedbooks signature of a manifest (audiobook-drm.md §1–§4): RSA-SHA256 over the
/// canonical form of the manifest without its signature, with a key of the issuer's key set.
struct SignatureCheck: Sendable {
    let configuration: AudiobookDRMConfiguration
    let keyStore: IssuerKeyStore

    init(configuration: AudiobookDRMConfiguration) {
        self.configuration = configuration
        keyStore = IssuerKeyStore(cache: KeySetCache(directory: configuration.keySetCacheDirectory),
                                  httpClient: configuration.httpClient, now: configuration.now,
                                  timeout: configuration.keySetTimeout)
    }

    func check(_ manifest: FeedbooksManifest) async -> AudiobookDRMReport.Outcome {
        guard let signature = manifest.signature else { return .skipped("the manifest is not signed") }
        guard let object = signature.object else { return .failed(.malformedSignature("it is not a JSON object")) }
        // Issuer, then algorithm, as the reference clients report them.
        let issuerValue = object["issuer"]?.string.map(\.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        guard let issuer = issuerValue else { return .failed(.unknownIssuer(nil)) }
        guard let url = configuration.keySetURL(issuer: issuer) else { return .failed(.unknownIssuer(issuer)) }
        let algorithm = object["algorithm"]?.string
        guard algorithm == FeedbooksVocabulary.rsaSHA256 else { return .failed(.unsupportedAlgorithm(algorithm)) }
        guard let text = object["value"]?.string else { return .failed(.malformedSignature("it has no value")) }
        guard let value = Base64.decode(text), !value.isEmpty else { return .failed(.malformedSignature("its value is not base64")) }
        guard !SignedManifestCanonicalForm.hasDuplicateMembers(manifest.json) else {
            return .failed(.malformedSignature("the manifest has duplicate members, so what was signed is ambiguous"))
        }

        let unsigned = SignedManifestCanonicalForm.unsigned(manifest.json)
        let candidates = SignedManifestCanonicalForm.candidates(of: unsigned)
        // The canonical forms are made once, on first need, and reused across key sets.
        var rendered: [[UInt8]] = []
        let result = await keyStore.verify(issuer: issuer, url: url) { keys in
            for (index, make) in candidates.enumerated() {
                if index == rendered.count { rendered.append(make()) }
                if keys.verifies(value, of: rendered[index]) { return true }
            }
            return false
        }
        switch result {
        case .success: return .passed
        case .failure(let error): return .failed(error)
        }
    }
}
