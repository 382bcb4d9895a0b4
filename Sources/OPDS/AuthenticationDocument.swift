import Shared

/// What an Authentication for OPDS 1.0 document tells a person about signing in: the catalog's
/// title and the labels of its fields. (Signing in itself is not implemented yet.)
public struct AuthenticationDocument: Sendable, Hashable {
    public var title: String
    /// The authentication types offered (`http://opds-spec.org/auth/basic`, …).
    public var types: [String]
    /// The labels of the login and password fields of the first flow that has them.
    public var loginLabel: String?
    public var passwordLabel: String?

    /// Parses an authentication document; nil when the bytes are not one.
    public static func parse(_ bytes: [UInt8]) -> AuthenticationDocument? {
        guard bytes.count <= 1 << 20, let json = try? JSONParser.parse(bytes), let root = json.object,
              let flows = root["authentication"]?.array else { return nil }
        let labels = flows.lazy.compactMap { $0["labels"]?.object }.first
        return AuthenticationDocument(
            title: OPDS2Parser.text(root["title"]) ?? "",
            types: flows.compactMap { OPDS2Parser.text($0["type"]) },
            loginLabel: OPDS2Parser.text(labels?["login"]),
            passwordLabel: OPDS2Parser.text(labels?["password"]))
    }
}
