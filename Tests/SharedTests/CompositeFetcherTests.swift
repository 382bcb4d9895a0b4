import Foundation
import Shared
import Synchronization
import Testing
import TestSupport

@Suite struct CompositeFetcherTests {
    @Test func emptyFetcher() {
        let fetcher = EmptyFetcher()
        #expect(fetcher.links.isEmpty)
        #expect(fetcher.get(href: "a.html").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "https://example.com/").length.failure?.isNotFound == true)
        fetcher.close()
    }

    @Test func proxyFetcherReceivesTheExpandedLink() {
        let seen = Mutex<[String]>([])
        let fetcher = ProxyFetcher { link in
            seen.withLock { $0.append(link.href) }
            return StringResource(link: link, string: "served " + link.href)
        }
        #expect(fetcher.links.isEmpty)
        #expect(fetcher.get(href: "a.html").read().text == "served a.html")
        let templated = Link(href: "search{?q}", templated: true)
        #expect(fetcher.get(templated, parameters: ["q": "a b"]).read().text == "served search?q=a%20b")
        #expect(seen.withLock { $0 } == ["a.html", "search?q=a%20b"])
    }

    @Test func proxyFetcherOfStrings() {
        let fetcher = ProxyFetcher(strings: { link in
            link.href == "ok" ? .success("fine") : .failure(.notFound(link.href))
        })
        #expect(fetcher.get(href: "ok").readAsString().value == "fine")
        #expect(fetcher.get(href: "ko").read().error?.isNotFound == true)
    }

    @Test func routingSendsRemoteAndLocalHrefsToTheirFetchers() {
        let local = SpyFetcher("local", ["a.html": "LOCAL", "https://example.com/a.html": "WRONG"])
        let remote = SpyFetcher("remote", ["https://example.com/a.html": "REMOTE", "http://x.org/b": "B", "a.html": "WRONG"])
        let routing = RoutingFetcher(local: local, remote: remote)
        #expect(routing.get(href: "a.html").read().text == "LOCAL")
        #expect(routing.get(href: "https://example.com/a.html").read().text == "REMOTE")
        #expect(routing.get(href: "HTTP://x.org/b").read().error?.isNotFound == true) // the spy is case-sensitive
        #expect(routing.get(href: "http://x.org/b").read().text == "B")
        #expect(routing.get(href: "urn:isbn:1").read().error?.isNotFound == true)
        #expect(local.gets.count == 2)
        #expect(remote.gets.count == 3)
        // Links of every child, in route order.
        #expect(routing.links.map(\.href) == ["a.html", "http://x.org/b", "https://example.com/a.html", "a.html", "https://example.com/a.html"])
    }

    @Test func closeReachesEveryChild() {
        let children = (0..<4).map { SpyFetcher("child \($0)") }
        let routing = RoutingFetcher(routes: [
            .init(fetcher: children[0], accepts: { $0.href.hasPrefix("0") }),
            .init(fetcher: RoutingFetcher(local: children[1], remote: children[2]), accepts: { $0.href.hasPrefix("1") }),
            .init(fetcher: TransformingFetcher(children[3], transformers: [])),
        ])
        routing.close()
        #expect(children.map(\.closes.count) == [1, 1, 1, 1])
    }

    @Test func routingWithoutAMatchingRouteIsNotFound() {
        let routing = RoutingFetcher(routes: [.init(fetcher: SpyFetcher("x", ["a": "A"]), accepts: { _ in false })])
        #expect(routing.get(href: "a").read().error?.isNotFound == true)
    }

    @Test func transformersApplyInOrder() {
        let child = SpyFetcher("child", ["a.txt": "text"])
        func appending(_ suffix: String) -> ResourceTransformer {
            { resource in TransformingResource(resource) { .success($0 + Data(suffix.utf8)) } }
        }
        let fetcher = TransformingFetcher(child, transformers: [appending("+decrypt"), appending("+deobfuscate")])
        let resource = fetcher.get(href: "a.txt")
        #expect(resource.read().text == "text+decrypt+deobfuscate")
        #expect(resource.read(range: 4..<12).text == "+decrypt")
        #expect(fetcher.links.map(\.href) == ["a.txt"])
        // A transformer that does not apply returns the resource unchanged.
        let selective = TransformingFetcher(child, transformer: { resource in
            resource.link.href.hasSuffix(".css") ? TransformingResource(resource) { _ in .success(Data("css".utf8)) } : resource
        })
        #expect(selective.get(href: "a.txt").read().text == "text")
        selective.close()
        #expect(child.closes.count == 1)
        // Errors of the child pass through the transformers.
        #expect(fetcher.get(href: "missing").read().error?.isNotFound == true)
    }

    @Test func invalidateRecreatesTheChildAndClosesTheOldOne() {
        final class Generations: Sendable {
            let created = Mutex<[SpyFetcher]>([])
            func make() -> SpyFetcher {
                created.withLock { created in
                    let number = created.count + 1
                    let fetcher = SpyFetcher("gen \(number)", ["a.txt": "generation \(number)", "only\(number).txt": "x"])
                    created.append(fetcher)
                    return fetcher
                }
            }
            var all: [SpyFetcher] { created.withLock { $0 } }
        }
        let generations = Generations()
        let fetcher = InvalidatingFetcher(generations.make()) { old in
            #expect((old as? SpyFetcher) === generations.all.last)
            return generations.make()
        }
        let before = fetcher.get(href: "a.txt")
        #expect(before.read().text == "generation 1")
        #expect(fetcher.links.map(\.href) == ["a.txt", "only1.txt"])

        fetcher.invalidate()
        let all = generations.all
        #expect(all.count == 2)
        #expect(all[0].closes.count == 1)
        #expect(all[1].closes.count == 0)
        // A resource obtained before reads from the new child, and released the old resource.
        #expect(before.read().text == "generation 2")
        #expect(all[0].resources.first?.closes.count == 1)
        #expect(fetcher.get(href: "a.txt").read(range: 0..<3).text == "gen")
        #expect(fetcher.links.map(\.href) == ["a.txt", "only2.txt"])

        fetcher.invalidate()
        #expect(before.length.value == UInt64("generation 3".utf8.count))
        fetcher.close()
        let last = generations.all
        #expect(last.map(\.closes.count) == [1, 1, 1])
    }

    @Test func invalidatingResourceCloseReleasesItsResource() {
        let child = SpyFetcher("child", ["a": "A"])
        let fetcher = InvalidatingFetcher(child) { $0 }
        let resource = fetcher.get(href: "a")
        #expect(resource.read().text == "A")
        resource.close()
        #expect(child.resources.first?.closes.count == 1)
        #expect(resource.read().text == "A") // usable again after close
    }
}
