#!/bin/sh
# check-install.sh BUILD_DIR — checks `make deb`'s installation tree (BUILD_DIR/root, installed
# with PREFIX=/usr) and package: the program runs and says its commit, the desktop entry is
# valid, the MIME types are recognised (globs and magic), every man page renders without a
# warning, every completion script parses in its shell, lintian finds no error, and (as root,
# on a throwaway machine such as CI's) the package installs with apt and runs.
set -eu
build=$(cd "$1" && pwd)
root=$build/root
repo=$(cd "$(dirname "$0")/.." && pwd)
deb=$(ls "$build"/lectern_*.deb)
fail() { echo "check-install: $*" >&2; exit 1; }
step() { echo "check-install: $*"; }

step "the binary"
"$root/usr/bin/lectern" --version | grep -q "(commit [0-9a-f]" || fail "lectern --version does not name its commit"
"$root/usr/bin/lectern" doctor > /dev/null || fail "lectern doctor failed"

step "the desktop entry"
desktop-file-validate "$root/usr/share/applications/lectern.desktop" || fail "desktop-file-validate refused lectern.desktop"

step "the MIME types"
mime=$build/mime-check
rm -rf "$mime" && mkdir -p "$mime/share/mime/packages" "$mime/files" "$mime/home"
cp /usr/share/mime/packages/freedesktop.org.xml "$root/usr/share/mime/packages/lectern.xml" "$mime/share/mime/packages/"
update-mime-database "$mime/share/mime"
samples=$repo/Tests/Fixtures/Samples
cp "$samples/lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl" "$mime/files/book.lcpl"
cp "$samples/lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl" "$mime/files/license-without-extension"
cp "$samples/lcp/swifttoolkit-daisy.lcpdf" "$mime/files/book.lcpdf"
cp "$samples/lcp/swifttoolkit-daisy.lcpdf" "$mime/files/book.lcpa"
cp "$samples/lcp/swifttoolkit-daisy.lcpdf" "$mime/files/book.audiobook"
cp "$samples/lcp/swifttoolkit-daisy.lcpdf" "$mime/files/book.webpub"
cp "$samples/lcp/swifttoolkit-daisy.lcpdf" "$mime/files/book.divina"
expect_type() {
    found=$(env XDG_DATA_DIRS="$mime/share" XDG_DATA_HOME="$mime/home" XDG_CURRENT_DESKTOP= DE=generic \
        xdg-mime query filetype "$mime/files/$1")
    [ "$found" = "$2" ] || fail "$1 is $found, not $2"
}
expect_type book.lcpl application/vnd.readium.lcp.license.v1.0+json
expect_type license-without-extension application/vnd.readium.lcp.license.v1.0+json
expect_type book.lcpdf application/pdf+lcp
expect_type book.lcpa application/audiobook+lcp
expect_type book.audiobook application/audiobook+zip
expect_type book.webpub application/webpub+zip
expect_type book.divina application/divina+zip

step "the man pages"
[ -f "$root/usr/share/man/man1/lectern.1.gz" ] || fail "no lectern(1)"
for command in open import search info check acquire license doctor; do
    [ -f "$root/usr/share/man/man1/lectern-$command.1.gz" ] || fail "no lectern-$command(1)"
done
for page in "$root"/usr/share/man/man1/*.1.gz; do
    warnings=$(zcat "$page" | groff -man -Tutf8 -ww -z 2>&1 || true)
    [ -z "$warnings" ] || fail "$(basename "$page"): $warnings"
    MANWIDTH=80 man -l "$page" > /dev/null 2>&1 || fail "man -l $(basename "$page") failed"
done

step "the completions"
bash -n "$root/usr/share/bash-completion/completions/lectern" || fail "bash completion does not parse"
zsh -n "$root/usr/share/zsh/vendor-completions/_lectern" || fail "zsh completion does not parse"
fish -n "$root/usr/share/fish/vendor_completions.d/lectern.fish" || fail "fish completion does not parse"

step "the package"
dpkg-deb --field "$deb" Package Version Architecture Depends Recommends
lintian --fail-on error --suppress-tags-from-file /dev/null ${LINTIAN_SUPPRESS:+--suppress-tags "$LINTIAN_SUPPRESS"} "$deb" || fail "lintian found errors in $(basename "$deb")"

if [ "$(id -u)" = 0 ] && [ -z "${LECTERN_SKIP_DEB_INSTALL:-}" ]; then
    step "installing the package with apt"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" > /dev/null
    /usr/bin/lectern --version | grep -q "(commit [0-9a-f]" || fail "the installed lectern does not run"
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq lectern > /dev/null
fi
step "all good: $(basename "$deb")"
