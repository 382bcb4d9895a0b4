#!/bin/sh
# make-deb.sh BUILD_DIR VERSION — turns BUILD_DIR/root (`make install DESTDIR=… PREFIX=/usr`)
# into BUILD_DIR/lectern_VERSION_ARCH.deb, as Debian policy wants it: a stripped binary,
# compressed man pages and changelog, the copyright file, and Depends computed from the
# libraries the binary links (dpkg-shlibdeps) plus those it loads on first use with dlopen.
set -eu
build=$(cd "$1" && pwd)
version=$2
root=$build/root
here=$(cd "$(dirname "$0")" && pwd)
arch=$(dpkg --print-architecture)
maintainer="The Lectern developers <lectern@lectern-reader.org>"

strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/lectern"
gzip -9nf "$root"/usr/share/man/man1/*.1
install -Dm644 "$here/debian/copyright" "$root/usr/share/doc/lectern/copyright"
commit=$(git -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
when=$(git -C "$here" log -1 --format=%cD 2>/dev/null || date -R)
printf 'lectern (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
    "$version" "$commit" "$maintainer" "$when" | gzip -9n > "$root/usr/share/doc/lectern/changelog.gz"

# dpkg-shlibdeps reads a debian/control: a minimal one in a scratch folder.
work=$build/shlibdeps
rm -rf "$work" && mkdir -p "$work/debian"
printf 'Source: lectern\n\nPackage: lectern\nArchitecture: any\n' > "$work/debian/control"
linked=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/bin/lectern" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
# Loaded on first use (dlopen) but needed for the network, PDF, RAR/7z/tar comics, MOBI/AZW3
# and Markdown: Depends (cmark-gfm's package name carries its version, read from the header
# built against); libmpv (audiobooks), libespeak-ng (reading aloud) and libdjvulibre (DjVu)
# are in Recommends (control.in).
cmark=$(sed -n 's/^#define CMARK_GFM_VERSION_STRING "\(.*\)"$/\1/p' /usr/include/cmark-gfm_version.h)
# libzip and libcrypto are loaded on first use as well (#28) but every book needs them: Depends,
# named by the package that installed the library built against (libssl3 or libssl3t64).
owner() { dpkg -S "*/$1" 2>/dev/null | head -n1 | cut -d: -f1; }
depends="$linked, $(owner libzip.so.4), $(owner libcrypto.so.3), libcurl4, libpoppler-glib8, libarchive13, libmobi0, libcmark-gfm-extensions$cmark"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
mkdir -p "$root/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    -e "s/^Maintainer: .*/Maintainer: $maintainer/" "$here/debian/control.in" > "$root/DEBIAN/control"
dpkg-deb --root-owner-group -Zxz --build "$root" "$build/lectern_${version}_${arch}.deb"
echo "$build/lectern_${version}_${arch}.deb"
