# SPDX-License-Identifier: BSD-2-Clause
"""NIST CAVP SHA test vectors (and the HMAC RFCs') from the installed `cryptography_vectors`.

    load_cavp("SHA256ShortMsg") -> [(msg_bytes, md_bytes), ...]   (also LongMsg, SHA224...)
    load_monte("SHA256Monte")   -> (seed_bytes, [md_bytes, ...])

and what the hash tests feed besides: padding_lengths(block size) (the lengths at the padding
boundaries), fed_in_random_steps (a message in random update splits), copies_diverge (copies
taken part-way through a message, each going its own way).

`name` may carry the .rsp suffix or not. CAVP byte-oriented files list Len in bits; a Len = 0
entry carries Msg = 00, which means the empty message.
"""

import os

import cryptography_vectors

_SHA2 = os.path.join(os.path.dirname(cryptography_vectors.__file__), "hashes", "SHA2")


def _path(name):
    if not name.endswith(".rsp"):
        name += ".rsp"
    # SHA-1 files live in hashes/SHA1, the SHA-2 family's in hashes/SHA2
    folder = os.path.join(os.path.dirname(_SHA2), "SHA1") if name.startswith("SHA1") else _SHA2
    return os.path.join(folder, name)


def _records(name):
    rec = {}
    with open(_path(name)) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#") or line.startswith("["):
                if rec:
                    yield rec
                    rec = {}
                continue
            key, _, value = line.partition("=")
            rec[key.strip()] = value.strip()
    if rec:
        yield rec


