import Logging
import Shared

/// The command line's diagnostic log (``Diagnostics``): what the commands cannot show, such
/// as a failure under the terminal interface, where standard error is the screen.
enum CLILog {
    static let logger = Diagnostics.logger("lectern")
}
