import FoundationEssentials
import Logging
import Shared
import Synchronization

/// An opened LCP license: its documents, whether it can be read, and its rights.
///
/// It is the ``UserRights`` of an LCP publication: copy and print are counted against the
/// license's `rights.copy` (characters) and `rights.print` (pages), persisted in the license
/// repository and consumed atomically, all or nothing.
///
/// **Characters** are counted as Swift `Character`s (extended grapheme clusters, what
/// `String.count` gives) of the exact text placed on the clipboard, spaces and line breaks
/// included: "é" written with a combining accent is one character, an emoji with a
/// variation selector or a ZWJ family emoji is one character.
public final class LCPLicense: UserRights, Sendable {
    private let validated: Mutex<ValidatedLicense>
    let repository: (any LCPLicenseRepository)?
    let client: any LCPClient
    let validation: LicenseValidation?
    /// The License Status exchanges a person asks for (renew, return), with their longer
    /// timeout; nil when the license cannot be acted on.
    let interactions: LicenseStatusClient?
    /// The name sent with this device's id.
    let deviceName: String
    let now: @Sendable () -> Date
    private let revocation = Mutex<LCPRevocationStatus?>(nil)
    private let rightsFailure = Mutex<LCPError?>(nil)
    /// Where rights that cannot be counted are told (`LECTERN_LOG`).
    static let log = Diagnostics.logger("lectern.lcp")

    init(validated: ValidatedLicense, repository: (any LCPLicenseRepository)?, client: any LCPClient,
         validation: LicenseValidation?, interactions: LicenseStatusClient? = nil, deviceName: String = "Lectern (Linux)",
         now: @escaping @Sendable () -> Date = { Date() }) {
        self.validated = Mutex(validated)
        self.repository = repository
        self.client = client
        self.validation = validation
        self.interactions = interactions
        self.deviceName = deviceName
        self.now = now
    }

    var currentValidated: ValidatedLicense { validated.withLock { $0 } }
    private var current: ValidatedLicense { currentValidated }

    /// The license document.
    public var license: LicenseDocument { current.license }
    /// The last License Status Document received, if any.
    public var status: StatusDocument? { current.status }
    /// Why the publication cannot be read (a status error, a missing or wrong passphrase), or
    /// nil when it can.
    public var error: LCPError? { current.error }
    /// Whether the publication's resources are locked.
    public var isLocked: Bool { error != nil }

    /// The keys, or why there are none.
    var validatedContext: Result<any LCPClientContext, LCPError> { current.context }

    private var context: (any LCPClientContext)? {
        if case .success(let context) = current.context { return context }
        return nil
    }

    /// The `user` members that were encrypted, decrypted (display only; never stored).
    public var userFields: [String: String] { context?.userFields ?? [:] }
    /// The user's name: decrypted when it was encrypted and the license is unlocked.
    public var userName: String? { userValue("name") }
    /// The user's e-mail address, likewise.
    public var userEmail: String? { userValue("email") }

    private func userValue(_ name: String) -> String? {
        if let clear = userFields[name] { return clear }
        return license.user.encrypted.contains(name) ? nil : license.user.json[name]?.string
    }

    /// How the provider certificate was trusted, once unlocked.
    public var certificateTrust: LCPCertificateTrust? { context?.certificateTrust }

    /// Decrypts an `IV‖ciphertext` blob with the content key (nil when locked or invalid).
    public func decipher(_ data: Data) -> Data? {
        guard let context else { return nil }
        return client.decrypt(data: data, using: context)
    }

    func update(_ newValue: ValidatedLicense) {
        validated.withLock { $0 = newValue }
    }

    // MARK: - Rights

    /// Characters that may still be copied; nil = unlimited; 0 when locked.
    public var charactersToCopyLeft: Int? { countedAllowance().copy.amount }
    /// Pages that may still be printed; nil = unlimited; 0 when locked.
    public var pagesToPrintLeft: Int? { countedAllowance().print.amount }

    private func grant(_ right: LCPRight) -> Int? {
        right == .copy ? license.rights.copy : license.rights.print
    }

    /// Why the copy and print allowance cannot be counted now (the database could not be read
    /// or does not hold the license), or nil. While it is set nothing can be copied or printed,
    /// and the allowance shows 0: it fails closed, and this says why.
    public var rightsProblem: LCPError? { rightsFailure.withLock { $0 } }

    /// What is left, read once (blocking: the counters are in the license database). A right
    /// the license does not grant a quota for is unlimited and is not read; a locked license
    /// or counters that cannot be read leave 0 of each.
    func countedAllowance() -> RightsAllowance {
        guard !isLocked else { return RightsAllowance(copy: .left(0), print: .left(0)) }
        let copyGranted = grant(.copy) != nil, printGranted = grant(.print) != nil
        guard copyGranted || printGranted else { return .unlimited }
        let stored: RightsAllowance
        do throws(LCPError) {
            guard let repository else { throw .repository("no license database") }
            guard let found = try repository.allowance(licenseID: license.id) else {
                throw .repository("the license is not recorded in the library database")
            }
            stored = found
        } catch {
            return uncountable(error)
        }
        rightsFailure.withLock { $0 = nil }
        return granted(stored)
    }

