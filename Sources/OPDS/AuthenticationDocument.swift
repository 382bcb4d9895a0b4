import Shared

/// What an Authentication for OPDS 1.0 document tells a person about signing in: the catalog's
/// title, its ways of signing in and the labels of their fields.
public struct AuthenticationDocument: Sendable, Hashable {
    /// One way of signing in the catalog offers.
    public struct Flow: Sendable, Hashable {
        public var type: String
        public var loginLabel: String?
        public var passwordLabel: String?
        /// The `authenticate` link: the OAuth token endpoint (password flow) or the page to
        /// open (implicit flow).
        public var authenticateURL: String?
    }

    public static let basic = "http://opds-spec.org/auth/basic"
    public static let oauthPassword = "http://opds-spec.org/auth/oauth/password"
    public static let oauthImplicit = "http://opds-spec.org/auth/oauth/implicit"
    /// The relation of a link to a catalog's authentication document.
    public static let documentRel = "http://opds-spec.org/auth/document"
    /// Authentication documents larger than this are not read.
    public static let maxSize = 1 << 20

    public var title: String
    /// The authentication types offered (`http://opds-spec.org/auth/basic`, …).
    public var types: [String]
    /// The labels of the login and password fields of the first flow that has them.
    public var loginLabel: String?
    public var passwordLabel: String?
    public var flows: [Flow]

    /// The first flow Lectern can sign in with: Basic, then OAuth password, then OAuth implicit.
    public var usableFlow: Flow? {
        flows.first { $0.type == Self.basic } ?? flows.first { $0.type == Self.oauthPassword }
            ?? flows.first { $0.type == Self.oauthImplicit }
    }

    /// "Card number, PIN", or nil when the document names no field.
    public var labels: String? {
        let labels = [loginLabel, passwordLabel].compactMap { $0 }
        return labels.isEmpty ? nil : labels.joined(separator: ", ")
    }

    /// "wrong card number or PIN".
    public var wrongCredentials: String {
        "wrong \((loginLabel ?? "user name").lowercasedFirst) or \(passwordLabel ?? "password")"
    }

    /// Parses an authentication document read from `url` (its links resolve against it); nil
    /// when the bytes are not one.
    public static func parse(_ bytes: [UInt8], url: String = "") -> AuthenticationDocument? {
        guard bytes.count <= maxSize, let json = try? JSONParser.parse(bytes), let root = json.object,
              let flows = root["authentication"]?.array else { return nil }
        let resolver = CatalogURL(base: url)
        let parsed: [Flow] = flows.compactMap { flow in
            guard let type = OPDS2Parser.text(flow["type"]) else { return nil }
            let labels = flow["labels"]?.object
            let authenticate = (flow["links"]?.array ?? []).first { link in
                link["rel"]?.string == "authenticate" || (link["rel"]?.array ?? []).contains { $0.string == "authenticate" }
            }
            return Flow(type: type, loginLabel: OPDS2Parser.text(labels?["login"]),
                        passwordLabel: OPDS2Parser.text(labels?["password"]),
                        authenticateURL: resolver.resolve(authenticate?["href"]?.string))
        }
        let labelled = parsed.first { $0.loginLabel != nil || $0.passwordLabel != nil }
        return AuthenticationDocument(
            title: OPDS2Parser.text(root["title"]) ?? "",
            types: parsed.map(\.type),
            loginLabel: labelled?.loginLabel,
            passwordLabel: labelled?.passwordLabel,
            flows: parsed)
    }
}

extension String {
    /// "Card number" → "card number"; "PIN" stays "PIN" (an acronym keeps its capitals).
    var lowercasedFirst: String {
        guard let first, first.isUppercase else { return self }
        let second = dropFirst().first
        if let second, second.isUppercase { return self }
        return first.lowercased() + dropFirst()
    }
}