def load_cavp(name):
    out = []
    for rec in _records(name):
        if "Len" not in rec:
            continue
        nbits = int(rec["Len"])
        if nbits % 8:
            raise ValueError(f"{name}: bit-oriented message length {nbits}")
        msg = bytes.fromhex(rec["Msg"])[: nbits // 8]
        out.append((msg, bytes.fromhex(rec["MD"])))
    if not out:
        raise ValueError(f"{name}: no vectors")
    return out


def load_monte(name):
    seed, mds = None, []
    for rec in _records(name):
        if "Seed" in rec:
            seed = bytes.fromhex(rec["Seed"])
        if "MD" in rec:
            mds.append(bytes.fromhex(rec["MD"]))
    if seed is None or not mds:
        raise ValueError(f"{name}: no Monte Carlo data")
    return seed, mds


def monte_check(hash_fn, seed, mds, iterations=None):
    """Run the CAVP SHA-2 Monte Carlo procedure with hash_fn(bytes) -> bytes; compare against
    the first `iterations` checkpoints (all by default). Returns the number checked."""
    n = len(mds) if iterations is None else min(iterations, len(mds))
    md = seed
    for j in range(n):
        m0 = m1 = m2 = md
        for _ in range(1000):
            mi = m0 + m1 + m2
            m0, m1, m2 = m1, m2, hash_fn(mi)
        md = m2
        if md != mds[j]:
            raise AssertionError(f"Monte Carlo checkpoint {j}: {md.hex()} != {mds[j].hex()}")
    return n


def padding_lengths(bs):
    """The message lengths (bytes) at the padding boundaries of a Merkle-Damgard hash of
    block size `bs`: empty, a partial word, the 0x80 byte and the length field just fitting
    in the last block (bs - lb - 1), the length field pushed into a block of its own
    (bs - lb, bs - 1), one and two blocks exactly and a byte either side."""
    lb = bs // 8  # the length field's bytes
    return {0, 3, bs - lb - 1, bs - lb, bs - 1, bs, bs + 1, 2 * bs - lb - 1, 2 * bs - lb, 2 * bs}


def fed_in_random_steps(ctx, msg, rng, maxstep):
    """ctx.final() after `msg` went to ctx.update() in random steps of 0 to `maxstep` bytes
    (0: an empty update)."""
    pos = 0
    while pos < len(msg):
        step = rng.randint(0, maxstep)
        ctx.update(msg[pos : pos + step])
        pos += step
    return ctx.final()


def copies_diverge(ctx, ref, rng, rounds, finish):
    """Feed `ctx` and the reference `ref` (hashlib/hmac) the same random chunks; after each, a
    copy of each takes another random tail: the copies' `finish(copy)` must equal the
    reference copy's digest while the originals go on unaffected."""
    for _ in range(rounds):
        chunk = rng.randbytes(rng.randint(0, 300))
        ctx.update(chunk)
        ref.update(chunk)
        c, rc = ctx.copy(), ref.copy()
        tail = rng.randbytes(rng.randint(0, 200))
        c.update(tail)
        rc.update(tail)
        assert finish(c) == rc.digest()


# --- HMAC: RFC 2202 (SHA-1) and RFC 4231 (SHA-2) in cryptography-vectors ----------------------

HMAC_VECTOR_FILES = {
    "sha1": "rfc-2202-sha1.txt",
    "sha224": "rfc-4231-sha224.txt",
    "sha256": "rfc-4231-sha256.txt",
    "sha384": "rfc-4231-sha384.txt",
    "sha512": "rfc-4231-sha512.txt",
}


def load_hmac_vectors(alg):
    """(key, msg, mac) of the RFC's cases in cryptography-vectors' HMAC/ file for alg."""
    path = os.path.join(
        os.path.dirname(cryptography_vectors.__file__), "HMAC", HMAC_VECTOR_FILES[alg]
    )
    cases, cur = [], {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if " = " not in line or line.startswith("#"):
                continue
            k, v = (s.strip() for s in line.split(" = ", 1))
            if k in ("Key", "Msg", "MD"):
                cur[k] = bytes.fromhex(v)
            if k == "MD":
                cases.append((cur["Key"], cur["Msg"], cur["MD"]))
                cur = {}
    return cases


# --- Skein-512 golden known answers (tests/data/skein512_golden_kat.txt) -----------------------


def load_skein_kat():
    """[dict(bits, out_bits, msg, key, md, name), ...] for the Skein-512 entries (hash and
    MAC; no tree entries) of the Skein golden KAT file copied into tests/data."""
    import re

    path = os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "data", "skein512_golden_kat.txt"
    )
    out = []
    with open(path) as f:
        text = f.read()
    for chunk in text.split("--------------------------------"):
        head = re.search(
            r":Skein-512:\s+(\d+)-bit hash, msgLen =\s+(\d+) bits, data = '([^']+)'", chunk
        )
        if not head:
            continue
        out_bits, nbits, kind = int(head.group(1)), int(head.group(2)), head.group(3)

        def hexblock(label, end_labels, chunk=chunk):
            m = re.search(label + r"(.*?)(?:" + "|".join(end_labels) + ")", chunk, re.S)
            if not m:
                return b""
            body = re.sub(r"/\*.*?\*/", "", m.group(1))
            body = body.replace("(none)", "")
            return bytes.fromhex("".join(re.findall(r"\b[0-9A-F]{2}\b", body)))

        msg = hexblock(r"Message data:", [r"MAC key", r"Result:"])
        key = hexblock(r"MAC key =\s+\d+ bytes:", [r"Result:"]) if "MAC key" in chunk else b""
        md = hexblock(r"Result:", [r"$"])
        assert len(md) == (out_bits + 7) // 8, chunk
        assert len(msg) == (nbits + 7) // 8, chunk
        out.append(
            dict(
                bits=nbits,
                out_bits=out_bits,
                msg=msg,
                key=key,
                md=md,
                name=f"{out_bits}-{nbits}-{kind}",
            )
        )
    return out


def skein_kat_picks():
    """The Skein-512 KAT entries the hardware backends' tests run, of every kind: ten of
    bit lengths about the block edges and long outputs, four MACs."""
    kat = load_skein_kat()
    picks = [
        e
        for e in kat
        if e["bits"] in (0, 7, 511, 512, 513, 1024, 2047) and e["out_bits"] in (512, 1032)
    ][:10]
    picks += [e for e in kat if e["key"]][:4]
    return picks


def check_skein_kat_picks(backend):
    """skein_kat_picks() through litedigest.new on `backend`. Returns the entries checked."""
    import litedigest

    picks = skein_kat_picks()
    for e in picks:
        h = litedigest.new("skein512", digest_bits=e["out_bits"], key=e["key"], backend=backend)
        h.update_bits(e["msg"], e["bits"])
        assert h.digest() == e["md"], e["name"]
    return picks
