#!/usr/bin/env bash
# Build the lifesciences-mcp container image FROM scratch with buildah, from a gateway
# binary built for Linux, and write it as an OCI archive. No base image is pulled: the
# image holds what packaging/image/rootfs.sh stages (the binary, the shared libraries it
# loads when it is dynamically linked, Debian's CA bundle, /etc/passwd and /etc/group with
# the user `nonroot` (65532), /etc/nsswitch.conf, /tmp, /home/nonroot, and the copyright
# files of the Debian packages those files come from), configured as the Dockerfile at the
# repository's root declares (read by packaging/image/config.sh): `docker build .` and
# this script make the same image. packaging/image/README.md explains the image.
#
#   packaging/image/build.sh BINARY OUT.tar
#   packaging/image/build.sh --print-config    # what it reads from the Dockerfile
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

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=packaging/image/config.sh
. "$here/config.sh"

# What this script applies, as it read it from the Dockerfile: one line each, for a test
# to hold against the Dockerfile (xtask's image_config tests).
if [ "${1:-}" = --print-config ]; then
  printf '%s\n' "user=$image_user" "workdir=$image_workdir" "path=$image_path" \
    "entrypoint=$image_entrypoint_json" "cmd=$image_cmd_json" "port=$image_port" \
    "stopsignal=$image_stopsignal"
  printf 'label.%s\n' "${image_labels[@]}"
  exit 0
fi

[ $# -eq 2 ] || die "usage: $0 BINARY OUT.tar"
if [ ! -f "$1" ] || [ ! -x "$1" ]; then
  die "$1 is not an executable file"
fi
binary=$(readlink -f "$1")
out=$2
command -v buildah >/dev/null ||
  die "buildah is not installed (packaging/image/install-buildah.sh installs it)"
command -v dpkg-query >/dev/null ||
  die "dpkg-query not found: the image takes its libraries and CA bundle from Debian packages"

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
"$here/rootfs.sh" "$binary" "$rootfs"

# Added as archives, which say each file's owner: root owns everything else.
tar --create --file "$work/rootfs.tar" --directory "$rootfs" --numeric-owner \
  --owner=0 --group=0 --exclude=".$image_workdir" .
tar --create --file "$work/home.tar" --directory "$rootfs" --numeric-owner \
  --owner="${image_user%%:*}" --group="${image_user##*:}" --no-recursion ".$image_workdir"
container=$("${bah[@]}" from scratch)
"${bah[@]}" add --quiet "$container" "$work/rootfs.tar" /
"${bah[@]}" add --quiet "$container" "$work/home.tar" /
labels=()
for label in "${image_labels[@]}"; do
  labels+=(--label "$label")
done
labels+=(--label "org.opencontainers.image.version=$version")
if [ -n "$revision" ]; then
  labels+=(--label "org.opencontainers.image.revision=$revision")
fi
"${bah[@]}" config \
  --os linux --arch "$arch" \
  --user "$image_user" \
  --workingdir "$image_workdir" \
  --env "PATH=$image_path" \
  --entrypoint "$image_entrypoint_json" \
  --cmd "$image_cmd_json" \
  --port "$image_port" \
  --stop-signal "$image_stopsignal" \
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
