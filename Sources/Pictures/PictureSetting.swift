/// The `images` setting (config.toml, `LECTERN_IMAGES`, `--images`): a protocol, `auto` to
/// detect one, or `off` for the text placeholders.
public enum PictureSetting: String, Sendable, CaseIterable {
    case auto, kitty, sixel, iterm, symbols, off

    /// The protocol this setting asks for; nil for `auto` and `off`.
    public var fixedProtocol: PictureProtocol? {
        switch self {
        case .kitty: .kitty
        case .sixel: .sixel
        case .iterm: .iterm
        case .symbols: .symbols
        case .auto, .off: nil
        }
    }
}
