import FoundationEssentials
import Logging
import Shared

/// The validation of an LCP license, as a state machine (lcp.md §11, after Readium's
/// `LicenseValidation`): parse and profile → License Status (optional, 5 s) → fresher license
/// (optional) → rights dates and status → passphrase → integrity → device registration.
///
/// Each state has one step (``step(_:)``) that does its work — network, prompt, crypto —
/// and reports an event; ``transition(from:on:)`` alone decides the next state. Nothing
/// network-related can fail the validation: a missing or silent status server only means
/// less information.
actor LicenseValidation {
    enum State {
        case start
        /// `status` is the document that announced this license, when it came from the server.
        case validateLicense(data: Data, status: StatusDocument?)
        case fetchStatus(LicenseDocument)
        case validateStatus(LicenseDocument, data: Data)
        case fetchLicense(LicenseDocument, StatusDocument)
        case checkLicenseStatus(LicenseDocument, StatusDocument?, statusTakesPrecedence: Bool)
        case requestPassphrase(LicenseDocument, StatusDocument?)
        case validateIntegrity(LicenseDocument, StatusDocument?, passphrase: String)
        case registerDevice(ValidatedLicense, LicenseLink)
        case valid(ValidatedLicense)
        case failure(LCPError)
    }

    enum Event {
        case retrievedLicenseData(Data)
        case validatedLicense(LicenseDocument)
        case retrievedStatusData(Data)
        case validatedStatus(StatusDocument)
        case checkedLicenseStatus(LCPStatusError?)
        case retrievedPassphrase(String)
        /// No passphrase: the error says whether none was given or a given one was wrong.
        case passphraseMissing(LCPError)
        case validatedIntegrity(any LCPClientContext)
        /// The new status document after registering, or nil when there was nothing to do.
        case registeredDevice(Data?)
        case failed(LCPError)
    }

    /// What the steps need: the client, the repositories, the network, the prompt.
    struct Environment: Sendable {
        let client: any LCPClient
        let licenses: (any LCPLicenseRepository)?
        let passphrases: PassphraseLookup
        let statusClient: LicenseStatusClient
        let crlProvider: (any LCPCRLProvider)?
        let container: (any LicenseContainer)?
        let publicationPath: String?
        let deviceName: String
        let credentials: String?
        let authentication: (any LCPAuthenticating)?
        let allowUserInteraction: Bool
        let sender: (any Sendable)?
        let now: @Sendable () -> Date
    }

    let environment: Environment
    private(set) var state: State = .start
    private var isRunning = false
    /// The user key found in this session, reused when the flow comes back to the passphrase
    /// (after a registration or a status update) so nobody is asked twice.
    var knownUserKey: (licenseID: String, key: String)?
    /// Licenses registered in this session, so a repository that cannot record it does not
    /// make the flow register again and again.
    var registeredLicenses: Set<String> = []
    /// What became of the download of a fresher license during the last run: nil when the
    /// status document announced none.
    var licenseRefresh: LicenseRefresh?

    /// The outcome of downloading a license the status document announces.
    enum LicenseRefresh: Sendable {
        case downloaded
        /// Not downloaded, or refused (a bad signature, another id): the reason.
        case failed(LCPError)
    }

    init(environment: Environment) {
        self.environment = environment
    }

    /// Validates the license `data` from the start.
    func validate(licenseData data: Data) async -> Result<ValidatedLicense, LCPError> {
        guard !isRunning else { return .failure(.licenseBusy) }
        state = .start
        return await run(from: .retrievedLicenseData(data))
    }

    /// Re-validates a valid license with a new status document (after a renewal or return).
    func update(statusData data: Data) async -> Result<ValidatedLicense, LCPError> {
        guard !isRunning else { return .failure(.licenseBusy) }
        licenseRefresh = nil
        return await run(from: .retrievedStatusData(data))
    }

    /// Re-validates a valid license with a fresh copy of it from the provider (same id,
    /// signature checked by the caller), which replaces the stored and packaged one.
    func update(licenseData data: Data) async -> Result<ValidatedLicense, LCPError> {
        guard !isRunning else { return .failure(.licenseBusy) }
        return await run(from: .retrievedLicenseData(data))
    }

    /// The current outcome, when the validation is over.
    var validated: ValidatedLicense? {
        if case .valid(let validated) = state { return validated }
        return nil
    }

    private func run(from event: Event) async -> Result<ValidatedLicense, LCPError> {
        isRunning = true
        defer { isRunning = false }
        var next: Event? = event
        while let event = next {
            guard let newState = Self.transition(from: state, on: event) else {
                return .failure(.licenseBusy)
            }
            if case .failed(let error) = event, let skipped = state.optionalStep {
                Self.log.notice("license \(state.licenseID ?? "?"): going on without \(skipped): \(error)")
            }
            state = newState
            switch state {
            case .valid(let validated): return .success(validated)
            case .failure(let error): return .failure(error)
            default: next = await step(state)
            }
        }
        return .failure(.licenseBusy)
    }

    /// Where the fallbacks of the optional steps are told (`LECTERN_LOG`).
    static let log = Diagnostics.logger("lectern.lcp")

    /// The state after `event` in `state`; nil for an event the state does not expect.
    static func transition(from state: State, on event: Event) -> State? {
        switch (state, event) {
        case (.start, .retrievedLicenseData(let data)):
            return .validateLicense(data: data, status: nil)

        case (.validateLicense(_, let status), .validatedLicense(let license)):
            if let status { return .checkLicenseStatus(license, status, statusTakesPrecedence: false) }
            if license.link(LicenseRel.status) != nil { return .fetchStatus(license) }
            return .checkLicenseStatus(license, nil, statusTakesPrecedence: false)
        case (.validateLicense, .failed(let error)):
            return .failure(error)

        case (.fetchStatus(let license), .retrievedStatusData(let data)):
            return .validateStatus(license, data: data)
        case (.fetchStatus(let license), .failed):
            // The status document is optional: offline, silent or broken servers change nothing.
            return .checkLicenseStatus(license, nil, statusTakesPrecedence: false)

        case (.validateStatus(let license, _), .validatedStatus(let status)):
            if let updated = status.licenseUpdated, updated > license.dateOfLastUpdate, status.link(LicenseRel.license) != nil {
                return .fetchLicense(license, status)
            }
            return .checkLicenseStatus(license, status, statusTakesPrecedence: false)
        case (.validateStatus(let license, _), .failed):
            return .checkLicenseStatus(license, nil, statusTakesPrecedence: false)

        case (.fetchLicense(_, let status), .retrievedLicenseData(let data)):
            return .validateLicense(data: data, status: status)
        case (.fetchLicense(let license, let status), .failed):
            // A newer license exists but could not be fetched: the status says what happened.
            return .checkLicenseStatus(license, status, statusTakesPrecedence: true)

        case (.checkLicenseStatus(let license, let status, _), .checkedLicenseStatus(let error)):
            if let error { return .valid(ValidatedLicense(license: license, status: status, context: .failure(.status(error)))) }
            return .requestPassphrase(license, status)

        case (.requestPassphrase(let license, let status), .retrievedPassphrase(let passphrase)):
            return .validateIntegrity(license, status, passphrase: passphrase)
        case (.requestPassphrase(let license, let status), .passphraseMissing(let error)):
            return .valid(ValidatedLicense(license: license, status: status, context: .failure(error)))

        case (.validateIntegrity(let license, let status, _), .validatedIntegrity(let context)):
            let validated = ValidatedLicense(license: license, status: status, context: .success(context))
            if let link = status?.link(LicenseRel.register) { return .registerDevice(validated, link) }
            return .valid(validated)
        case (.validateIntegrity, .failed(let error)):
            return .failure(error)

        case (.registerDevice(let validated, _), .registeredDevice(let data)):
            if let data { return .validateStatus(validated.license, data: data) }
            return .valid(validated)
        case (.registerDevice(let validated, _), .failed):
            // Registration never keeps anyone from reading; it is tried again next time.
            return .valid(validated)

        case (.valid(let validated), .retrievedStatusData(let data)):
            return .validateStatus(validated.license, data: data)
        case (.valid(let validated), .retrievedLicenseData(let data)):
            // A license downloaded again after a renewal or a return: announced by the current
            // status, so it is stored and written back like one the status announced.
            return .validateLicense(data: data, status: validated.status)

        case (.failure(let error), _):
            return .failure(error)

        default:
            return nil
        }
    }

    /// Does the work of `state` and reports what happened.
    private func step(_ state: State) async -> Event? {
        switch state {
        case .start, .valid, .failure:
            return nil
        case .validateLicense(let data, let status):
            return validateLicense(data, announcedBy: status)
        case .fetchStatus(let license):
            return await fetchStatus(license)
        case .validateStatus(let license, let data):
            return validateStatus(data, of: license)
        case .fetchLicense(let license, let status):
            return await fetchLicense(license, status)
        case .checkLicenseStatus(let license, let status, let precedence):
            return .checkedLicenseStatus(LicenseStatusCheck.error(license: license, status: status,
                                                                 statusTakesPrecedence: precedence, now: environment.now()))
        case .requestPassphrase(let license, _):
            return await requestPassphrase(license)
        case .validateIntegrity(let license, _, let passphrase):
            return await validateIntegrity(license, passphrase: passphrase)
        case .registerDevice(let validated, let link):
            return await registerDevice(validated.license, link: link)
        }
    }
}

