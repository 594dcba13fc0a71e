#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# sparse (make C=2) reports nothing for the driver's files, built out of
# tree against the guest kernel's configuration (TAP).  Skips until the
# guest kernel has been built, or when sparse is not installed.
cd "$(dirname "$0")/../.." || exit 1
. tests/tap.sh
. linux-driver/tests/kbuild.sh

kbuild_skip_unless_ready
command -v sparse >/dev/null ||
	exec scripts/tap-skip "sparse not installed (Debian package sparse; 'make deps')"
kbuild_prepare
ok $? "modules_prepare of the guest configuration with CONFIG_MODULES=y"
[ -f "$kb_out/.prepared" ] || { diag "$(tail -20 "$kb_out.err" 2>/dev/null)"; tap_done; exit 1; }

# Debian's sparse 0.6.4 dies on the ISA extensions in the kernel's
# -march (e.g. rv64imac_zicsr_zifencei); it only needs the base ISA, so a
# wrapper passes -march without the _z* extensions.
wrap=$(mktemp)
cat >"$wrap" <<'WRAP'
#!/bin/bash
args=()
for a in "$@"; do
	case $a in -march=*) a=${a%%_*} ;; esac
	args+=("$a")
done
exec sparse "${args[@]}"
WRAP
chmod +x "$wrap"
kbuild_driver C=2 CHECK="$wrap"
rm -f "$wrap"
ok $? "make M=linux-driver C=2 modules"
[ "$(grep -c '^  CHECK ' "$kb_log")" -ge 2 ]
ok $? "sparse ran on the driver's files"
warn=$(grep -E 'warning:|error:' "$kb_log" | grep -v '^WARNING: modpost' | grep -F "$kb_src/")
[ -z "$warn" ]
ok $? "sparse: no warning in the driver's files"
[ -z "$warn" ] || diag "$warn"
tap_done
exit $?
