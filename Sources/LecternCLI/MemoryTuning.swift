#if canImport(Glibc)
import Glibc
#endif

/// Process-wide settings of the C allocator, made before any thread allocates.
enum MemoryTuning {
    /// glibc's `M_ARENA_MAX` (malloc.h; `mallopt` is not in Swift's Glibc module).
    private static let arenaMaximum: Int32 = -8

    /// One malloc arena for the whole process. glibc gives each thread that meets contention
    /// an arena of its own, whose freed pages stay resident; lectern's few background threads
    /// (chapter layout, decryption) gain nothing from that, and the reader's peak memory drops
    /// by over a megabyte (BENCHMARKS.md).
    static func apply() {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        // RTLD_DEFAULT is the null handle on glibc.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaximum, 1)
        #endif
    }
}
