#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Runs a command with a dtschema that Linux 7.x's `make dt_binding_check`
# accepts (>= 2023.9; bookworm's dt-schema is 2022.08): the pinned .debs of
# scripts/registry/pins.txt unpacked into the cache (never installed), their
# dt-* tools first in PATH, their modules and our rpds stand-in (dtschema/
# rpds.py, see there why) on PYTHONPATH.  The Python modules they import
# from bookworm (ruamel.yaml, rfc3987, libfdt, attrs, typing-extensions)
# come from scripts/deps.txt; the tools run bookworm's /usr/bin/python3
# (their #! line), so the kernel's own Python scripts get PYTHON3 set to it.
#
#   dtschema.sh CMD [ARG...]    runs CMD in that environment
#   dtschema.sh --version       prints the dtschema version (checks it works)
#
# Environment: RVPERF_CACHE (default ~/.cache/rvperf).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export RVPERF_CACHE=${RVPERF_CACHE:-$HOME/.cache/rvperf}
dest=$("$here/fetch.sh" unpack "$RVPERF_CACHE/dtschema-2026.06" \
	dt-schema-2026.06.deb jsonschema-4.19.2.deb referencing-0.36.2.deb \
	jsonschema-specs.deb)
export PATH="$dest/usr/bin:$PATH"
export PYTHONPATH="$here/dtschema:$dest/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
export PYTHON3=/usr/bin/python3
[ $# -ge 1 ] || { echo "usage: dtschema.sh CMD [ARG...] | --version" >&2; exit 2; }
if [ "$1" = --version ]; then
	exec dt-doc-validate --version
fi
exec "$@"
