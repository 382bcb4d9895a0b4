import AudioPlayback
import Testing

/// The `#t=` media fragments of audiobook tables of contents.
@Suite struct MediaFragmentTests {
    @Test(arguments: [
        ("t=80", 80.0), ("t=npt:80", 80), ("t=1.233", 1.233), ("t=1:20.5", 80.5), ("t=1:02:03", 3723),
        ("t=80,120", 80), ("t=,20", 0), ("xywh=1,2,3,4&t=5", 5), ("t=0", 0),
    ])
    func startTimes(_ fragment: String, _ expected: Double) {
        #expect(MediaFragment.start(in: fragment) == expected)
    }

    @Test(arguments: ["", "t=", "t=abc", "t=-5", "t=1:75", "t=1e3", "t=1:2:3:4", "t=::", "id=t=5", "t=5.5.5", "t=١٢"])
    func malformedFragmentsHaveNoStart(_ fragment: String) {
        #expect(MediaFragment.start(in: fragment) == nil)
    }

    @Test func fragmentsAreWrittenCompactly() {
        #expect(MediaFragment.fragment(start: 12.5) == "t=12.5")
        #expect(MediaFragment.fragment(start: 3) == "t=3")
        #expect(MediaFragment.fragment(start: 0.1234) == "t=0.123")
        #expect(MediaFragment.fragment(start: -1) == "t=0")
        #expect(MediaFragment.fragment(start: .nan) == "t=0")
        #expect(TimeText.clock(3725) == "1:02:05")
        #expect(TimeText.clock(65.9) == "1:05")
    }
}
