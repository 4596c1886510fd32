"""The message scheduler for pipelined engines (seed 000 section 7), host side.

A p-stage engine holds p blocks of p different messages. The scheduler keeps up to p messages
in the engine's slots, gives each active message one block per round (so a message's next
block is due as its previous block leaves the pipeline), and refills a slot as soon as its
message ends. Used by the `rtl` bench and tests; the C library's scheduler (for the SoC
firmware) is not written yet.
"""


def round_robin(jobs, slots, blocks_of):
    """Order the blocks of `jobs` for an engine with `slots` slots.

    `blocks_of(job, slot)` returns a job's blocks tagged with `slot`. Returns (order, per_slot):
    the blocks in feeding order, and for each slot the indices of the jobs that used it, in
    order (results of a slot come back in that order)."""
    if slots < 1:
        raise ValueError("slots must be >= 1")
    pending = list(enumerate(jobs))
    active, per_slot, order = {}, {s: [] for s in range(slots)}, []
    while pending or active:
        for slot in range(slots):
            if slot not in active and pending:
                i, job = pending.pop(0)
                blocks = list(blocks_of(job, slot))
                if not blocks:
                    raise ValueError(f"job {i} has no blocks")
                active[slot] = blocks
                per_slot[slot].append(i)
        for slot in sorted(active):
            order.append(active[slot].pop(0))
            if not active[slot]:
                del active[slot]
    return order, per_slot
