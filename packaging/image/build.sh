#!/usr/bin/env bash
# Build the lifesciences-mcp container image FROM scratch with buildah, from a gateway
# binary built for Linux, and write it as an OCI archive. No base image is pulled: the
# image holds the binary, the shared libraries it loads when it is dynamically linked
# (found with ldd), Debian's CA bundle, /etc/passwd and /etc/group with the user `nonroot`
# (65532), /etc/nsswitch.conf, /tmp, and the copyright files of the Debian packages those
# files come from. packaging/image/README.md explains the image.
#
#   packaging/image/build.sh BINARY OUT.tar
#
# The image's architecture is the binary's (amd64 or arm64, read from its ELF header). A
# dynamically linked binary (glibc) must have been built for this machine, whose libraries
# the image takes; a static one (the release's musl builds) can be packed anywhere, for
# either architecture.
# Environment:
#   VERSION            the image's version (default: what `BINARY --version` prints; set
#                      it when the binary cannot run here)
#   REVISION           commit recorded in org.opencontainers.image.revision (default:
#                      LIFESCIENCES_GIT_REVISION, which a release build of the binary
#                      also reads, else `git rev-parse HEAD` when run in a checkout)
#   SOURCE_DATE_EPOCH  when set, the image's creation time and every file's time in its
#                      layer, for an image whose digest depends only on what is in it
# Needs buildah, od, ldd, dpkg-query (Debian or Ubuntu) and the ca-certificates package.
# Runs as root or rootless; builds in a private, temporary buildah storage (vfs driver,
# which works everywhere) and leaves nothing behind but OUT.tar.
set -euo pipefail

die() {
  echo "build.sh: $*" >&2
  exit 1
}

[ $# -eq 2 ] || die "usage: $0 BINARY OUT.tar"
if [ ! -f "$1" ] || [ ! -x "$1" ]; then
  die "$1 is not an executable file"
fi
binary=$(readlink -f "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v buildah >/dev/null ||
  die "buildah is not installed (packaging/image/install-buildah.sh installs it)"
command -v dpkg-query >/dev/null ||
  die "dpkg-query not found: the image takes its libraries and CA bundle from Debian packages"

# The values of the gateway's Cargo.toml (workspace.package and crates/lifesciences-mcp).
name=lifesciences-mcp
description="One MCP server for STRING, Ensembl, ChEMBL, the IGVF Catalog and UniProt, with identifiers that cross over"
source_url=https://github.com/lifesciences-mcp/lifesciences-mcp
licenses="MIT OR Apache-2.0"
# The MCP registry checks that an image belongs to the server it lists with this label.
registry_name=io.github.lifesciences-mcp/lifesciences-mcp
image_ref=ghcr.io/lifesciences-mcp/lifesciences-mcp

# The binary's ELF header: its machine (e_machine), and whether a program header names a
# dynamic loader (PT_INTERP, type 3), which a static binary lacks.
elf() { od -An -t "u$2" -j "$1" -N "$2" "$binary" | tr -d ' '; }
[ "$(od -An -t x1 -N 4 "$binary" | tr -d ' ')" = 7f454c46 ] || die "$binary is not an ELF file"
if [ "$(elf 4 1)" != 2 ] || [ "$(elf 5 1)" != 1 ]; then
  die "$binary is not 64-bit little-endian"
fi
case "$(elf 18 2)" in
  62) arch=amd64 ;;
  183) arch=arm64 ;;
  *) die "$binary is for ELF machine $(elf 18 2), neither amd64 nor arm64" ;;
esac
dynamic=false
phoff=$(elf 32 8)
phentsize=$(elf 54 2)
for ((i = 0; i < $(elf 56 2); i++)); do
  if [ "$(elf $((phoff + i * phentsize)) 4)" = 3 ]; then
    dynamic=true
  fi
done
case "$(uname -m)" in
  x86_64) here_arch=amd64 ;;
  aarch64 | arm64) here_arch=arm64 ;;
  *) here_arch=$(uname -m) ;;
esac
if $dynamic && [ "$arch" != "$here_arch" ]; then
  die "$binary is dynamically linked for $arch: build its image on an $arch machine, whose \
libraries it takes, or give a static (musl) build"
fi

