# SPDX-License-Identifier: BSD-2-Clause
"""The message scheduler for pipelined engines (Michail et al. 2016, sec. 7), host side.

The policy is the C library's (ld_sched.h: ld_sched_init/next/complete, the same code the SoC
firmware runs over the CSR and DMA paths), called through cffi (litedigest._clib.sched_order):
it keeps up to p messages in the engine's slots, gives a message its next block only once its
previous block is back, and refills a slot as soon as its message ends. Here its jobs become
the block order fed to an engine in simulation (the rtl bench and tests); the engine completes
blocks in issue order, as the policy's executor assumes.
"""

from litedigest import _clib as native


def round_robin(jobs, slots, blocks_of):
    """Order the blocks of `jobs` for an engine with `slots` slots.

    `blocks_of(job, slot)` returns a job's blocks tagged with `slot`. Returns (order, per_slot):
    the blocks in feeding order, and for each slot the indices of the jobs that used it, in
    order (results of a slot come back in that order)."""
    if slots < 1:
        raise ValueError("slots must be >= 1")
    counts = [len(blocks_of(job, 0)) for job in jobs]
    if any(n == 0 for n in counts):
        raise ValueError(f"job {counts.index(0)} has no blocks")
    # The policy derives a message's blocks from its length and padding; it needs nothing but
    # their number, and a SHA-256 message of 64 (n - 1) bytes pads to exactly n blocks.
    plan = native.sched_order([64 * (n - 1) for n in counts], "sha256", slots)
    per_slot = {s: [] for s in range(slots)}
    current, order = {}, []
    for job in plan:
        if job.first_block == 0:
            current[job.slot] = blocks_of(jobs[job.msg], job.slot)
            per_slot[job.slot].append(job.msg)
        order.extend(current[job.slot][job.first_block : job.first_block + job.nblocks])
    return order, per_slot
