# Sourced by build.sh and rootfs.sh: the image's configuration, read from the last stage
# of the Dockerfile at the repository's root, where it is written once for both builds
# (`docker build .` and build.sh with buildah). Sets:
#   image_user image_workdir image_path image_entrypoint (the binary's path in the image)
#   image_entrypoint_json image_cmd_json image_port image_stopsignal
#   image_labels  (an array of key=value: every LABEL whose value names no build argument)
# and dies when the Dockerfile lacks one of them. Each instruction is read from a line of
# its own in the form the Dockerfile writes it (`USER 65532:65532`, `ENTRYPOINT
# ["/usr/local/bin/lifesciences-mcp"]`, `LABEL key="value"`).

image_dockerfile=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/Dockerfile
[ -f "$image_dockerfile" ] || {
  echo "config.sh: $image_dockerfile is missing" >&2
  exit 1
}

# The argument of the last `NAME …` instruction (the last stage's, which comes last).
image_instruction() {
  local value
  value=$(awk -v name="$1" '$1 == name { sub(/^[^ ]+ +/, ""); value = $0 } END { print value }' \
    "$image_dockerfile")
  [ -n "$value" ] || {
    echo "config.sh: the Dockerfile has no $1 instruction" >&2
    exit 1
  }
  printf '%s\n' "$value"
}

image_user=$(image_instruction USER)
image_workdir=$(image_instruction WORKDIR)
image_path=$(image_instruction ENV)
case "$image_path" in
  PATH=*) image_path=${image_path#PATH=} ;;
  *)
    echo "config.sh: the Dockerfile's last ENV is not the PATH: $image_path" >&2
    exit 1
    ;;
esac
image_entrypoint_json=$(image_instruction ENTRYPOINT)
image_cmd_json=$(image_instruction CMD)
image_port=$(image_instruction EXPOSE)
image_stopsignal=$(image_instruction STOPSIGNAL)
# ["/usr/local/bin/lifesciences-mcp"] -> /usr/local/bin/lifesciences-mcp
image_entrypoint=$(sed -e 's/^\[ *"//' -e 's/" *\]$//' <<<"$image_entrypoint_json")
case "$image_entrypoint" in
  /*) ;;
  *)
    echo "config.sh: the Dockerfile's ENTRYPOINT is not one absolute path: $image_entrypoint_json" >&2
    exit 1
    ;;
esac
image_labels=()
while IFS= read -r label; do
  image_labels+=("$label")
done < <(sed -n 's/^LABEL \([^=]*\)="\([^"$]*\)"$/\1=\2/p' "$image_dockerfile")
[ "${#image_labels[@]}" -gt 0 ] || {
  echo "config.sh: the Dockerfile has no LABEL" >&2
  exit 1
}
