# SPDX-License-Identifier: BSD-2-Clause
"""SHA-512 engines (and SHA-384, SHA-512/224, SHA-512/256 through their IVs; truncation is
software's), FIPS 180-4: 64-bit words, 1024-bit blocks, 80 rounds, on the shared SHA-2 datapath.

- ``base``: one round per clock: latency 81 (80 rounds + the final addition);
- ``k5``: five rounds per clock, the partially unrolled architecture of Lien, Grembowski
  and Gaj 2004 (pre-calculated h + K + W sums, carry-save trees): latency 17.
"""

from math import isqrt

from .sha256 import SHA2Engine


def _primes(n):
    out, c = [], 2
    while len(out) < n:
        if all(c % p for p in out if p * p <= c):
            out.append(c)
        c += 1
    return out


def _icbrt(n):
    """floor(n ** (1/3)) for a big integer."""
    x = 1 << ((n.bit_length() + 2) // 3)
    while True:
        y = (2 * x + n // (x * x)) // 3
        if y >= x:
            break
        x = y
    while (x + 1) ** 3 <= n:
        x += 1
    while x**3 > n:
        x -= 1
    return x


# FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube roots of the first
# 80 primes; 5.3.5 / 5.3.4: of the square roots of the first 8 primes (SHA-512) and of the
# 9th..16th primes (SHA-384).
_P = _primes(80)
K512 = [_icbrt(p << 192) & (2**64 - 1) for p in _P]
IV512 = [isqrt(p << 128) & (2**64 - 1) for p in _P[:8]]
IV384 = [isqrt(p << 128) & (2**64 - 1) for p in _P[8:16]]
# FIPS 180-4 5.3.6 (generated there by the SHA-512/t IV generation function)
IV512_224 = [
    0x8C3D37C819544DA2,
    0x73E1996689DCD4D6,
    0x1DFAB7AE32FF9C82,
    0x679DD514582F9FCF,
    0x0F6D2B697BD44DA8,
    0x77E36F7304C48942,
    0x3F9D85A86A1D36C8,
    0x1112E6AD91D692A1,
]
IV512_256 = [
    0x22312194FC2BF72C,
    0x9F555FA3C84C64C2,
    0x2393B86B6F53B151,
    0x963877195940EABD,
    0x96283EE2A88EFFE3,
    0xBE5E1E2553863992,
    0x2B0199FC2C85B8AA,
    0x0EB72DDC81C52CA2,
]


class SHA512Engine(SHA2Engine):
    family = "sha512"
    WORD = 64
    ROUNDS = 80
    K = K512
    ROT = ((28, 34, 39), (14, 18, 41), (1, 8, 7), (19, 61, 6))
    IVS = {"sha512": IV512, "sha384": IV384, "sha512_224": IV512_224, "sha512_256": IV512_256}
    ARCHITECTURES = {"base": 1, "k5": 5}

    def __init__(self, arch="k5", slots=1, stages=1):
        super().__init__(arch, slots, stages)
