import FoundationEssentials

/// The sleep timer of read-aloud: `:sleep 20` stops the reading 20 minutes from now (the
/// place saved is the phrase then read), `:sleep off` (or `:sleep 0`) forgets it. The status
/// line counts the minutes left.
///
/// The time is read from ``ReadAloudSession/clock``, which tests replace, so that no test
/// waits for minutes: a task looks at it every second while a timer runs.
extension ReaderApp {
    /// Carries out `:sleep N`; false when the command is not that one.
    func readAloudCommand(_ text: String, book: BookController) -> Bool {
        guard let minutes = ReadAloudSleep.minutes(in: text) else { return false }
        guard let session = ReadAloudSession.of(book) else {
            message = "The sleep timer stops reading aloud: start reading first (r)."
            return true
        }
        guard let minutes else {
            session.sleepDeadline = nil
            message = "Sleep timer off."
            return true
        }
        let deadline = ReadAloudSession.clock() + minutes * 60
        session.sleepDeadline = deadline
        message = nil
        book.tasks.start(nil) { [weak self, weak book] in
            while session.sleepDeadline == deadline, !session.hasEnded {
                guard let self, let book else { return }
                if ReadAloudSession.clock() >= deadline {
                    session.end()
                    self.message = "Sleep timer: stopped reading aloud after \(ReadAloudSleep.text(minutes: minutes))."
                    self.queuePosition(book, onlyIfMoved: true)
                    self.render()
                    return
                }
                let shown = session.sleepMinutesLeft
                try? await Task.sleep(for: .seconds(1))
                if session.sleepMinutesLeft != shown { self.render() }
            }
        }
        return true
    }
}

/// The words of the sleep timer.
enum ReadAloudSleep {
    /// The monotonic clock in seconds from its first reading.
    @MainActor static func monotonic() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @MainActor private static let origin = ContinuousClock.now

    /// The minutes of `:sleep N` (nil inside for `:sleep off`, `:sleep 0`, `:sleep`); nil when
    /// `text` is another command.
    static func minutes(in text: String) -> Double?? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.first == "sleep", words.count <= 2 else { return nil }
        guard words.count == 2, words[1] != "off" else { return .some(nil) }
        let number = words[1].hasSuffix("m") ? words[1].dropLast() : words[1]
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value == 0 ? .some(nil) : value
    }

    /// `20 min`, `1 h 30 min`.
    static func text(minutes: Double) -> String {
        let whole = Int(minutes.rounded(.up))
        return whole >= 60 ? "\(whole / 60) h\(whole % 60 == 0 ? "" : " \(whole % 60) min")" : "\(whole) min"
    }
}
