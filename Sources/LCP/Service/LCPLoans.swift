import FoundationEssentials
import Logging
import Shared

/// Renewing and returning a loan through the License Status protocol (LSD §3.4–3.5, lcp.md
/// §10.2–10.4), with the reference server's quirks:
///
/// - a renewal beyond its limit (or before the current end) answers 200 with an unchanged
///   document: the license is downloaded again and its end compared, and the person is told
///   when nothing changed (``LCPError/renewalNotExtended(end:requested:latest:)``);
/// - a new license's status link answers 404 for a moment: asked again a few times;
/// - errors are RFC 7807 problem documents, mapped by their `type`, then by the HTTP status.
///
/// After a renewal or a return, the new status document goes through the validation state
/// machine, which downloads the updated license, checks it, stores it and writes it into the
/// package (or the `.lcpl`); the license is then downloaded again explicitly when the status
/// did not announce it (the server truncates timestamps to the second).
extension LCPLicense {
    /// Renews the loan.
    ///
    /// With a programmatic renew link (PUT), the end date is the delegate's choice, at most
    /// `potential_rights.end` (nil lets the provider apply its default period). With only an
    /// HTML renew link, or when `prefersWebPage` and there is one, the delegate is given its
    /// URL (a terminal prints it) and the status is checked again afterwards.
    ///
    /// - Throws: ``LCPError/interactionNotAvailable`` without a renew link; the provider's
    ///   refusal; ``LCPError/renewalNotExtended(end:requested:latest:)`` when the provider
    ///   answered but the loan still ends on the same date.
    public func renewLoan(with delegate: any LCPRenewDelegate, prefersWebPage: Bool = false) async throws(LCPError) {
        let status = try await statusForInteraction()
        let links = status.links.filter(byRel: LicenseRel.renew)
        let webPage = links.first { $0.mediaType?.isHTML ?? false }
        let programmatic = links.first { !($0.mediaType?.isHTML ?? false) }
        guard let chosen = (prefersWebPage ? webPage ?? programmatic : programmatic ?? webPage) else {
            throw .interactionNotAvailable
        }
        let endBefore = license.rights.end
        let latest = status.potentialRightsEnd

        if chosen.mediaType?.isHTML ?? false {
            await delegate.presentWebPage(url: chosen.href)
            try await refreshStatus()
            return
        }

        let requested = await delegate.preferredEndDate(maximum: latest)
        if let requested, let latest, requested > latest {
            throw .renewalDateNotAllowed(requested: requested, latest: latest)
        }
        var parameters = deviceParameters()
        if let requested { parameters["end"] = RFC3339Date.string(requested) }
        let data = try await put(chosen, .renew, parameters: parameters, requestedEnd: requested, latestEnd: latest)
        let refresh = try await applyThenRefreshLicense(statusData: data)

        let endAfter = license.rights.end
        if endAfter == endBefore || (endBefore != nil && endAfter.map { $0 <= endBefore! } ?? false) {
            // Unchanged: the reference server's answer to a date it does not accept, or an
            // updated license the provider keeps for itself.
            if case .failed(let error) = refresh, let announced = self.status?.licenseUpdated, announced > license.dateOfLastUpdate {
                if case .network = error {
                    throw .network("the loan was renewed but the renewed license could not be downloaded; open the book online later to get it")
                }
                throw .renewedLicenseRefused(error.userMessage)
            }
            throw .renewalNotExtended(end: endAfter, requested: requested, latest: self.status?.potentialRightsEnd ?? latest)
        }
    }

    /// Returns the publication to its provider: afterwards it no longer opens.
    ///
    /// - Throws: ``LCPError/alreadyReturned`` or ``LCPError/loanAlreadyExpired`` when the
    ///   status says so, ``LCPError/interactionNotAvailable`` without a return link otherwise;
    ///   the provider's refusal.
    public func returnPublication() async throws(LCPError) {
        let status = try await statusForInteraction()
        guard let link = status.link(LicenseRel.return) else {
            switch status.status {
            case .returned, .cancelled: throw .alreadyReturned
            case .expired: throw .loanAlreadyExpired
            default: throw .interactionNotAvailable
            }
        }
        let data = try await put(link, .return, parameters: deviceParameters())
        _ = try await applyThenRefreshLicense(statusData: data)
    }

