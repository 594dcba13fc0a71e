# SPDX-License-Identifier: BSD-2-Clause
# tests/qemu: ctr-sim scenarios replayed as bare-metal guest code on a QEMU
# patched with qemu-model/qemu, and the model's own guest checks.  E2e
# tiers: need QEMU=..., SKIP without.
# events-gen.sh: the replay's generator, guest builds and ctr-sim sequences
# without QEMU (make check).
HOST_TESTS += tests/qemu/events-gen.sh
E2E_QEMU_TIERS := 'e2e-qemu-ctr=env QEMU=$(QEMU) tests/qemu/replay.sh' \
	'e2e-qemu-gating=env QEMU=$(QEMU) tests/qemu/gating.sh'
E2E_QEMU_TIERS += 'e2e-qemu-cycles=env QEMU=$(QEMU) O=$(O) tests/qemu/cycles.sh'
E2E_QEMU_TIERS += 'e2e-qemu-events=env QEMU=$(QEMU) O=$(O) tests/qemu/events.sh'
E2E_QEMU_TIERS += 'e2e-qemu-migrate=env QEMU=$(QEMU) tests/qemu/migrate.sh'
# bench-qemu: CTR off / disabled / recording, ours against upstream 10.2's
# CTR (make bench QEMU=<patched> QEMU_UPSTREAM=<unmodified>; SKIPPED
# without them).
BENCHES += tests/bench/bench-qemu.sh
E2E_QEMU_TIERS += 'e2e-qemu-pmu=env QEMU=$(QEMU) tests/qemu/pmu.sh'
E2E_QEMU_TIERS += 'e2e-qemu-buffered=env QEMU=$(QEMU) tests/qemu/buffered.sh'
E2E_QEMU_TIERS += 'e2e-qemu-stateen=env QEMU=$(QEMU) tests/qemu/stateen.sh'
