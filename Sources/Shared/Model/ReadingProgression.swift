/// The direction in which the reading order is read.
public enum ReadingProgression: String, Sendable, Hashable {
    case ltr, rtl, ttb, btt, auto
}
