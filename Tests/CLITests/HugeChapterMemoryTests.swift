import Foundation
import Testing
import TestSupport

/// A book of one 20 MB chapter (a single-file book, as converted and Gutenberg-style books
/// often are) is laid out whole by `lectern render` within a memory ceiling: each block is
/// laid out and written as soon as the conversion makes it, and neither the chapter's text nor
/// its lines are kept (the layout used to keep about 130 bytes per byte of XHTML: 2.6 GB for
/// this chapter).
///
/// Not under a sanitizer (`make check-asan` sets ASAN_OPTIONS, `check-tsan` TSAN_OPTIONS): their
/// shadow memory and redzones multiply the peak, which then says nothing about the layout.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil
                    && ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil,
                "a sanitizer's shadow memory makes a memory ceiling meaningless"))
struct HugeChapterMemoryTests {
    /// The ceiling on the child's peak resident memory, in KB: under 5 bytes per byte of XHTML.
    /// A debug build peaks near 55 MB: the program, the chapter's bytes as read from the ZIP
    /// (20 MB) and libxml2's tree of the element being converted; the rest is margin. Keeping
    /// the converted chapter (as the reader does) would take about 120 MB more.
    static let ceilingKB = 96 * 1024

    /// Runs `lectern render` on the book with standard output to `output`, and prints the child's
    /// exit status and peak RSS (KB, `ru_maxrss` from `wait4`: an upper bound, since it counts
    /// pages the child shared with Python before `exec`).
    static let runner = """
        import os, subprocess, sys
        lectern, book, output = sys.argv[1:4]
        with open(output, "wb") as out:
            child = subprocess.Popen([lectern, "render", book, "--width", "100"], stdout=out, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
        print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
        """

    @Test func aTwentyMegabyteChapterRendersInBoundedMemory() throws {
        let directory = Fixtures.temporaryDirectory("huge-chapter")
        let book = directory + "/one-chapter.epub", output = directory + "/render.txt"
        try Command.run(["python3", Fixtures.repositoryRoot + "/Benchmarks/make_big_epub.py", "--chapters", "1",
                         "--words", "2800000", "--out", book])
        let report = String(decoding: try Command.python(Self.runner, [LecternProcess.executable, book, output]), as: UTF8.self)
        let fields = report.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(fields.count == 2, "unexpected runner output: \(report)")
        #expect(fields[0] == 0, "lectern render exited with \(fields[0])")
        #expect(fields[1] < Self.ceilingKB, "peak RSS \(fields[1] / 1024) MB, ceiling \(Self.ceilingKB / 1024) MB")

        // The whole chapter was laid out: its first words, its last paragraph, and as many
        // lines as 20 MB of text at 100 columns make.
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
        #expect(text.hasPrefix("Chapter 1: "))
        #expect(text.contains("BENCHSTART0001"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 150_000, "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.count <= 100 })
        // The generator ends the chapter with a paragraph of its end marker.
        let last = lines.last { !$0.isEmpty }.map(String.init) ?? ""
        #expect(last.contains("BENCHEND0001"), "last line: \(last)")
        try? FileManager.default.removeItem(atPath: directory)
    }
}
