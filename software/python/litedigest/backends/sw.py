# SPDX-License-Identifier: BSD-2-Clause
"""The `sw` backend: the C library's software hashes on the host (ld_md.h, ld_skein.h) through
cffi. The engine architecture in a spec is meaningless here and ignored."""

from litedigest import _clib as native
from litedigest.backends import Backend


class SwBackend(Backend):
    name = "sw"

    def md_context(self, spec):
        return native.MdCtx(spec.algorithm)

    def skein_context(self, spec, digest_bits, key):
        return native.Skein512Ctx(digest_bits, key)


def open_backend(engine=None):
    return SwBackend()