extension LicenseValidation {
    /// Registers the device of a valid license now (the older `register()` interface); the
    /// status document the server answers with updates the license.
    ///
    /// - Parameter client: the exchange to use (the person's longer timeout); the opening's
    ///   by default.
    func registerDevice(using client: LicenseStatusClient? = nil) async -> Result<ValidatedLicense, LCPError> {
        guard !isRunning else { return .failure(.licenseBusy) }
        guard case .valid(let validated) = state else { return .failure(.licenseBusy) }
        guard let link = validated.status?.link(LicenseRel.register) else { return .failure(.interactionNotAvailable) }
        isRunning = true
        let event = await registerDevice(validated.license, link: link, client: client)
        isRunning = false
        switch event {
        case .registeredDevice(let data?): return await update(statusData: data)
        case .failed(let error): return .failure(error)
        default: return .success(validated)
        }
    }
}

extension LicenseValidation.State {
    /// What an optional step brings, for the log when it fails and the validation goes on
    /// without it; nil for the steps whose failure ends the validation.
    var optionalStep: String? {
        switch self {
        case .fetchStatus: "the License Status Document"
        case .validateStatus: "a valid License Status Document"
        case .fetchLicense: "the fresher license the status announces"
        case .registerDevice: "registering this device (tried again next time)"
        default: nil
        }
    }

    /// The id of the license the state is about, when it has one.
    var licenseID: String? {
        switch self {
        case .fetchStatus(let license), .validateStatus(let license, _), .fetchLicense(let license, _),
             .checkLicenseStatus(let license, _, _), .requestPassphrase(let license, _), .validateIntegrity(let license, _, _):
            license.id
        case .registerDevice(let validated, _), .valid(let validated): validated.license.id
        case .start, .validateLicense, .failure: nil
        }
    }
}
