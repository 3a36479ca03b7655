#!/bin/sh
# Start Keycloak and a gateway that accepts its tokens (compose.keycloak.yaml), then show
# what a caller sees: 401 without a token (with the challenge that points to the
# gateway's metadata), the metadata, and `initialize` answered with a token the realm
# gives the lab's scripts. Needs Docker Compose or Podman Compose, and curl, on Linux.
# Stop it with: docker compose -f deploy/compose.keycloak.yaml down
set -eu
cd "$(dirname "$0")"

if docker compose version >/dev/null 2>&1; then
	compose() { docker compose -f compose.keycloak.yaml "$@"; }
elif command -v podman >/dev/null 2>&1; then
	compose() { podman compose -f compose.keycloak.yaml "$@"; }
else
	echo "try-keycloak.sh needs Docker Compose or Podman Compose" >&2
	exit 1
fi

compose up -d

printf 'waiting for Keycloak'
tries=0
until curl -fsS http://localhost:8080/realms/lab/.well-known/openid-configuration >/dev/null 2>&1; do
	tries=$((tries + 1))
	if [ "$tries" -gt 90 ]; then
		echo; echo "Keycloak did not answer within 3 minutes: compose logs keycloak" >&2
		exit 1
	fi
	printf .
	sleep 2
done
echo

initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"try-keycloak","version":"0"}}}'
call() {
	curl -sS -o /dev/null -D - http://localhost:8000/mcp \
		-H 'Content-Type: application/json' \
		-H 'Accept: application/json, text/event-stream' \
		"$@" -d "$initialize"
}

echo "== without a token: 401, and where to learn how to get one"
call | grep -i -E '^(HTTP|www-authenticate)'

echo "== the gateway's protected-resource metadata"
curl -sS http://localhost:8000/.well-known/oauth-protected-resource/mcp
echo

echo "== a token for the lab's scripts (client credentials), then initialize with it"
token=$(curl -fsS http://localhost:8080/realms/lab/protocol/openid-connect/token \
	-d grant_type=client_credentials -d client_id=lab-scripts \
	-d client_secret=lab-scripts-demo-secret |
	sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
call -H "Authorization: Bearer $token" | grep -i -E '^(HTTP|mcp-session-id)'

echo "== the gateway's start line says which tokens it accepts"
compose logs gateway | grep -i 'authentication' | tail -n 1
