import FoundationEssentials

/// The async face of a ``Resource``: its reads may open archives, inflate and decrypt, so a
/// caller on the cooperative pool (a server handler, an interface task) awaits them here and
/// they run through ``Blocking`` on a Dispatch thread.
extension Resource {
    /// ``length`` read off the cooperative pool.
    public var lengthOffPool: ResourceResult<UInt64> {
        get async { await Blocking.run { self.length } }
    }

    /// ``read(range:)`` run off the cooperative pool.
    public func readOffPool(range: Range<UInt64>? = nil) async -> ResourceResult<Data> {
        await Blocking.run { self.read(range: range) }
    }
}
