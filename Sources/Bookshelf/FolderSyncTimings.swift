/// Where the time of one ``AnnotationFolderSync`` sync went, phase by phase (#32: the merge of
/// a 2,000-annotation book must stay under 50 ms). Measured in the process, so that the figure
/// excludes the process start; printed by `lectern sync now --timings` for the bench, never
/// asserted by a test (times depend on the machine).
public struct FolderSyncTimings: Sendable {
    /// The phases in the order they ran, with their durations; a phase that ran twice (several
    /// files read) is summed.
    public private(set) var phases: [(name: String, duration: Duration)] = []

    public init() {}

    /// The sum of the phases.
    public var total: Duration {
        phases.reduce(.zero) { $0 + $1.duration }
    }

    /// Runs `body`, adding its duration to the phase `name`.
    mutating func measure<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { add(name, clock.now - start) }
        return try body()
    }

    mutating func add(_ name: String, _ duration: Duration) {
        if let index = phases.firstIndex(where: { $0.name == name }) {
            phases[index].duration += duration
        } else {
            phases.append((name, duration))
        }
    }

    /// `total 1.23 ms: library 0.40, folder file 0.10, …` (milliseconds, two decimals).
    public var summary: String {
        "total \(Self.milliseconds(total)) ms: " + phases.map { "\($0.name) \(Self.milliseconds($0.duration))" }.joined(separator: ", ")
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let hundredths = Int64((Double(seconds) * 100_000 + Double(attoseconds) / 1e13).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
