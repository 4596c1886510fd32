#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Python-level register accesses per `litedigest.new(alg, msg, backend="pynq").digest()`.

Runs on the simulated SoC behind the PYNQ adapters (litedigest.board.sim: SimMMIO, whose
read/write stand for pynq.MMIO.read/write, each a Python call on the board) and counts:

- after: the C library's driver (this checkout) with the register HAL on Python callbacks,
  as with SimMMIO; on a board, pynq.MMIO exposes its mapped window and the same accesses are
  C loads and stores, so the Python-level count there is 0 (tests/board/test_pynq_window.py checks
  that no mmio.read/write happens);
- before: the Python driver this project had until the C host protocol replaced it
  (litedigest/driver.py at commit 3aa1c16, read from the repository's history with `git
  show`), driven the way its hash objects drove it: one `compress` of the message's blocks
  and the padded tail (a message under 16 KiB is one call).

Also prints the other Python calls of the C path (DMA staging copies and buffer flushes).

    .venv/bin/python scripts/pynq_register_accesses.py [--sizes 0,64,1000,16000]
"""

import argparse
import hashlib
import os
import subprocess
import sys
import types

BEFORE_COMMIT = "3aa1c16"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def old_driver():
    src = subprocess.run(
        ["git", "-C", ROOT, "show", f"{BEFORE_COMMIT}:software/python/litedigest/driver.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    mod = types.ModuleType("litedigest_driver_3aa1c16")
    exec(compile(src, "driver.py@" + BEFORE_COMMIT, "exec"), mod.__dict__)
    return mod


def md_pad(tail, total, bs):
    lenbytes = bs // 8
    zeros = (bs - lenbytes - 1 - len(tail)) % bs
    return tail + b"\x80" + bytes(zeros) + (8 * total).to_bytes(lenbytes, "big")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="0,64,1000,16000")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]

    import litedigest
    from litedigest.backends import pynq as pynq_backend
    from litedigest.board.sim import open_sim_device

    dev = open_sim_device()
    pynq_backend.use_device(dev)
    counts = {"reg": 0}
    mmio = dev.mmio
    read, write = mmio.read, mmio.write

    def counted_read(off):
        counts["reg"] += 1
        return read(off)

    def counted_write(off, v):
        counts["reg"] += 1
        return write(off, v)

    mmio.read, mmio.write = counted_read, counted_write
    drv = old_driver()
    inst = dev.instance_for("sha256")
    fields = drv.parse_csr_fields(dev.regmap.csr_h, inst)
    old = drv.HashPeripheral(
        dev.read32,
        dev.write32,
        dev.write_bytes,
        registers=dev.regmap.registers,
        fields=fields,
        instance=inst,
        dma_buffer=(dev.buffer.physical_address, dev.buffer_bytes),
    )
    try:
        print(
            "| bytes | before: Python driver (3aa1c16) | after: C driver, Python HAL (simulation) "
            "| after: C driver on a board's MMIO window "
            "| other Python calls after (staging copies + flushes) |"
        )
        print("|---|---|---|---|---|")
        for n in sizes:
            msg = os.urandom(n)
            ref = hashlib.sha256(msg).digest()
            whole = n - n % 64
            counts["reg"] = 0
            assert old.compress(msg[:whole] + md_pad(msg[whole:], n, 64), variant=0) == ref
            before = counts["reg"]
            hw = dev.peripheral(inst)
            calls = {"dma_write": 0}
            saved = hw._binding

            def counted_dma_write(a, d, _dw=saved.dma_write, calls=calls):
                calls["dma_write"] += 1
                return _dw(a, d)

            hw._binding = saved._replace(dma_write=counted_dma_write)
            counts["reg"] = 0
            flushes = dev.flushes
            try:
                assert litedigest.new("sha256", msg, backend="pynq").digest() == ref
            finally:
                hw._binding = saved
            after = counts["reg"]
            print(
                f"| {n} | {before} | {after} | 0 | {calls['dma_write'] + dev.flushes - flushes} |"
            )
    finally:
        mmio.read, mmio.write = read, write
        dev.close_sim()
    return 0


if __name__ == "__main__":
    sys.exit(main())
