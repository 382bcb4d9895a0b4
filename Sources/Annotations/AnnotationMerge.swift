import FoundationEssentials

/// Merges the annotations of one publication as several devices hold them (#32, sync through a
/// folder): the union by id, the version modified last winning, tombstones included.
///
/// A tombstone is a version like any other: modified after the live copy, it deletes it; a live
/// copy modified after the tombstone (edited after the deletion elsewhere) comes back. Times
/// are compared to the microsecond, what the files keep, so that a time read back from a file
/// equals the one written. The result does not depend on the order of the sources.
public enum AnnotationMerge {
    /// What ``merge(local:remote:)`` made.
    public struct Result: Sendable, Equatable {
        /// Every annotation, tombstones included, ordered by creation then id.
        public var merged: [Annotation]
        /// The ones the local copy lacks or holds an older version of: what to save locally.
        public var changedLocally: [Annotation]
    }

    /// Merges `local` with every list of `remote` (one per file read).
    ///
    /// Equal times: a tombstone beats a live copy (the deletion was meant), then the local copy
    /// stays, then the greatest by a total order of the content, so two devices merging the same
    /// versions pick the same one. A quote the winner lacks (an LCP book's, written without it)
    /// is taken from the local copy of the same id: a quote is never lost by syncing.
    public static func merge(local: [Annotation], remote: [[Annotation]]) -> Result {
        var winners: [String: Annotation] = [:]
        var localByID: [String: Annotation] = [:]
        for annotation in local {
            localByID[annotation.id] = choose(localByID[annotation.id], annotation, localWins: false)
        }
        winners = localByID
        for annotation in remote.joined() {
            let current = winners[annotation.id]
            // The local copy stays on a tie; between two files' copies, the content decides.
            winners[annotation.id] = choose(current, annotation, localWins: current != nil && current == localByID[annotation.id])
        }
        var changed: [Annotation] = []
        for (id, winner) in winners {
            guard let mine = localByID[id] else {
                changed.append(winner)
                continue
            }
            guard winner != mine else { continue }
            var kept = winner
            if kept.target.quote == nil, !kept.target.quoteIsSealed, !kept.deleted {
                kept.target.quote = mine.target.quote
                kept.target.quoteIsSealed = mine.target.quoteIsSealed
                if mine.target.quote != nil || mine.target.quoteIsSealed { kept.target.quoteWithheld = false }
            }
            winners[id] = kept
            if kept != mine { changed.append(kept) }
        }
        return Result(merged: winners.values.sorted(by: ordered), changedLocally: changed.sorted(by: ordered))
    }

    /// The later of two versions of one annotation (see ``merge(local:remote:)`` for ties);
    /// `localWins`: `current` is the local copy, kept on a tie of time and deletion.
    static func choose(_ current: Annotation?, _ candidate: Annotation, localWins: Bool) -> Annotation {
        guard let current else { return candidate }
        let now = micros(current.modified), then = micros(candidate.modified)
        if now != then { return then > now ? candidate : current }
        if current.deleted != candidate.deleted { return candidate.deleted ? candidate : current }
        if localWins || current == candidate { return current }
        return key(candidate) > key(current) ? candidate : current
    }

    /// The time to the microsecond, as ISO 8601 dates in the files keep it.
    public static func micros(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1_000_000).rounded()
        return value.isFinite && abs(value) < 9e18 ? Int64(value) : 0
    }

    /// A total order of the content, for ties between two remote versions.
    private static func key(_ annotation: Annotation) -> String {
        [annotation.note ?? "", annotation.color.rawValue, annotation.style.rawValue, annotation.tags.joined(separator: "\u{1F}"),
         annotation.target.href, annotation.target.quote?.exact ?? ""].joined(separator: "\u{1E}")
    }

    private static func ordered(_ first: Annotation, _ second: Annotation) -> Bool {
        let one = micros(first.created), two = micros(second.created)
        return one != two ? one < two : first.id < second.id
    }
}
