#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""gdb-empty-step.py - a stand-in for qemu-system-riscv64 in `rvperf tv verify
--qemu`: runs the real QEMU (REAL_QEMU) behind a gdbstub relay that answers
the EMPTY_STEP-th single step ("s") itself with a stop reply, without passing
it on: QEMU stepped nothing, yet says it did.  QEMU 7.2 does that now and
then when its own timer interrupt is pending while it steps with interrupts
masked (seen in tests/tv/tandem-test.sh about once in 200 verifies); this
makes it happen at a known step.

Only system mode (-gdb unix:PATH,server=on,wait=off), in no-ack mode after
the client asked for it, as rvperf tv verify does.
"""
import os
import selectors
import socket
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    real = os.environ.get("REAL_QEMU", "qemu-system-riscv64")
    empty_at = int(os.environ.get("EMPTY_STEP", "50"))
    i = args.index("-gdb")
    spec = args[i + 1]
    path = spec[len("unix:"):].split(",", 1)[0]
    inner = path + ".real"
    args[i + 1] = spec.replace(path, inner, 1)
    qemu = subprocess.Popen([real] + args)

    lsock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    lsock.bind(path)
    lsock.listen(1)
    client, _ = lsock.accept()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for _ in range(3000):
        try:
            server.connect(inner)
            break
        except OSError:
            if qemu.poll() is not None:
                return qemu.returncode
            time.sleep(0.01)

    steps = 0
    pending = b""
    fake = b"$T05thread:01;#" + b"%02x" % (sum(b"T05thread:01;") & 0xff)
    socks = [client, server]
    sel = selectors.DefaultSelector()
    sel.register(client, selectors.EVENT_READ)
    sel.register(server, selectors.EVENT_READ)
    while True:
        for key, _ in sel.select():
            data = key.fileobj.recv(65536)
            if not data:
                for s in socks:
                    s.close()
                rc = qemu.wait()
                # QEMU 7.2 leaves its socket; verify removes only its own.
                os.unlink(inner)
                return rc
            if key.fileobj is server:
                client.sendall(data)
                continue
            # Client to QEMU: whole packets, so that one "s" can be held.
            pending += data
            out = b""
            while True:
                start = pending.find(b"$")
                if start < 0:
                    out += pending
                    pending = b""
                    break
                end = pending.find(b"#", start)
                if end < 0 or len(pending) < end + 3:
                    out += pending[:start]
                    pending = pending[start:]
                    break
                out += pending[:start]
                pkt = pending[start:end + 3]
                pending = pending[end + 3:]
                if pkt[1:end - start] == b"s":
                    steps += 1
                    if steps == empty_at:
                        client.sendall(fake)
                        continue
                out += pkt
            if out:
                server.sendall(out)


if __name__ == "__main__":
    sys.exit(main())
