# SPDX-License-Identifier: BSD-2-Clause
"""Migen's simulator, faster: the design's statements compiled to Python once.

Migen 0.10's simulator interprets the statement trees on every pass: `Evaluator.eval` walks
each expression node by node, and the combinational statements are executed as a whole, pass
after pass, until no signal changes (about ten passes a cycle for the peripheral benches). A
cProfile of the SHA-512 AXI pad-jobs bench put nearly all of its time in that walk (240 M
`eval` calls for 3,505 cycles).

`install()` makes `Simulator` compile the fragment's combinational statements and each clock
domain's synchronous statements into one Python function each (generated source, `exec`),
that read and write the evaluator's own tables exactly as the interpreter does: reads of the
committed values (`signal_values`), writes into `modifications`, the same truncation, the same
passes and commits. So a simulation runs cycle for cycle as before, only each pass is a call of
straight-line code instead of a tree walk. Migen's own loop runs the simulation; the
generators' requests (reads and writes from the test benches) still go through the
interpreter, on the same tables.

Used with migen_widths by the Migen simulations (tests/conftest.py, the PYNQ subsystem model).
tests/engines/test_migen_compiled.py runs designs under both and compares every signal every cycle.
"""

from migen.fhdl.bitcontainer import value_bits_sign
from migen.fhdl.specials import _MemoryLocation
from migen.fhdl.structure import (
    Case,
    Cat,
    ClockSignal,
    Constant,
    Display,
    If,
    Replicate,
    ResetSignal,
    Signal,
    _ArrayProxy,
    _Assign,
    _Operator,
    _Part,
    _Slice,
)
from migen.sim import core

_installed = False
_MAX_DEPTH = 40  # nesting of a generated expression before it is split into temporaries

_BINARY = {
    "+": "+",
    "-": "-",
    "*": "*",
    ">>>": ">>",
    "<<<": "<<",
    "&": "&",
    "^": "^",
    "|": "|",
    "<": "<",
    "<=": "<=",
    "==": "==",
    "!=": "!=",
    ">": ">",
    ">=": ">=",
}


