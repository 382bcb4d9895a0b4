import Foundation
import LCP
import LCPSQLite
import Shared
import Synchronization
import Testing
import TestSupport

/// The CRL cache, noting for each write whether it ran inside a Swift task (on the
/// cooperative pool) or on a Dispatch thread of ``Blocking``.
private final class TaskNotingCRLRepository: LCPCRLRepository {
    let base: LCPSQLiteCRLRepository
    /// One entry per write: whether a task was running it.
    let writesInTasks = Mutex<[Bool]>([])

    init(base: LCPSQLiteCRLRepository) { self.base = base }

    private func note() {
        let inTask = withUnsafeCurrentTask { $0 != nil }
        writesInTasks.withLock { $0.append(inTask) }
    }

    func crl(url: String) throws(LCPError) -> LCPCachedCRL? { try base.crl(url: url) }
    func storeCRL(_ crl: LCPCachedCRL) throws(LCPError) {
        note()
        try base.storeCRL(crl)
    }
    func lastFailedAttempt(url: String) throws(LCPError) -> Date? { try base.lastFailedAttempt(url: url) }
    func recordFailedAttempt(url: String, at date: Date, reason: String) throws(LCPError) {
        note()
        try base.recordFailedAttempt(url: url, at: date, reason: reason)
    }
}

/// #30 item 5: refreshing the revocation list writes SQLite and parses and verifies the list
/// on Dispatch threads, not on the cooperative pool the interface's tasks share.
@Suite struct CRLRefreshOffPoolTests {
    @Test func theRefreshWritesItsCacheOffTheCooperativePool() async throws {
        let server = try StatusServer()
        let lcp = try TestLCP()
        let repository = TaskNotingCRLRepository(base: LCPSQLiteCRLRepository(store: lcp.store))
        try server.serveFile("ca.crl", ["body_b64": try CRLServiceTests.crl().base64EncodedString(), "content_type": "application/pkix-crl"])
        let crls = LCPCRLService(url: server.fileURL("ca.crl"), issuers: TestLCP.anchors, repository: repository, timeout: 3,
                                 retryInterval: 0)
        guard case .success = await crls.refresh() else {
            Issue.record("the revocation list was not refreshed")
            return
        }
        let writes = repository.writesInTasks.withLock { $0 }
        // The attempt noted first, then the list cached.
        #expect(writes.count == 2)
        #expect(!writes.contains(true), "a write ran on the cooperative pool: \(writes)")
    }
}
