# SPDX-License-Identifier: BSD-2-Clause
"""Building blocks shared by the hash engines: word arithmetic and the engine stream layouts.

Every engine follows the engine contract (docs/ARCHITECTURE.md): a sink of message blocks and
a source of chaining values, both LiteX stream endpoints tagged with the message's slot id.
"""

from migen import Cat, Constant, Replicate, log2_int


def rotr(x, n, width=32):
    """Rotate right by a constant (wiring only)."""
    n %= width
    return Cat(x[n:width], x[:n]) if n else x


def shr(x, n, width=32):
    """Logical shift right by a constant (wiring only)."""
    return Cat(x[n:width], Replicate(0, n))


def csa(a, b, c, width=32):
    """3:2 carry-save compression: returns (sum, carry)
    with a + b + c == sum + carry (mod 2**width).

    One full-adder delay instead of a carry-propagating adder (Michail et al. 2012, sec. 7.5)."""
    s = a ^ b ^ c
    maj = (a & b) | (a & c) | (b & c)
    return s, Cat(Constant(0, 1), maj[: width - 1])


def add_mod(*operands, width=32):
    """Sum of any number of words modulo 2**width: a carry-save tree ending in one adder.

    With two operands this is a plain adder; with three or more the operands are first compressed
    3:2 until two are left (the "CSA followed by a modulo-32 addition" of Michail et al. 2012)."""
    ops = [Constant(o, width) if isinstance(o, int) else o for o in operands]
    assert ops, "nothing to add"
    while len(ops) > 2:
        s, c = csa(ops[0], ops[1], ops[2], width)
        ops = ops[3:] + [s, c]
    if len(ops) == 1:
        return ops[0]
    return (ops[0] + ops[1])[:width]


def add_tree(*operands, width=32):
    """Sum of any number of words modulo 2**width as a balanced tree of two-operand adders
    (constants summed into one, paired with the first operand; operands are paired in order, so
    give the early ones first). For sums off the critical path: on the ECP5 a 32-bit adder is
    16 CCU2C cells, a 3:2 carry-save level 63 LUT4s, so the carry-save tree of `add_mod` costs
    more area where its speed is not needed."""
    const = sum(o for o in operands if isinstance(o, int)) % (1 << width)
    ops = [o for o in operands if not isinstance(o, int)]
    if const or not ops:  # first: it pairs with the first operand, so give the early ones first
        ops.insert(0, Constant(const, width))
    while len(ops) > 1:
        ops = [
            (ops[i] + ops[i + 1])[:width] if i + 1 < len(ops) else ops[i]
            for i in range(0, len(ops), 2)
        ]
    return ops[0]


def words(sig, n, width=32):
    """Split a packed signal into n words, word i at bits [width*i, width*(i+1))."""
    return [sig[width * i : width * (i + 1)] for i in range(n)]


def slot_bits(slots):
    return max(1, log2_int(slots, need_pow2=False))


def engine_sink_layout(block_bits, cv_bits, slots, variant_bits=1):
    """Message blocks in. `first` (the endpoint's own flag) starts from the IV of `variant`,
    `load_cv` starts from `cv`, neither continues from the slot's stored chaining value;
    `last` is carried to the result. Word i of the block is data[32*i+31:32*i]."""
    return [
        ("data", block_bits),
        ("slot", slot_bits(slots)),
        ("variant", variant_bits),
        ("load_cv", 1),
        ("cv", cv_bits),
    ]


def engine_source_layout(cv_bits, slots):
    """Chaining values out, one per block, with the block's slot and `last` flag."""
    return [
        ("digest", cv_bits),
        ("slot", slot_bits(slots)),
    ]
