#!/usr/bin/env bash
# Install what packaging/image/build.sh needs, on Debian or Ubuntu: buildah (which builds
# the image) and ca-certificates (whose bundle the image ships). `cargo xtask dist` skips
# the image while buildah is missing; it never installs anything itself.
#
#   sudo packaging/image/install-buildah.sh
set -euo pipefail

missing=()
command -v buildah >/dev/null || missing+=(buildah)
[ -s /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
if [ ${#missing[@]} -eq 0 ]; then
  echo "buildah $(buildah --version | awk '{print $3}') and the CA bundle are installed"
  exit 0
fi
command -v apt-get >/dev/null || {
  echo "install-buildah.sh: no apt-get; install ${missing[*]} with this system's package manager" >&2
  exit 1
}
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
"${sudo[@]}" apt-get update
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
buildah --version