# `lifesciences-mcp 0.1.0 (rev …)`: the image's version is the binary's.
version=${VERSION:-$("$binary" --version 2>/dev/null | awk '{print $2}' || true)}
[ -n "$version" ] || die "$binary --version cannot run here: set VERSION"
revision=${REVISION:-${LIFESCIENCES_GIT_REVISION:-$(git -C "$repo" rev-parse HEAD 2>/dev/null || true)}}

work=$(mktemp -d "${TMPDIR:-/tmp}/lifesciences-mcp-image.XXXXXX")
bah=(buildah --root "$work/storage" --runroot "$work/run" --storage-driver vfs)
container=""
cleanup() {
  if [ -n "$container" ]; then
    "${bah[@]}" rm "$container" >/dev/null 2>&1 || true
  fi
  # Rootless, the storage holds files owned by mapped ids that only the user namespace
  # can delete.
  if [ "$(id -u)" -ne 0 ]; then
    buildah unshare rm -rf "$work" 2>/dev/null || rm -rf "$work" 2>/dev/null || true
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

rootfs=$work/rootfs
install -d -m 0755 "$rootfs"
install -d -m 0755 "$rootfs"/{etc/ssl/certs,usr/local/bin,usr/share/doc/$name}
install -d -m 1777 "$rootfs/tmp"
install -m 0755 "$binary" "$rootfs/usr/local/bin/$name"
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

cat >"$rootfs/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
EOF
cat >"$rootfs/etc/group" <<'EOF'
root:x:0:
nonroot:x:65532:
EOF
# glibc's lookups: the hosts file, then DNS (its files and dns modules are part of libc).
cat >"$rootfs/etc/nsswitch.conf" <<'EOF'
passwd: files
group: files
hosts: files dns
EOF
chmod 0644 "$rootfs"/etc/{passwd,group,nsswitch.conf}

for package in $(printf '%s\n' "${packages[@]}" | sort -u); do
  copyright=/usr/share/doc/$package/copyright
  [ -f "$copyright" ] || die "$copyright is missing: cannot ship $package's licence"
  install -D -m 0644 "$copyright" "$rootfs$copyright"
done

# The user's home, the one thing the user owns.
install -d -m 0755 "$rootfs/home"
install -d -m 0700 "$rootfs/home/nonroot"

# Added as archives, which say each file's owner: root owns everything else.
tar --create --file "$work/rootfs.tar" --directory "$rootfs" --numeric-owner \
  --owner=0 --group=0 --exclude=./home/nonroot .
tar --create --file "$work/home.tar" --directory "$rootfs" --numeric-owner \
  --owner=65532 --group=65532 --no-recursion ./home/nonroot
container=$("${bah[@]}" from scratch)
"${bah[@]}" add --quiet "$container" "$work/rootfs.tar" /
"${bah[@]}" add --quiet "$container" "$work/home.tar" /
labels=(
  --label "io.modelcontextprotocol.server.name=$registry_name"
  --label "org.opencontainers.image.title=$name"
  --label "org.opencontainers.image.description=$description"
  --label "org.opencontainers.image.version=$version"
  --label "org.opencontainers.image.source=$source_url"
  --label "org.opencontainers.image.url=$source_url"
  --label "org.opencontainers.image.documentation=$source_url/tree/main/packaging/image"
  --label "org.opencontainers.image.licenses=$licenses"
)
if [ -n "$revision" ]; then
  labels+=(--label "org.opencontainers.image.revision=$revision")
fi
"${bah[@]}" config \
  --os linux --arch "$arch" \
  --user 65532:65532 \
  --workingdir /home/nonroot \
  --env PATH=/usr/local/bin:/usr/bin:/bin \
  --entrypoint "[\"/usr/local/bin/$name\"]" \
  --cmd '["serve", "--http", "0.0.0.0:8000"]' \
  --port 8000/tcp \
  --stop-signal SIGTERM \
  --created-by "packaging/image/build.sh" \
  "${labels[@]}" \
  "$container"

commit=(commit --quiet --format oci --disable-compression=false)
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  commit+=(--timestamp "$SOURCE_DATE_EPOCH")
fi
mkdir -p "$(dirname "$out")"
rm -f "$out"
"${bah[@]}" "${commit[@]}" "$container" "oci-archive:$out:$image_ref:$version" >/dev/null
echo "$out: $image_ref:$version ($arch)"
