import ArgumentParser
import PublicationServer

/// Which publications of `lectern serve` a `--header` is for. A header is a credential: sent for
/// every publication, a manifest that merely listed a URL on its host would have the server make
/// credentialed requests there on the person's behalf (and serve the answers on that book's
/// origin). So with several publications each header names its book: `N=HOST: Name: Value`, N
/// its place on the command line; with one publication, the plain form is for it.
struct ServeHeaderScope {
    /// The headers of each publication, in the order of the command line.
    let headers: [[HostHeader]]

    init(_ texts: [String], publications count: Int) throws {
        var headers = Array(repeating: [HostHeader](), count: count)
        for text in texts {
            var header = Substring(text)
            var target: Int?
            if let equals = text.firstIndex(of: "="), let number = Int(text[..<equals]) {
                guard (1...count).contains(number) else {
                    throw ValidationError("--header '\(number)=…': there \(count == 1 ? "is 1 publication" : "are \(count) publications") to serve")
                }
                target = number - 1
                header = text[text.index(after: equals)...]
            }
            guard let parsed = HostHeader(parsing: String(header)) else {
                throw ValidationError("--header '\(text)': expected 'HOST: Name: Value', e.g. 'books.example: Authorization: Bearer TOKEN'")
            }
            guard let index = target ?? (count == 1 ? 0 : nil) else {
                throw ValidationError("""
                    --header with \(count) publications: say which one it is for, as 'N=\(text)' (N its place on the \
                    command line), so that no other book's resources are fetched with it
                    """)
            }
            headers[index].append(parsed)
        }
        self.headers = headers
    }
}
