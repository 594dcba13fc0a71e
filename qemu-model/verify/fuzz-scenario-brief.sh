#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The scenario-language fuzzer, briefly (FUZZ_BRIEF_SECONDS, default 20):
# a sanitizer report, crash, timeout or broken output rule fails the check.
# The corpus lives in $O and grows from run to run; it starts from the
# scenarios under tests/ctr/.
. "$(dirname "$0")/../../tests/tap.sh"
. "$(dirname "$0")/../../tests/fuzz-brief-run.sh"
O=${O:-build}
fuzzer=$O/qemu-model/fuzz-scenario
fuzz_brief_skip_unless "$fuzzer" "scenario fuzzer"
corpus=$O/qemu-model/fuzz-scenario-corpus
mkdir -p "$corpus"
for f in tests/ctr/*.scn tests/ctr/bad/*.scn; do
	[ -f "$f" ] && cp "$f" "$corpus/seed-$(basename "$f")"
done
fuzz_brief_run "scenario fuzzer" "no crash, UB or malformed error" \
	"$fuzzer" "$corpus" "$O/qemu-model" \
	-max_len=4096 -dict=qemu-model/verify/scenario.dict
tap_done
