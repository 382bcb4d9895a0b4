import LCP
import Shared

/// `lectern info` on a bare license (`.lcpl`) whose publication cannot be reached: the license
/// is local and is shown all the same, with why the publication is missing.
enum UnreachableLicensedPublication {
    /// Prints the license of `path` and the opening error, when `path` is a license that can be
    /// read; returns false (printing nothing) otherwise.
    static func report(path: String, credentials: String?, error: any Error, json: Bool) async -> Bool {
        guard case LoadError.opening(.unavailable) = error else { return false }
        let result = await LCPSetup.withService { service in
            await service.retrieveLicense(path: path, credentials: credentials, authentication: nil, allowUserInteraction: false)
        }
        guard case .success(let license) = result else { return false }
        let summary = await LicenseSummary(license: license)
        if json {
            Output.json(.object(JSONObject([
                "path": .string(path), "error": .string(userMessage(of: error)), "license": summary.json,
            ])))
        } else {
            Output.line("Publication:".padding(14) + "cannot be read now")
            for (label, value) in summary.fields { Output.line((label + ":").padding(14) + value) }
        }
        Output.error("\(path): \(userMessage(of: error))")
        return true
    }
}
