/// The tables kept beside the library's rows (remembered passwords, reading statistics),
/// written through the library's one serial writer like the rest: in order, and each failure
/// returned to the caller.
extension Library {
    // MARK: - Remembered passwords (``RememberedPasswords``)

    /// The remembered password of the publication with this content identity.
    public func rememberedPassword(identity: String, sealing: PasswordSealing = PasswordSealing()) throws(LibraryError) -> String? {
        try RememberedPasswords(store: store, sealing: sealing).password(identity: identity)
    }

    /// Remembers `password` (sealed) for the publication with this content identity unless it
    /// is already the one remembered; whether it was stored.
    @discardableResult
    public func rememberPassword(_ password: String, identity: String,
                                 sealing: PasswordSealing = PasswordSealing()) throws(LibraryError) -> Bool {
        let passwords = RememberedPasswords(store: store, sealing: sealing)
        if try passwords.password(identity: identity) == password { return true }
        return try passwords.remember(password, identity: identity)
    }

    /// Forgets the remembered password of the publication; whether one was remembered.
    public func forgetPassword(identity: String) throws(LibraryError) -> Bool {
        try RememberedPasswords(store: store).forget(identity: identity)
    }

    // MARK: - Reading statistics (``ReadingStatisticsStore``)

    /// Every book's reading statistics, by content identity.
    public func readingStatistics() throws(LibraryError) -> [String: BookReadingStatistics] {
        try ReadingStatisticsStore(store: store).all()
    }
    // Adding a session: ``Library/addReadingSessionNow(identity:seconds:pages:characters:)``.
}
