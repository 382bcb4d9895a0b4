import HostileInputHarness
#if canImport(Glibc)
import Glibc
#endif


/// libFuzzer's own driver (`-sanitize=fuzzer` links it), called from the executable's
/// top-level code: SwiftPM renames an executable's `main` to `<module>_main` and links
/// `main` to it, so libFuzzer's `main` is not the one that runs.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The shared part of the fuzz executables.
public enum FuzzDriver {
    /// Feeds one input to the harness; libFuzzer wants 0 back.
    public static func consume(_ data: UnsafePointer<UInt8>?, _ size: Int, as input: HostileInput) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        input.consumeBlocking(bytes)
        return 0
    }

    /// Runs libFuzzer with the process's arguments (corpus folders, `-max_total_time=`…) and
    /// exits with its status.
    public static func run(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }
}
