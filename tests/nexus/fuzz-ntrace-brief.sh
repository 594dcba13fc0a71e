#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The N-Trace decoder fuzzer, briefly (FUZZ_BRIEF_SECONDS, default 20):
# any sanitizer report, crash or broken invariant fails the check.  The
# corpus lives in $O and grows from run to run; it starts from encoded
# traces of the fuzzer's own code (gen-seeds).
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/../fuzz-brief-run.sh"
O=${O:-build}
fuzzer=$O/tests/nexus/fuzz-decode
fuzz_brief_skip_unless "$fuzzer" "N-Trace decoder fuzzer"
corpus=$O/tests/nexus/fuzz-corpus
mkdir -p "$corpus"
"$O/tests/nexus/gen-seeds" "$corpus"
ok $? "seed traces written"
fuzz_brief_run "N-Trace decoder fuzzer" "every invariant holds" \
	"$fuzzer" "$corpus" "$O/tests/nexus"
tap_done