class _Compiler:
    """Python source for statements and expressions, with the interpreter's semantics."""

    def __init__(self, evaluator):
        self.ev = evaluator
        self.consts = {}  # name -> object the generated code refers to
        self.signals = {}  # duid -> Signal read or written by the generated code
        self.ntemp = 0

    def _const(self, obj):
        name = f"_k{len(self.consts)}"
        self.consts[name] = obj
        return name

    @staticmethod
    def _read(duid, post):
        """Source reading a signal's value by its duid (a source expression): the committed one,
        or (`post`) the one this pass has written if any."""
        return f"m.get({duid}, sv[{duid}])" if post else f"sv[{duid}]"

    def _sig(self, s, post=False):
        self.signals[s.duid] = s
        return self._read(s.duid, post)

    def _signal_table(self, signals):
        """Name of a constant tuple of the signals' duids
        (an array or memory indexed at run time)."""
        for c in signals:
            self.signals[c.duid] = c
        return self._const(tuple(c.duid for c in signals))

    def _temp(self, pre, expr):
        name = f"_t{self.ntemp}"
        self.ntemp += 1
        pre.append(f"{name} = {expr}")
        return name, 0

    def expr(self, node, pre, post=False):
        """(source, depth) of an expression; temporaries it needs are appended to `pre`."""
        src, depth = self._expr(node, pre, post)
        if depth > _MAX_DEPTH:
            return self._temp(pre, src)
        return src, depth

    def _expr(self, node, pre, post):
        if isinstance(node, Constant):
            return str(node.value), 0
        if isinstance(node, Signal):
            return self._sig(node, post), 0
        if isinstance(node, _Operator):
            ops = [self.expr(o, pre, post) for o in node.operands]
            d = 1 + max(o[1] for o in ops)
            a = ops[0][0]
            if node.op == "~":
                return f"(~{a})", d
            if node.op == "-" and len(ops) == 1:
                return f"(-{a})", d
            if node.op == "m":
                return f"({ops[1][0]} if {a} else {ops[2][0]})", d
            return f"({a} {_BINARY[node.op]} {ops[1][0]})", d
        if isinstance(node, _Slice):
            v, d = self.expr(node.value, pre, post)
            return f"(({v} >> {node.start}) & {(1 << (node.stop - node.start)) - 1})", d + 1
        if isinstance(node, _Part):
            v, d1 = self.expr(node.value, pre, post)
            o, d2 = self.expr(node.offset, pre, post)
            return f"(({v} >> {o}) & {(1 << node.width) - 1})", max(d1, d2) + 1
        if isinstance(node, Cat):
            terms, shift, depth = [], 0, 0
            for e in node.l:
                n = len(e)
                s, d = self.expr(e, pre, post)
                terms.append(
                    f"(({s} & {(1 << n) - 1}) << {shift})" if shift else f"({s} & {(1 << n) - 1})"
                )
                depth = max(depth, d + 1)
                shift += n
            if not terms:
                return "0", 0
            # a balanced tree of ORs: a long flat chain nests as deep as it is long
            while len(terms) > 1:
                terms = [
                    f"({terms[i]} | {terms[i + 1]})" if i + 1 < len(terms) else terms[i]
                    for i in range(0, len(terms), 2)
                ]
                depth += 1
            return terms[0], depth
        if isinstance(node, Replicate):
            n = len(node.v)
            v, d = self.expr(node.v, pre, post)
            pattern = sum(1 << (i * n) for i in range(node.n))
            return f"(({v} & {(1 << n) - 1}) * {pattern})", d + 1
        if isinstance(node, _ArrayProxy):
            k, d = self.expr(node.key, pre, post)
            last = len(node.choices) - 1
            if all(isinstance(c, Signal) for c in node.choices):
                table = self._signal_table(node.choices)
                return self._read(f"{table}[min({last}, {k})]", post), d + 1
            # choices that are expressions: each a function of its own, only the chosen one runs
            table = self._const(tuple(self._function(c, post) for c in node.choices))
            return f"{table}[min({last}, {k})](sv, m)", d + 1
        if isinstance(node, _MemoryLocation):
            table = self._signal_table(self.ev.replaced_memories[node.memory])
            i, d = self.expr(node.index, pre, post)
            return self._read(f"{table}[{i}]", post), d + 1
        if isinstance(node, ClockSignal):
            return self._expr(self.ev.clock_domains[node.cd].clk, pre, post)
        if isinstance(node, ResetSignal):
            rst = self.ev.clock_domains[node.cd].rst
            if rst is None:
                if node.allow_reset_less:
                    return "0", 0
                raise ValueError(f"Attempted to get reset signal of resetless domain '{node.cd}'")
            return self._expr(rst, pre, post)
        raise NotImplementedError(node)

    def _function(self, node, post):
        pre = []
        src, _ = self.expr(node, pre, post)
        body = "".join(f"    {line}\n" for line in pre)
        ns = {}
        exec(f"def f(sv, m):\n{body}    return {src}\n", dict(self.consts), ns)
        return ns["f"]

    def assign(self, target, value, out, ind):
        """Lines (into `out`, indented `ind`) that assign the source `value` to `target`."""
        pad = " " * ind
        if isinstance(target, Signal):
            self.signals[target.duid] = target
            full = 1 << target.nbits
            if target.signed:
                out.append(f"{pad}_v = ({value}) & {full - 1}")
                out.append(f"{pad}m[{target.duid}] = _v - {full} if _v & {full >> 1} else _v")
            else:
                out.append(f"{pad}m[{target.duid}] = ({value}) & {full - 1}")
            return
        name = f"_a{self.ntemp}"
        self.ntemp += 1
        out.append(f"{pad}{name} = {value}")
        if isinstance(target, Cat):
            shift = 0
            for e in target.l:
                n = len(e)
                self.assign(e, f"(({name} >> {shift}) & {(1 << n) - 1})", out, ind)
                shift += n
            return
        if isinstance(target, (_Slice, _Part)):
            pre = []
            whole, _ = self.expr(target.value, pre, post=True)
            if isinstance(target, _Slice):
                start, width = str(target.start), target.stop - target.start
            else:
                start, _ = self.expr(target.offset, pre, post=True)
                width = target.width
            out.extend(pad + line for line in pre)
            mask = (1 << width) - 1
            self.assign(
                target.value,
                f"(({whole}) & ~({mask} << {start})) | (({name} & {mask}) << {start})",
                out,
                ind,
            )
            return
        if isinstance(target, (_ArrayProxy, _MemoryLocation)):
            pre = []
            if isinstance(target, _ArrayProxy):
                choices = target.choices
                k, _ = self.expr(target.key, pre)
                index = f"min({len(choices) - 1}, {k})"
            else:
                choices = self.ev.replaced_memories[target.memory]
                index, _ = self.expr(target.index, pre)
            out.extend(pad + line for line in pre)
            out.append(f"{pad}_i = {index}")
            if all(
                isinstance(c, Signal) and not c.signed and c.nbits == choices[0].nbits
                for c in choices
            ):
                table = self._signal_table(choices)
                out.append(f"{pad}m[{table}[_i]] = {name} & {(1 << choices[0].nbits) - 1}")
                return
            out.append(
                f"{pad}if _i < 0: _i += {len(choices)}"
            )  # Python's indexing, as the interpreter's
            for j, c in enumerate(choices):
                out.append(f"{pad}{'if' if j == 0 else 'elif'} _i == {j}:")
                self.assign(c, name, out, ind + 4)
            return
        raise NotImplementedError(target)

    def statements(self, stmts, out, ind):
        pad = " " * ind
        start = len(out)
        for s in stmts:
            if isinstance(s, _Assign):
                pre = []
                v, _ = self.expr(s.r, pre)
                out.extend(pad + line for line in pre)
                self.assign(s.l, v, out, ind)
            elif isinstance(s, If):
                pre = []
                c, _ = self.expr(s.cond, pre)
                out.extend(pad + line for line in pre)
                out.append(f"{pad}if ({c}) & {(1 << len(s.cond)) - 1}:")
                self.statements(s.t, out, ind + 4)
                if s.f:
                    out.append(f"{pad}else:")
                    self.statements(s.f, out, ind + 4)
            elif isinstance(s, Case):
                nbits, signed = value_bits_sign(s.test)
                pre = []
                t, _ = self.expr(s.test, pre)
                out.extend(pad + line for line in pre)
                out.append(f"{pad}_c = ({t}) & {(1 << nbits) - 1}")
                if signed:
                    out.append(f"{pad}_c = _c - {1 << nbits} if _c & {1 << (nbits - 1)} else _c")
                first = True
                seen = set()
                for k, body in s.cases.items():
                    if not isinstance(k, Constant) or k.value in seen:
                        continue  # the interpreter takes the first key equal to the test
                    seen.add(k.value)
                    out.append(f"{pad}{'if' if first else 'elif'} _c == {k.value}:")
                    self.statements(body, out, ind + 4)
                    first = False
                if "default" in s.cases:
                    if first:
                        self.statements(s.cases["default"], out, ind)
                    else:
                        out.append(f"{pad}else:")
                        self.statements(s.cases["default"], out, ind + 4)
            elif isinstance(s, Display):
                out.append(f"{pad}{self._const(self._display(s))}(sv)")
            elif isinstance(s, (list, tuple)):
                self.statements(s, out, ind)
            else:
                raise NotImplementedError(s)
        if len(out) == start:
            out.append(f"{pad}pass")

    @staticmethod
    def _display(s):
        def show(sv):
            print(
                s.s
                % tuple(arg.reset.value if sv[arg.duid] is None else sv[arg.duid] for arg in s.args)
            )

        return show

    def function(self, stmts, name):
        out = []
        self.statements(stmts, out, 4)
        src = f"def {name}(sv, m):\n" + "\n".join(out) + "\n"
        ns = {}
        exec(compile(src, f"<migen_compiled {name}>", "exec"), dict(self.consts), ns)
        return ns[name]


