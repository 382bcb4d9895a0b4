import Foundation
import Shared
import Synchronization
import Testing

/// A resource that notes, for each read, whether a Swift task was running it.
private final class TaskNotingResource: Resource {
    let link = Link(href: "noted.txt")
    let readsInTasks = Mutex<[Bool]>([])

    private func note() {
        let inTask = withUnsafeCurrentTask { $0 != nil }
        readsInTasks.withLock { $0.append(inTask) }
    }

    var length: ResourceResult<UInt64> {
        note()
        return .success(5)
    }

    func read(range: Range<UInt64>?) -> ResourceResult<Data> {
        note()
        return .success(Data("hello".utf8))
    }

    func close() {}
}

/// #30 item 5: a resource's async face runs its reads through `Blocking`, outside the
/// cooperative pool (the publication server's handlers read through it).
@Suite struct ResourceOffPoolTests {
    @Test func theAsyncFaceReadsOnADispatchThread() async {
        let resource = TaskNotingResource()
        _ = resource.read(range: nil)
        #expect(await resource.lengthOffPool.value == 5)
        #expect(await resource.readOffPool(range: 0..<5).value == Data("hello".utf8))
        #expect(await resource.readOffPool().value == Data("hello".utf8))
        // The direct read ran in this test's task; the async face's three did not.
        #expect(resource.readsInTasks.withLock { $0 } == [true, false, false, false])
    }
}
