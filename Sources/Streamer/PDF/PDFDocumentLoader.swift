import LibPoppler
import Shared
import Synchronization

/// Opens the PDF of a package (LCP PDF) on first use, reading it whole through the
/// publication's fetcher — which decrypts it — into memory only, and keeps it.
final class PDFDocumentLoader: Sendable {
    /// The PDF in the package.
    let link: Link
    private let state = Mutex<LoadState>(.idle)

    private enum LoadState {
        case idle
        case loaded(PDFDocument)
        case failed(PDFLoadError)
        case closed
    }

    init(link: Link) {
        self.link = link
    }

    /// The document, opened the first time through `fetcher`; the first outcome is kept.
    func document(using fetcher: any Fetcher) -> Result<PDFDocument, PDFLoadError> {
        let link = link
        return state.withLock { state in
            switch state {
            case .loaded(let document): return .success(document)
            case .failed(let error): return .failure(error)
            case .closed: return .failure(.closed)
            case .idle: break
            }
            let outcome: Result<PDFDocument, PDFLoadError>
            switch PDFSource.read(link, from: fetcher) {
            case .failure(let error):
                outcome = .failure(.unreadable(error))
            case .success(let data):
                do throws(PDFError) {
                    outcome = .success(try PDFDocument(data: data))
                } catch {
                    outcome = .failure(.invalid(error))
                }
            }
            switch outcome {
            case .success(let document): state = .loaded(document)
            case .failure(let error): state = .failed(error)
            }
            return outcome
        }
    }

    /// Releases the document.
    func close() {
        state.withLock { state in
            if case .loaded(let document) = state { document.close() }
            state = .closed
        }
    }
}

/// Why the PDF of a package could not be opened.
enum PDFLoadError: Error, Sendable, CustomStringConvertible {
    /// Reading it failed (a restricted publication refuses it).
    case unreadable(ResourceError)
    /// The bytes are no usable PDF.
    case invalid(PDFError)
    case closed

    var description: String {
        switch self {
        case .unreadable(let error): userMessage(of: error)
        case .invalid(let error): error.description
        case .closed: "the publication is closed"
        }
    }
}
