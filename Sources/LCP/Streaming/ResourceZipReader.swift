import FoundationEssentials
import LibZip
import Shared

/// Lets libzip read a ZIP archive through a ``Resource`` (a remote file behind a block cache,
/// or bytes in memory): see ``ZipArchive/init(reader:)``.
struct ResourceZipReader: ZipRandomAccessReader {
    let resource: any Resource

    func size() throws(ZipError) -> UInt64 {
        switch resource.length {
        case .success(let length): return length
        case .failure(let error): throw .cannotOpen(error.description)
        }
    }

    func read(range: Range<UInt64>) throws(ZipError) -> Data {
        switch resource.read(range: range) {
        case .success(let data): return data
        case .failure(let error): throw .readFailed(error.description)
        }
    }
}
