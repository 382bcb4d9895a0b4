import Glibc
import LecternCLI

// While TZ is unset, glibc reads /etc/localtime again at every local-time conversion, and
// libzip converts the date of every entry when it opens an archive: 2,000 file lookups before
// the first page of a book with 2,000 chapters. Naming that same file keeps the same time
// zone (Foundation, which does not read this form, falls back to /etc/localtime too) and has
// it read once. Set before any thread starts: setenv is not thread-safe.
if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 0) }

await LecternCommand.runMain()
