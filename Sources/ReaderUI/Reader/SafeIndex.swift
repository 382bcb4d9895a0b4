extension Collection {
    /// The element at `index`, nil when the collection has none there.
    subscript(safe index: Index) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
