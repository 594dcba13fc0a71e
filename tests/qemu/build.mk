# SPDX-License-Identifier: BSD-2-Clause
# tests/qemu: ctr-sim scenarios replayed as bare-metal guest code on a QEMU
# patched with qemu-model/qemu.  An e2e tier: needs QEMU=..., SKIPs without.
E2E_QEMU_TIERS := 'e2e-qemu-ctr=env QEMU=$(QEMU) tests/qemu/replay.sh'