def compile_simulator(sim):
    """Compile `sim`'s (a migen.sim.Simulator) statements and make its evaluator run them: the
    simulator's own loop stays Migen's, its `execute` of the comb list or of a domain's sync
    list calls the compiled function, of anything else (a generator's statement) interprets."""
    ev = sim.evaluator
    c = _Compiler(ev)
    compiled = {id(sim.fragment.comb): c.function(sim.fragment.comb, "comb")}
    for cd, stmts in sim.fragment.sync.items():
        compiled[id(stmts)] = c.function(stmts, f"sync_{cd}")
    # the generated code reads a table entry as the value: give every signal it touches its
    # reset value where the interpreter would have read None as the reset value
    sv = ev.signal_values
    for duid, s in c.signals.items():
        if duid >= len(sv):
            sv.extend([None] * (duid + 1 - len(sv)))
        if sv[duid] is None:
            sv[duid] = s.reset.value
    interpret, m = ev.execute, ev.modifications

    def execute(statements):
        f = compiled.get(id(statements))
        if f is None:
            interpret(statements)
        else:
            f(sv, m)

    ev.execute = execute


def _init(self, *args, **kwargs):
    _interpreted_init(self, *args, **kwargs)
    compile_simulator(self)


_interpreted_init = core.Simulator.__init__


def install():
    """Make migen.sim.Simulator run compiled statements (idempotent)."""
    global _installed
    if not _installed:
        core.Simulator.__init__ = _init
        _installed = True
