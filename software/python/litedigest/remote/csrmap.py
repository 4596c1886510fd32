# SPDX-License-Identifier: BSD-2-Clause
"""The simulated SoC's register map from csr.json, and its CSRs bound to a bus.

``CSRMap.from_json(path)``: ``registers`` (name -> dict), ``constants``, ``memories``, ``bases``;
``csrmap.bind(bus)`` gives ``regs.<name>.read()/.write(v)`` over any bus with LiteX word access
(``read(addr[, n])``, ``write(addr, words)``), e.g. ``bridge.UARTBoneClient``.
"""

import json


class CSRRegister:
    """One LiteX CSR (``size`` 32-bit words, the lowest address holding the most significant)."""

    def __init__(self, bus, name, addr, size, mode):
        self._bus, self.name, self.addr, self.size, self.mode = bus, name, addr, size, mode

    def read(self):
        if self.size == 1:
            return self._bus.read(self.addr)
        value = 0
        for w in self._bus.read(self.addr, self.size):
            value = (value << 32) | w
        return value

    def write(self, value):
        words = [(value >> (32 * (self.size - 1 - i))) & 0xFFFFFFFF for i in range(self.size)]
        self._bus.write(self.addr, words)

    def __repr__(self):
        return f"<CSR {self.name} @0x{self.addr:08x} size={self.size} {self.mode}>"


class CSRMap:
    """The register map from csr.json: ``registers`` (name -> dict), ``constants``, ``memories``.

    ``constants`` also carries ``<region>_base``/``<region>_size`` for every memory region
    (e.g. ``main_ram_base``) unless csr.json defines them itself."""

    def __init__(self, doc):
        self.doc = doc
        self.registers = doc.get("csr_registers", {})
        self.bases = doc.get("csr_bases", {})
        self.memories = doc.get("memories", {})
        self.constants = dict(doc.get("constants", {}))
        for name, m in self.memories.items():
            self.constants.setdefault(f"{name}_base", m["base"])
            self.constants.setdefault(f"{name}_size", m["size"])

    @classmethod
    def from_json(cls, path):
        with open(path) as f:
            return cls(json.load(f))

    def addr(self, name):
        try:
            return self.registers[name]["addr"]
        except KeyError:
            raise KeyError(f"no CSR named {name!r} in csr.json") from None

    def bind(self, bus):
        return _BoundRegs(self, bus)


class _BoundRegs:
    def __init__(self, csrmap, bus):
        self._map, self._bus = csrmap, bus

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name):
        try:
            r = self._map.registers[name]
        except KeyError:
            raise AttributeError(f"no CSR named {name!r} in csr.json") from None
        return CSRRegister(self._bus, name, r["addr"], r["size"], r["type"])

    def __dir__(self):
        return list(self._map.registers)

    def __contains__(self, name):
        return name in self._map.registers