    // MARK: - Steps

    /// The status document to act on: the one seen while opening, else fetched now (the
    /// server may not have answered then, or it was offline).
    private func statusForInteraction() async throws(LCPError) -> StatusDocument {
        if let status { return status }
        guard license.link(LicenseRel.status) != nil else { throw .interactionNotAvailable }
        try await refreshStatus()
        guard let status else { throw .interactionNotAvailable }
        return status
    }

    /// Gets the status document again and applies it.
    func refreshStatus() async throws(LCPError) {
        guard let interactions, let link = license.link(LicenseRel.status) else { throw .interactionNotAvailable }
        switch await interactions.fetchStatus(link.url(), retryingNotFound: 3, delay: 1) {
        case .success(let data): try await apply(statusData: data)
        case .failure(let error): throw error
        }
    }

    /// `id` and `name` for the templated links: this device, as registered.
    private func deviceParameters() -> [String: String] {
        var parameters = ["name": deviceName]
        do {
            if let id = try repository?.deviceID(provider: license.provider) { parameters["id"] = id }
        } catch {
            Self.log.warning("license \(license.id): no device id for the request: \(error)")
        }
        return parameters
    }

    private func put(_ link: LicenseLink, _ interaction: LicenseStatusInteraction, parameters: [String: String],
                     requestedEnd: Date? = nil, latestEnd: Date? = nil) async throws(LCPError) -> Data {
        guard let interactions else { throw .interactionNotAvailable }
        return try await interactions.put(link.url(parameters), interaction, requestedEnd: requestedEnd,
                                          latestEnd: latestEnd).get()
    }

    /// Applies the status document an interaction answered, then gets the license it
    /// announces — once: downloaded by the validation when the status says it is newer, else
    /// here (the server truncates its timestamps to the second, so "newer" can be missed).
    private func applyThenRefreshLicense(statusData data: Data) async throws(LCPError) -> LicenseValidation.LicenseRefresh? {
        if let refresh = try await apply(statusData: data) { return refresh }
        return await downloadLicenseAgain()
    }

    /// Gives a new status document to the validation, which updates, checks and writes back
    /// the license it announces. Without a validation (a license whose profile Lectern cannot
    /// open) only the status is kept. Returns what became of the announced license, when the
    /// validation downloaded one.
    @discardableResult
    private func apply(statusData data: Data) async throws(LCPError) -> LicenseValidation.LicenseRefresh? {
        if let validation {
            switch await validation.update(statusData: data) {
            case .success(let newValue):
                update(newValue)
                return await validation.licenseRefresh
            case .failure(.licenseBusy):
                break
            case .failure(let error):
                throw error
            }
        }
        let status = try StatusDocument(data: data)
        guard status.id == license.id else { throw .invalidStatus("for license \(status.id), not \(license.id)") }
        do { try repository?.updateStatus(status, licenseID: license.id) } catch {
            Self.log.warning("license \(license.id): the new status was not recorded in the database: \(error)")
        }
        let current = currentValidated
        update(ValidatedLicense(license: current.license, status: status, context: current.context))
        return nil
    }

    /// Downloads the license from the status document's `license` link and, when it differs
    /// from the current one (same id, valid signature), puts it through the validation.
    /// Returns what happened (nil without a link to download from).
    private func downloadLicenseAgain() async -> LicenseValidation.LicenseRefresh? {
        guard let interactions, let validation, let link = status?.link(LicenseRel.license) else { return nil }
        let data: Data
        switch await interactions.fetchLicense(link.url()) {
        case .success(let downloaded): data = downloaded
        case .failure(let error): return .failed(error)
        }
        let fresh: LicenseDocument
        do {
            fresh = try LicenseDocument(data: data)
            guard fresh.id == license.id else { return .failed(.licenseMismatch(expected: license.id, received: fresh.id)) }
            guard fresh.data != license.data else { return .downloaded }
            try client.checkSignature(jsonLicense: fresh.text)
        } catch {
            return .failed(error)
        }
        if case .success(let newValue) = await validation.update(licenseData: data) { update(newValue) }
        return .downloaded
    }
}
