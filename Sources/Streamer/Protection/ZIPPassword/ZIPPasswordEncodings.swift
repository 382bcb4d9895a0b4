/// The byte sequences a typed password may have been hashed as.
///
/// WinZip AES and current tools (Info-ZIP `zip` on a UTF-8 system, 7-Zip for AES) use the
/// password's UTF-8 bytes. Traditional PKWARE encryption hashes whatever bytes the writing
/// tool had: on DOS and Windows that was the OEM code page (CP437 in the United States, the
/// first that PKZIP and Info-ZIP used), on older Unix systems often ISO-8859-1. A non-ASCII
/// password is therefore tried as UTF-8 first, then CP437, then ISO-8859-1, each when it can
/// represent every character. Other code pages (CP850, CP1252 beyond Latin-1, CP866…) are not
/// tried: each attempt costs a read, and a wrong guess is only one more wrong attempt.
enum ZIPPasswordEncodings {
    /// The distinct encodings of `password`, most likely first.
    static func candidates(for password: String) -> [[UInt8]] {
        let utf8 = Array(password.utf8)
        guard !password.unicodeScalars.allSatisfy(\.isASCII) else { return [utf8] }
        var candidates = [utf8]
        for legacy in [cp437(password), latin1(password)] {
            if let legacy, !candidates.contains(legacy) { candidates.append(legacy) }
        }
        return candidates
    }

    /// The password in code page 437, or nil when a character has no CP437 byte.
    static func cp437(_ password: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in password.unicodeScalars {
            if scalar.isASCII {
                bytes.append(UInt8(scalar.value))
            } else if let index = cp437High.firstIndex(of: scalar) {
                bytes.append(UInt8(0x80 + index))
            } else {
                return nil
            }
        }
        return bytes
    }

    /// The password in ISO-8859-1, or nil when a character is beyond U+00FF.
    static func latin1(_ password: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in password.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }

    /// Bytes 0x80–0xFF of code page 437, in order.
    static let cp437High: [Unicode.Scalar] = Array("ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}".unicodeScalars)
}
