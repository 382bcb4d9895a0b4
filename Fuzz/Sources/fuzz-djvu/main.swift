import FuzzDriver
import HostileInputHarness

// libFuzzer calls this with each input; see FuzzDriver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.consume(data, size, as: .djvu)
}

FuzzDriver.run(fuzzOneInput)
