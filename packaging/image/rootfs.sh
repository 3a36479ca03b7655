#!/usr/bin/env bash
# Stage the container image's files in ROOTFS, from a gateway binary built for Linux: the
# binary where the Dockerfile's ENTRYPOINT names it, the shared libraries it loads when it
# is dynamically linked (found with ldd), Debian's CA bundle, /etc/passwd and /etc/group
# with the user `nonroot` (65532), /etc/nsswitch.conf, /tmp, /home/nonroot, and the
# copyright files of the Debian packages those files come from. Both builds of the image
# use it: build.sh (buildah, from a release binary) and the Dockerfile (`docker build .`).
# Every file is left owned by whoever runs it; each build sets the owners itself (root,
# and 65532 for /home/nonroot).
#
#   packaging/image/rootfs.sh BINARY ROOTFS
#
# Needs od, ldd, dpkg-query (Debian or Ubuntu) and the ca-certificates package.
set -euo pipefail

die() {
  echo "rootfs.sh: $*" >&2
  exit 1
}

[ $# -eq 2 ] || die "usage: $0 BINARY ROOTFS"
if [ ! -f "$1" ] || [ ! -x "$1" ]; then
  die "$1 is not an executable file"
fi
binary=$(readlink -f "$1")
rootfs=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=packaging/image/config.sh
. "$here/config.sh"
name=$(basename "$image_entrypoint")
command -v dpkg-query >/dev/null ||
  die "dpkg-query not found: the image takes its libraries and CA bundle from Debian packages"

# Whether a program header names a dynamic loader (PT_INTERP, type 3), which a static
# binary lacks.
elf() { od -An -t "u$2" -j "$1" -N "$2" "$binary" | tr -d ' '; }
dynamic=false
phoff=$(elf 32 8)
phentsize=$(elf 54 2)
for ((i = 0; i < $(elf 56 2); i++)); do
  if [ "$(elf $((phoff + i * phentsize)) 4)" = 3 ]; then
    dynamic=true
  fi
done

install -d -m 0755 "$rootfs"
install -d -m 0755 "$rootfs"/{etc/ssl/certs,usr/share/doc/$name} "$rootfs$(dirname "$image_entrypoint")"
install -d -m 1777 "$rootfs/tmp"
install -m 0755 "$binary" "$rootfs$image_entrypoint"
install -m 0644 "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$rootfs/usr/share/doc/$name/"

# The Debian package a file comes from, for its copyright file. dpkg knows the path the
# package installed, which with merged /usr may be the /usr one (newer releases) or the
# one ldd prints (Debian 12).
packages=()
package_of() {
  local path owner
  for path in "$1" "/usr$1" "$(readlink -f "$1")"; do
    if owner=$(dpkg-query -S "$path" 2>/dev/null); then
      packages+=("${owner%%:*}")
      return
    fi
  done
  die "$1 belongs to no Debian package: cannot ship its licence"
}

# Every library the dynamic loader maps, and the loader itself, at the paths the binary
# asks for them (ldd prints `libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)` and
# `/lib64/ld-linux-x86-64.so.2 (0x…)`); symbolic links are copied as the files they name.
if $dynamic; then
  ldd_out=$(ldd "$binary" 2>&1) || die "ldd $binary: $ldd_out"
  if grep -q 'not found' <<<"$ldd_out"; then
    die "$binary needs libraries this machine lacks: $ldd_out"
  fi
  while read -r lib; do
    install -D -m 0755 "$(readlink -f "$lib")" "$rootfs$lib"
    package_of "$lib"
  done < <(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' <<<"$ldd_out")
fi

# Root certificates where rustls-platform-verifier (through rustls-native-certs and
# openssl-probe) looks first on Linux: /etc/ssl/certs/ca-certificates.crt.
bundle=/etc/ssl/certs/ca-certificates.crt
[ -s "$bundle" ] || die "$bundle is missing: apt-get install ca-certificates"
install -m 0644 "$bundle" "$rootfs$bundle"
packages+=(ca-certificates)

# The user the Dockerfile's USER names, by number, and its home (its WORKDIR).
uid=${image_user%%:*}
gid=${image_user##*:}
cat >"$rootfs/etc/passwd" <<PASSWD
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:$uid:$gid:nonroot:$image_workdir:/sbin/nologin
PASSWD
cat >"$rootfs/etc/group" <<GROUP
root:x:0:
nonroot:x:$gid:
GROUP
# glibc's lookups: the hosts file, then DNS (its files and dns modules are part of libc).
cat >"$rootfs/etc/nsswitch.conf" <<'NSS'
passwd: files
group: files
hosts: files dns
NSS
chmod 0644 "$rootfs"/etc/{passwd,group,nsswitch.conf}

for package in $(printf '%s\n' "${packages[@]}" | sort -u); do
  copyright=/usr/share/doc/$package/copyright
  [ -f "$copyright" ] || die "$copyright is missing: cannot ship $package's licence"
  install -D -m 0644 "$copyright" "$rootfs$copyright"
done

# The user's home, the one thing the user owns (each build sets its owner).
install -d -m 0755 "$(dirname "$rootfs$image_workdir")"
install -d -m 0700 "$rootfs$image_workdir"
