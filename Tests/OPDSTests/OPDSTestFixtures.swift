import Foundation
import TestSupport

/// A file of `Tests/Fixtures/opds`, as bytes.
func opdsFixture(_ name: String) -> [UInt8] {
    let bytes = [UInt8](Fixtures.bytes(Fixtures.path("opds/" + name)))
    precondition(!bytes.isEmpty, "missing fixture opds/\(name)")
    return bytes
}
