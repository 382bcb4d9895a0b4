import LecternCLI

await LecternCommand.runMain()
