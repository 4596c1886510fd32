# SPDX-License-Identifier: BSD-2-Clause
"""The targets' command line, written once, in LiteX's style (litex/soc/integration/builder.py
`builder_args`/`builder_argdict`, soc_core.py `soc_core_args`): a target's `add_arguments`
calls `soc_args` (what its SoC is made of) and a builder's arguments, and its `main` is
`main(description, add_arguments, build)`. The same options serve `litedigest build <board>`
(litedigest.cli.build: a subparser per target) and `python -m litedigest.soc.targets.<board>`.
"""

import argparse


def soc_args(parser, engines_help, metavar="SPECS", main_ram_help=None, main_ram_default=None):
    """--hash-engine (engine specs, comma-separated; `engines_help` says what None gives) and,
    with `main_ram_default`, --main-ram-size (bytes, any base Python reads)."""
    parser.add_argument("--hash-engine", default=None, metavar=metavar, help=engines_help)
    if main_ram_default is not None:
        parser.add_argument(
            "--main-ram-size",
            type=lambda s: int(s, 0),
            default=main_ram_default,
            help=main_ram_help,
        )


def vivado_builder_args(parser, board):
    """The options of a Vivado board's build (builder.run_vivado): where, which checks, Vivado's
    jobs, the manifest, the report."""
    parser.add_argument(
        "--output-dir", default=None, help=f"build directory (default: build/{board}/<engines>)"
    )
    parser.add_argument(
        "--no-synth",
        action="store_true",
        help="skip Yosys synth_xilinx (the full engine set takes minutes)",
    )
    parser.add_argument("--no-lint", action="store_true", help="skip the Verilator lint")
    parser.add_argument(
        "--no-vivado",
        action="store_true",
        help="do not run Vivado even when it is on PATH (write the TCL only)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="Vivado implementation jobs")
    parser.add_argument(
        "--nice", type=int, default=10, help="niceness of the Yosys run (default 10)"
    )
    parser.add_argument(
        "--force", action="store_true", help="regenerate and resynthesize even if cached"
    )
    parser.add_argument(
        "--manifest",
        default=None,
        metavar="PATH",
        help=f"also write the manifest here (bitstreams/{board}/manifest.json)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def vivado_builder_argdict(args):
    """The keyword arguments of a Vivado board's `run` from its parsed options."""
    return dict(
        engines=args.hash_engine,
        output_dir=args.output_dir,
        synth=not args.no_synth,
        lint=not args.no_lint,
        vivado=not args.no_vivado,
        jobs=args.jobs,
        niceness=args.nice,
        force=args.force,
        manifest_path=args.manifest,
    )


# The options a Vivado board's manifest records in its recipe, with the values that leave
# them out (the others: output directory, checks skipped, jobs, cache, report format, do not
# change what is built)
VIVADO_RECIPE = (("hash_engine", (None, "")), ("no_synth", (False,)), ("manifest", (None, "")))


def recipe(board, args, options):
    """The `litedigest build <board> ...` line a manifest records: the `options` ((dest, the
    values that leave it out), in order) set in `args`; a flag alone when True."""
    cmd = f"litedigest build {board}"
    for dest, omitted in options:
        value = getattr(args, dest, omitted[0])
        if value in omitted:
            continue
        flag = "--" + dest.replace("_", "-")
        cmd += f" {flag}" if value is True else f" {flag} {value}"
    return cmd


def main(description, add_arguments, build, argv=None):
    """A target run as a module: its options, then its build. Returns the exit status."""
    parser = argparse.ArgumentParser(description=description)
    add_arguments(parser)
    return build(parser.parse_args(argv))
