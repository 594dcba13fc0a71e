#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Installs the Debian packages listed in scripts/deps.txt.  Idempotent and
# silent when everything is already installed; otherwise one apt-get run.
set -euo pipefail
list=$(dirname "$0")/deps.txt
mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$list")

missing=()
for pkg in "${wanted[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = installed ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then
		sudo=sudo
	else
		echo "deps: missing packages (${missing[*]}) and not root; install them with apt-get" >&2
		exit 1
	fi
else
	sudo=
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { $sudo apt-get update -qq && \
       $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	tail -20 "$log" >&2
	echo "deps: apt-get failed installing: ${missing[*]}" >&2
	rm -f "$log"
	exit 1
fi
rm -f "$log"
