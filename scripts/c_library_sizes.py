#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Code size of the C library (software/firmware/lib) per configuration and target: builds
liblitedigest.a with lib/Makefile for each (cross compilers from the distribution) and sums
`size` over the archive's members (text = code and constants, data, bss), in bytes.

    scripts/c_library_sizes.py [--markdown] [--out DIR] [--record records/c_library_sizes.json]

The archive holds everything a configuration compiles in; a firmware links only the members
(and, with --gc-sections, the functions) it uses."""

import argparse
import os
import shutil
import subprocess
import sys

from litedigest import records

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, "software", "firmware", "lib")
# (name, compiler prefix, CFLAGS): the CPUs the library is meant for
TARGETS = [
    (
        "rv32im -Os (VexRiscv, MicroBlaze V)",
        "riscv64-unknown-elf-",
        "-march=rv32im -mabi=ilp32 -Os",
    ),
    ("Cortex-M0 -Os (Thumb)", "arm-none-eabi-", "-mcpu=cortex-m0 -mthumb -Os"),
    ("Cortex-A9 -O2 (Zynq PS, bare metal)", "arm-none-eabi-", "-mcpu=cortex-a9 -O2"),
]
SECTIONS = "-ffunction-sections -fdata-sections"
# (name, ld_config.h choices)
CONFIGS = [
    ("everything (default)", ""),
    ("no Skein-512", "LD_CONFIG_SKEIN512=0"),
    ("SHA-256 only", "LD_CONFIG_SHA1=0 LD_CONFIG_SHA512=0 LD_CONFIG_SKEIN512=0"),
    (
        "SHA-256 only, HAL inlined",
        "LD_CONFIG_SHA1=0 LD_CONFIG_SHA512=0 LD_CONFIG_SKEIN512=0 LD_CONFIG_HAL_INLINE=1",
    ),
]


def build(prefix, cflags, config, out):
    subprocess.run(
        [
            "make",
            "-s",
            "-C",
            LIB,
            f"O={out}",
            f"CC={prefix}gcc",
            f"AR={prefix}ar",
            f"CFLAGS={cflags} {SECTIONS}",
            f"CONFIG={config}",
            f"{out}/liblitedigest.a",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    r = subprocess.run(
        [f"{prefix}size", "-t", os.path.join(out, "liblitedigest.a")],
        check=True,
        capture_output=True,
        text=True,
    )
    total = [l for l in r.stdout.splitlines() if "(TOTALS)" in l][0].split()
    return {"text": int(total[0]), "data": int(total[1]), "bss": int(total[2])}


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--markdown", action="store_true", help="a README table")
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.environ.get("LITEDIGEST_BUILD") or os.path.join(ROOT, "build"), "clib-sizes"
        ),
    )
    records.add_argument(ap)
    args = ap.parse_args(argv)
    missing = sorted({p for _, p, _ in TARGETS if shutil.which(p + "gcc") is None})
    if missing:
        print(
            f"missing cross compilers: {', '.join(p + 'gcc' for p in missing)} "
            "(apt-get install gcc-riscv64-unknown-elf gcc-arm-none-eabi)",
            file=sys.stderr,
        )
        return 2
    rows = []
    for ti, (tname, prefix, cflags) in enumerate(TARGETS):
        for ci, (cname, config) in enumerate(CONFIGS):
            sz = build(prefix, cflags, config, os.path.join(args.out, f"t{ti}c{ci}"))
            rows.append((tname, cname, sz))
            if not args.markdown:
                print(
                    f"{tname:<38} {cname:<28} text {sz['text']:>6}  "
                    f"data {sz['data']:>4}  bss {sz['bss']:>4}"
                )
    if args.markdown:
        print("| configuration | " + " | ".join(t for t, _, _ in TARGETS) + " |")
        print("|---|" + "---:|" * len(TARGETS))
        for cname, _ in CONFIGS:
            cells = [f"{sz['text'] + sz['data']:,}" for t, c, sz in rows if c == cname]
            print(f"| {cname} | " + " | ".join(cells) + " |")
    records.write_if_asked(
        args,
        [dict(target=t, configuration=c, **sz) for t, c, sz in rows],
        "scripts/c_library_sizes.py",
        tools=records.tool_versions(tools=("riscv-gcc", "arm-gcc"), packages=()),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
