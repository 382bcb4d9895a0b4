import Foundation
import Testing
import TestSupport

/// The shell completions `lectern --generate-completion-script` writes (#29 item 18): the
/// commands that take a publication complete file names.
@Suite struct CompletionScriptTests {
    /// The commands whose first argument is a file.
    static let fileCommands = ["open", "import", "info", "check", "cat", "render", "text", "listen", "acquire", "shelf", "forget-password", "license info", "serve"]

    static func script(_ shell: String) throws -> String {
        String(decoding: try Command.run([LecternProcess.executable, "--generate-completion-script", shell]), as: UTF8.self)
    }

    /// bash, for real: the script sourced, its function called as bash calls it on Tab, in a
    /// folder holding books.
    @Test(arguments: fileCommands)
    func bashCompletesFileNames(command: String) throws {
        let scriptPath = Fixtures.temporaryDirectory("completion") + "/lectern.bash"
        try Data(try Self.script("bash").utf8).write(to: URL(fileURLWithPath: scriptPath))
        let folder = Fixtures.temporaryDirectory("completion-books")
        for name in ["Moby Dick.epub", "Middlemarch.pdf"] {
            try Data().write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let program = """
            source "$1"
            COMP_WORDS=(lectern \(command) M); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="lectern \(command) M"; COMP_POINT=${#COMP_LINE}
            _lectern
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = String(decoding: try Command.run(["bash", "--norc", "-c", program, "bash", scriptPath], in: folder), as: UTF8.self)
        let offered = Set(output.split(separator: "\n").map(String.init))
        #expect(offered.isSuperset(of: ["Moby Dick.epub", "Middlemarch.pdf"]), "\(command): \(offered)")
    }

    /// zsh and fish are not on every test machine: their scripts are read for the file completer
    /// on each command's path argument.
    @Test func zshAndFishCompleteFileNames() throws {
        let zsh = try Self.script("zsh"), fish = try Self.script("fish")
        for command in Self.fileCommands {
            let function = zsh.components(separatedBy: "_lectern_\(command.replacingOccurrences(of: " ", with: "_"))() {").dropFirst().first?
                .components(separatedBy: "\n}\n").first ?? ""
            #expect(function.contains(":_files"), "zsh \(command)")
            #expect(fish.contains("positional \"lectern \(command)\" -eq 1' -F") || fish.contains("positional \"lectern \(command)\" -ge 1' -F"),
                    "fish \(command)")
        }
    }
}
