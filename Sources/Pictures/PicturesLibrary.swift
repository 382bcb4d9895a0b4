import CLecternPictures
import Synchronization

/// gdk-pixbuf and libchafa, loaded on first use (see the shim for why they are not linked).
enum PicturesLibrary {
    private static let loaded = Mutex<Bool?>(nil)

    /// Whether both libraries could be loaded; loads them on the first call.
    static var isAvailable: Bool {
        loaded.withLock { state in
            if let state { return state }
            let result = lectern_pictures_load() != 0
            state = result
            return result
        }
    }
}
