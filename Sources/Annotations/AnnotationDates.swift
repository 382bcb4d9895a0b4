import FoundationEssentials

/// ISO 8601 date-times in UTC (`2024-01-02T10:11:12.345Z`) and KOReader's local
/// `2024-01-02 10:11:12`, written and read without a locale or a formatter: the same bytes on
/// every machine, so that exports compare equal.
enum AnnotationDates {
    /// `date` in UTC, with the fraction of a second to the microsecond when it has one
    /// (trailing zeros dropped), so that Lectern's JSON reads back the same `Date`.
    static func iso8601(_ date: Date) -> String {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard micros.isFinite, abs(micros) < 4e17 else { return "1970-01-01T00:00:00Z" }
        let total = Int64(micros)
        let seconds = floorDivide(total, 1_000_000)
        let fraction = Int(total - seconds * 1_000_000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        if (0...9999).contains(year) {
            return digits(year: year, month: month, day: day, secondOfDay: secondOfDay, fraction: fraction)
        }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction > 0 {
            var digits = pad(fraction, 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// An ISO 8601 date-time: `YYYY-MM-DDTHH:MM[:SS[.fff…]]` then `Z` or `±HH[:]MM` (a missing
    /// offset is read as UTC); a date alone is midnight UTC. Nil when it is none.
    static func parseISO8601(_ text: String) -> Date? {
        var scanner = DigitScanner(text.utf8)
        guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
              let day = scanner.number(2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = days(fromYear: year, month: month, day: day) * 86_400
        var micros: Int64 = 0
        if scanner.atEnd { return Date(timeIntervalSince1970: Double(seconds)) }
        guard scanner.skip("T") || scanner.skip(" ") || scanner.skip("t"),
              let hour = scanner.number(2), scanner.skip(":"), let minute = scanner.number(2),
              hour < 24, minute < 60 else { return nil }
        seconds += Int64(hour * 3600 + minute * 60)
        if scanner.skip(":") {
            guard let second = scanner.number(2), second <= 60 else { return nil }
            seconds += Int64(second)
            if scanner.skip(".") || scanner.skip(",") {
                guard let fraction = scanner.microseconds() else { return nil }
                micros = fraction
            }
        }
        // Whole microseconds over 10⁶, so that the `Date` written is the one read back.
        let instant = Double(seconds * 1_000_000 + micros) / 1_000_000
        if scanner.skip("Z") || scanner.skip("z") || scanner.atEnd {
            return scanner.atEnd ? Date(timeIntervalSince1970: instant) : nil
        }
        let sign: Double = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : 0)
        guard sign != 0, let offsetHours = scanner.number(2) else { return nil }
        _ = scanner.skip(":")
        let offsetMinutes = scanner.number(2) ?? 0
        guard scanner.atEnd, offsetHours < 24, offsetMinutes < 60 else { return nil }
        return Date(timeIntervalSince1970: instant - sign * Double(offsetHours * 3600 + offsetMinutes * 60))
    }

    /// KOReader's `os.date("%Y-%m-%d %H:%M:%S")`: the device's local time, without a zone;
    /// read in `timeZone` (the one the device was in is unknown).
    static func parseKOReader(_ text: String, timeZone: TimeZone) -> Date? {
        guard let naive = parseISO8601(text) else { return nil }
        let offset = timeZone.secondsFromGMT(for: naive)
        return naive.addingTimeInterval(-Double(offset))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// What ``iso8601(_:)`` writes for a four-digit year, put digit by digit into one buffer:
    /// a sync file writes two dates per annotation, and joining padded strings was a sixth of it.
    private static func digits(year: Int, month: Int, day: Int, secondOfDay: Int, fraction: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(27)
        func put(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(0x30 + value / divisor % 10))
                divisor /= 10
            }
        }
        put(year, 4); out.append(UInt8(ascii: "-")); put(month, 2); out.append(UInt8(ascii: "-")); put(day, 2)
        out.append(UInt8(ascii: "T")); put(secondOfDay / 3600, 2); out.append(UInt8(ascii: ":"))
        put(secondOfDay / 60 % 60, 2); out.append(UInt8(ascii: ":")); put(secondOfDay % 60, 2)
        if fraction > 0 {
            out.append(UInt8(ascii: "."))
            put(fraction, 6)
            while out.last == UInt8(ascii: "0") { out.removeLast() }
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(fromYear year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day since 1970-01-01 (`civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

/// Reads fixed-width decimal fields of a date.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ utf8: String.UTF8View) {
        bytes = Array(utf8)
    }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func number(_ width: Int) -> Int? {
        guard index + width <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + width] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += width
        return value
    }

    /// A decimal fraction of a second as whole microseconds (digits past the sixth ignored).
    mutating func microseconds() -> Int64? {
        var value: Int64 = 0
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            if index - start < 6 { value = value * 10 + Int64(bytes[index] - 0x30) }
            index += 1
        }
        guard index > start else { return nil }
        for _ in min(index - start, 6)..<6 { value *= 10 }
        return value
    }
}