    /// Consumes `amount` of `right` in one transaction of the repository (blocking).
    func spend(_ right: LCPRight, _ amount: Int) -> RightsDecision {
        guard amount >= 0, !isLocked else { return .refused(countedAllowance()) }
        // Uncounted: nothing to record (the other counter is read only to say what is left).
        if grant(right) == nil { return .granted(countedAllowance()) }
        do throws(LCPError) {
            guard let repository else { throw .repository("no license database") }
            guard let decision = try repository.spend(right, amount: amount, licenseID: license.id) else {
                throw .repository("the license is not recorded in the library database")
            }
            rightsFailure.withLock { $0 = nil }
            switch decision {
            case .granted(let after): return .granted(granted(after))
            case .refused(let after): return .refused(granted(after))
            }
        } catch {
            return .refused(uncountable(error))
        }
    }

    /// `stored` with the rights the license grants no quota for shown unlimited (their
    /// column may hold a count from an earlier license of the same id).
    private func granted(_ stored: RightsAllowance) -> RightsAllowance {
        RightsAllowance(copy: grant(.copy) == nil ? .unlimited : stored.copy,
                        print: grant(.print) == nil ? .unlimited : stored.print, problem: stored.problem)
    }

    /// Fails closed: nothing left, and why.
    private func uncountable(_ error: LCPError) -> RightsAllowance {
        rightsFailure.withLock { $0 = error }
        Self.log.warning("license \(license.id): the copy and print allowance cannot be counted: \(error)")
        return granted(RightsAllowance(copy: .left(0), print: .left(0), problem: error.userMessage))
    }

    /// What is left, read off the cooperative pool.
    public var allowance: RightsAllowance {
        get async { await Blocking.run { self.countedAllowance() } }
    }
    /// Consumes the right to copy `text` (its `Character`s counted), all or nothing.
    public func copy(text: String) async -> RightsDecision {
        let count = text.count
        return await Blocking.run { self.spend(.copy, count) }
    }
    /// Consumes the right to print `pages` pages, all or nothing.
    public func print(pages: Int) async -> RightsDecision {
        await Blocking.run { self.spend(.print, pages) }
    }

    // MARK: - Loans (see LCPLoans.swift)

    /// Whether the status document offers a renewal.
    public var canRenewLoan: Bool { status?.link(LicenseRel.renew) != nil }
    /// Whether the status document offers a return.
    public var canReturnPublication: Bool { status?.link(LicenseRel.return) != nil }

    /// Whether this device registered the license with its status server (as recorded after
    /// the server accepted it).
    public var isDeviceRegistered: Bool {
        // Unknown counts as not registered: the worst outcome is registering again, which the
        // status server accepts.
        guard let repository else { return false }
        return Self.log.attempt("reading whether the device is registered") { () throws(LCPError) in
            try repository.isDeviceRegistered(licenseID: license.id)
        } ?? false
    }

    /// Whether the provider certificate was checked against a certificate revocation list, and
    /// which; nil when the license was not unlocked (nothing was checked).
    public var revocationStatus: LCPRevocationStatus? { revocation.withLock { $0 } }

    func setRevocationStatus(_ status: LCPRevocationStatus?) {
        revocation.withLock { $0 = status }
    }

    // MARK: - The older DRM interface

    /// The status of the loan: the status document's, else derived from the rights dates.
    public var currentStatus: String {
        if let status { return status.status.rawValue }
        return areRightsValid ? StatusDocument.Status.active.rawValue : StatusDocument.Status.expired.rawValue
    }
    /// When the license was last updated (`updated ?? issued`).
    public var lastUpdate: Date { license.dateOfLastUpdate }
    public var issued: Date { license.issued }
    public var provider: String { license.provider }
    public var rightsStart: Date? { license.rights.start }
    public var rightsEnd: Date? { license.rights.end }
    /// The latest end date a renewal may reach.
    public var potentialRightsEnd: Date? { status?.potentialRightsEnd }
    /// The pages printable over the license's life, as granted (nil = unlimited).
    public var rightsPrints: Int? { license.rights.print }
    /// The characters copyable over the license's life, as granted (nil = unlimited).
    public var rightsCopies: Int? { license.rights.copy }
    /// Whether now is within the rights period.
    public var areRightsValid: Bool {
        let date = now()
        return (rightsStart.map { date >= $0 } ?? true) && (rightsEnd.map { date <= $0 } ?? true)
    }

    /// Registers this device with the status server, if it offers registration and this
    /// device has not registered yet.
    public func register() async throws(LCPError) {
        guard let validation else { throw .interactionNotAvailable }
        switch await validation.registerDevice(using: interactions) {
        case .success(let newValue): update(newValue)
        case .failure(let error): throw error
        }
    }
}
