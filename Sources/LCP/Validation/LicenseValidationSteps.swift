import FoundationEssentials
import Shared

/// The work of each state of ``LicenseValidation``.
extension LicenseValidation {
    /// Parses the license and checks its profile before anything else, so that production
    /// licenses are refused before anyone is asked for a passphrase; then its signature and
    /// certificate, so that a forged license is neither stored (it would seed the rights
    /// counters) nor prompted for. A license that came from the status server is written back
    /// into the package.
    func validateLicense(_ data: Data, announcedBy status: StatusDocument?) -> Event {
        let license: LicenseDocument
        do {
            license = try LicenseDocument(data: data)
        } catch {
            return .failed(error)
        }
        guard environment.client.supportedProfiles.contains(license.encryption.profile) else {
            return .failed(.profileNotSupported(license.encryption.profile))
        }
        do {
            try environment.client.checkSignature(jsonLicense: license.text)
        } catch {
            return .failed(error)
        }
        do {
            try environment.licenses?.addLicense(license, publicationPath: environment.publicationPath)
        } catch {
            // Reading goes on; the rights then cannot be counted, which the license says when
            // copying or printing is asked for.
            Self.log.warning("license \(license.id): not recorded in the database: \(error)")
        }
        if status != nil {
            // A fresher license: keep the package in step. Failing to write it only means the
            // next opening downloads it again.
            do { try environment.container?.write(license) } catch {
                Self.log.notice("license \(license.id): the fresher license was not written into the package: \(error)")
            }
        }
        return .validatedLicense(license)
    }

    func fetchStatus(_ license: LicenseDocument) async -> Event {
        guard let link = license.link(LicenseRel.status) else { return .failed(.interactionNotAvailable) }
        switch await environment.statusClient.fetchStatus(link.url()) {
        case .success(let data): return .retrievedStatusData(data)
        case .failure(let error): return .failed(error)
        }
    }

    func validateStatus(_ data: Data, of license: LicenseDocument) -> Event {
        do {
            let status = try StatusDocument(data: data)
            guard status.id == license.id else { return .failed(.invalidStatus("for license \(status.id), not \(license.id)")) }
            do { try environment.licenses?.updateStatus(status, licenseID: license.id) } catch {
                Self.log.warning("license \(license.id): its status was not recorded in the database: \(error)")
            }
            return .validatedStatus(status)
        } catch {
            return .failed(error)
        }
    }

    /// Downloads the license the status document announces; it must parse and have the same
    /// id, or it is treated as not downloaded.
    func fetchLicense(_ license: LicenseDocument, _ status: StatusDocument) async -> Event {
        let event = await downloadLicense(license, status)
        if case .failed(let error) = event { licenseRefresh = .failed(error) } else { licenseRefresh = .downloaded }
        return event
    }

    private func downloadLicense(_ license: LicenseDocument, _ status: StatusDocument) async -> Event {
        let links = status.links.filter(byRel: LicenseRel.license)
        // Several license links: the one for a profile this client supports (LSD §3.2).
        guard let link = links.first(where: { $0.profile.map(environment.client.supportedProfiles.contains) ?? false })
            ?? links.first(where: { $0.profile == nil }) else { return .failed(.interactionNotAvailable) }
        switch await environment.statusClient.fetchLicense(link.url()) {
        case .success(let data):
            do {
                let fresh = try LicenseDocument(data: data)
                guard fresh.id == license.id else { return .failed(.licenseMismatch(expected: license.id, received: fresh.id)) }
                // A license that does not verify must not replace a good one.
                try environment.client.checkSignature(jsonLicense: fresh.text)
                return .retrievedLicenseData(data)
            } catch {
                return .failed(error)
            }
        case .failure(let error):
            return .failed(error)
        }
    }

    func requestPassphrase(_ license: LicenseDocument) async -> Event {
        if let known = knownUserKey, known.licenseID == license.id,
           environment.client.findOneValidPassphrase(jsonLicense: license.text, hashedPassphrases: [known.key]) != nil {
            return .retrievedPassphrase(known.key)
        }
        switch await environment.passphrases.find(for: license, credentials: environment.credentials,
                                                  authentication: environment.authentication,
                                                  allowUserInteraction: environment.allowUserInteraction,
                                                  sender: environment.sender) {
        case .found(let key):
            knownUserKey = (license.id, key)
            return .retrievedPassphrase(key)
        case .notFound(let error):
            return .passphraseMissing(error)
        }
    }

    func validateIntegrity(_ license: LicenseDocument, passphrase: String) async -> Event {
        let crl = await environment.crlProvider?.crl(for: license)
        do {
            return .validatedIntegrity(try environment.client.createContext(jsonLicense: license.text, hashedPassphrase: passphrase,
                                                                             pemCrl: crl))
        } catch {
            return .failed(error)
        }
    }

    /// Registers this device once per license (LSD §3.3); marked registered only after the
    /// server accepted it.
    func registerDevice(_ license: LicenseDocument, link: LicenseLink, client: LicenseStatusClient? = nil) async -> Event {
        if registeredLicenses.contains(license.id) { return .registeredDevice(nil) }
        // A record that cannot be read means registering again, which the server accepts.
        if let licenses = environment.licenses,
           Self.log.attempt("reading whether the device is registered", { () throws(LCPError) in
               try licenses.isDeviceRegistered(licenseID: license.id) }) == true {
            return .registeredDevice(nil)
        }
        let deviceID: String
        do {
            guard let id = try environment.licenses?.deviceID(provider: license.provider) else {
                return .failed(.repository("no license repository"))
            }
            deviceID = id
        } catch {
            return .failed(error)
        }
        switch await (client ?? environment.statusClient).register(link.url(["id": deviceID, "name": environment.deviceName])) {
        case .success(let data):
            registeredLicenses.insert(license.id)
            do { try environment.licenses?.registerDevice(licenseID: license.id) } catch {
                // The server has the registration; this session will not send it again, the
                // next one will (registration is idempotent on the server's side).
                Self.log.warning("license \(license.id): the device registration was not recorded in the database: \(error)")
            }
            return .registeredDevice(data)
        case .failure(let error):
            return .failed(error)
        }
    }
}
