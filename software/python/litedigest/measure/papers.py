# SPDX-License-Identifier: BSD-2-Clause
"""The papers' own numbers: what litedigest.measure.design_space sets our measurements against.

Transcribed from the papers, units as printed. A value the paper shows only as a plot (no
number in the text or a table) is None, and so is a cell the paper leaves empty (a design that
did not fit the device). Every `Table` names its paper (authors, title, year), the table or
figure, the devices and the tool, and carries a docstring (`doc`); `notes` record what looked
wrong or ambiguous in the source. Only the standard library is used.

Row fields, where a table has them:
- design: the paper's name for the design; spec: our engine spec for the same architecture;
- device: a key of the table's `devices`;
- freq_mhz: the clock frequency the paper prints (MHz);
- area: the area in the table's `units["area"]` (Virtex slices, thousands of slices, CLBs);
- throughput: in `units["throughput"]` (Gbit/s or Mbit/s, as printed);
- cycles: clock cycles per block that the paper's throughput equation uses (its #cycles:
  between successive digests of a full pipeline), from the paper's text;
- tpa: throughput/area as the paper prints it (None where it is only plotted);
- further fields are described in the table's `units`.

`Claim`s are improvement ratios the papers state in their text ("+110% throughput for +35%
area"), kept as printed (a percentage change or a factor).
"""

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Paper:
    key: str
    authors: tuple
    title: str
    venue: str
    year: int
    note: str = ""

    @property
    def short(self):
        """ "Michail et al. 2016" (two or fewer authors: "Lien, Grembowski, Gaj 2004")."""
        surnames = [a.split()[-1] for a in self.authors]
        who = ", ".join(surnames) if len(surnames) <= 3 else f"{surnames[0]} et al."
        return f"{who} {self.year}"

    @property
    def citation(self):
        return f'{", ".join(self.authors)}, "{self.title}", {self.venue}, {self.year}'


@dataclass(frozen=True)
class Table:
    key: str
    paper: Paper
    source: str  # the table or figure ("Fig. 8")
    doc: str  # the table's docstring: paper, table/figure, device, tool
    devices: dict  # device key -> the device as the paper names it
    tool: str
    units: dict  # row field -> its unit / meaning as printed
    rows: tuple  # dicts
    notes: tuple = ()

    def row(self, design=None, device=None, **match):
        """The one row with these field values (KeyError if none, ValueError if several)."""
        if design is not None:
            match["design"] = design
        if device is not None:
            match["device"] = device
        got = [r for r in self.rows if all(r.get(k) == v for k, v in match.items())]
        if not got:
            raise KeyError(f"{self.key}: no row with {match}")
        if len(got) > 1:
            raise ValueError(f"{self.key}: {len(got)} rows with {match}")
        return got[0]


@dataclass(frozen=True)
class Claim:
    """An improvement the paper states in words: `metric` ("throughput", "area",
    "throughput/area", "frequency") of `design` against `baseline`, `value` in `unit` ("%":
    the change as printed, +35 for "35% area increase"; "x": a factor), on `device` (None when
    the paper does not say), with the words it is taken from."""

    paper: Paper
    source: str
    metric: str
    design: str
    baseline: str
    value: float
    unit: str
    device: str = None
    quote: str = ""
    spec: str = None  # our spec for `design` ("pN": the claim holds for every p)
    base_spec: str = None  # and for `baseline`

    @property
    def factor(self):
        """The ratio design / baseline (None for an absolute value)."""
        if self.unit == "%":
            return 1 + self.value / 100
        return self.value if self.unit == "x" else None


def _and_again(claim, quote="(the same sentence)", **changed):
    """`claim` and the second figure its words state: the same Claim but for `changed`."""
    return claim, replace(claim, quote=quote, **changed)


# ------------------------------------------------------------------------------------ papers
MICHAIL_2016 = Paper(
    "michail2016",
    (
        "H. E. Michail",
        "G. S. Athanasiou",
        "V. I. Kelefouras",
        "G. Theodoridis",
        "T. Stouraitis",
        "C. E. Goutis",
    ),
    "Area-throughput trade-offs for SHA-1 and SHA-256 hash functions' pipelined designs",
    "Journal of Circuits, Systems, and Computers 25(4), 1650032",
    2016,
)
MICHAIL_2012 = Paper(
    "michail2012",
    ("H. E. Michail", "G. S. Athanasiou", "V. Kelefouras", "G. Theodoridis", "C. E. Goutis"),
    "On the exploitation of a high-throughput SHA-256 FPGA design for HMAC",
    "ACM Transactions on Reconfigurable Technology and Systems 5(1), article 2",
    2012,
)
MICHAIL_2010 = Paper(
    "michail2010",
    (
        "H. E. Michail",
        "G. S. Athanasiou",
        "A. Kritikakou",
        "C. E. Goutis",
        "A. Gregoriades",
        "V. Papadopoulou",
    ),
    "Ultra high speed SHA-256 hashing cryptographic module for IPsec hardware/software codesign",
    "International Conference on Security and Cryptography (SECRYPT)",
    2010,
    note="the copy used prints neither the venue nor the year; both are from the publisher's "
    "(SciTePress) listing of the paper",
)
LIEN_2004 = Paper(
    "lien2004",
    ("R. Lien", "T. Grembowski", "K. Gaj"),
    "A 1 Gbit/s partially unrolled architecture of hash functions SHA-1 and SHA-512",
    "CT-RSA 2004, LNCS 2964",
    2004,
)
ATHANASIOU_2013 = Paper(
    "athanasiou2013",
    ("G. S. Athanasiou", "E. Tsingkas", "H. E. Michail", "G. Theodoridis", "C. E. Goutis"),
    "Throughput/area trade-offs of loop-unrolling, functional, and structural pipeline for "
    "Skein hash function",
    "Computer Science & Engineering: An International Journal (CSEIJ) 3(1)",
    2013,
)

PAPERS = {p.key: p for p in (MICHAIL_2016, MICHAIL_2012, MICHAIL_2010, LIEN_2004, ATHANASIOU_2013)}


# ------------------------------------------------- Michail et al. 2016, Figs. 8-11 (pipelines)
M16_DEVICES = {
    "V": "Virtex xcv1000-6FG680",
    "V-E": "Virtex-E xcv3200e-8FG1156",
    "V-II": "Virtex-II xc2v6000 FF1517 (speed grade: see notes)",
    "V-4": "Virtex-4 xc4vlx100-12FF1148",
}
M16_DEVICE_ORDER = ("V", "V-E", "V-II", "V-4")
M16_TOOL = (
    "Xilinx ISE 13.1, XST (opt_level High, opt_mode Speed); frequencies measured after "
    "downloading the designs to development boards"
)
M16_UNITS = {
    "freq_mhz": "MHz (Freq.)",
    "area": "slices x 10^3 (Slices (x10^3))",
    "util_pct": "% of the device's slices (the parenthesis after the slices)",
    "throughput": "Gbit/s (Throughput (Gbps))",
    "tpa": "Gbit/s per 10^3 slices: Figs. 12-15 plot it, no numbers printed (None)",
    "cycles": "clock cycles between successive digests, eq. 3's #cycles: 80 (SHA-1 base), 64 "
    "(SHA-256 base), 40 (SHA-1 opt), 32 (SHA-256 opt) iterations over p stages "
    "(secs. 4.1, 4.2, 5)",
    "p": "pipeline stages",
}
M16_NOTES = (
    "The text (sec. 5) gives xc2v6000-6 for SHA-1 and xc2v6000-5 for SHA-256; the figure "
    "headers say V-II (-5) for the SHA-1 figures (8, 10) and (-6) for the SHA-256 ones (9, 11).",
    "Some frequency rows are identical as printed: SHA-1 opt p2/p5/p10 and p4/p8, SHA-256 base "
    "p2/p4 (except Virtex-4), SHA-256 opt p2/p4.",
    "Fig. 8, SHA1base-p40 on Virtex-4: the utilization is printed '17.56 36(%)' (read as 36%).",
    "Sec. 6.1 quotes the SHA1base-p80 Virtex-4 design at 31,420 slices; Fig. 8 prints 31.70 x 10^3 "
    "(31.42 x 10^3 is SHA256base-p64 on Virtex-4 in Fig. 9).",
    "Every throughput cell equals 512 x f / cycles within the printed rounding.",
)


def _cell(text):
    """A grid's cell as printed: a number (int or float, as written), "-" (empty) None."""
    if text == "-":
        return None
    return float(text) if "." in text else int(text)


def _rows(fields, *cells):
    """Row dicts from a table's rows as printed: `fields` (space-separated) names the cells of
    each tuple of `cells`, in order."""
    names = fields.split()
    return tuple(dict(zip(names, row, strict=True)) for row in cells)


def _m16_rows(family, arch, iterations, grid):
    """Rows from the figure's grid as printed, a line per p: p, then four columns each of the
    frequency (MHz), the slices (x 10^3), the utilization (%) and the throughput (Gbit/s), in
    the device order V, V-E, V-II, V-4; "-" for an empty cell."""
    n = len(M16_DEVICE_ORDER)
    rows = []
    for line in grid.strip().splitlines():
        p, *cells = (_cell(c) for c in line.split())
        freq, area, util, tput = (cells[k * n : (k + 1) * n] for k in range(4))
        for i, dev in enumerate(M16_DEVICE_ORDER):
            if freq[i] is None:
                continue
            rows.append(
                {
                    "design": f"{family.upper()}{arch}-p{p}",
                    "spec": f"{family}:{arch}:p{p}",
                    "family": family,
                    "arch": arch,
                    "p": p,
                    "device": dev,
                    "freq_mhz": freq[i],
                    "area": area[i],
                    "util_pct": util[i],
                    "throughput": tput[i],
                    "tpa": None,
                    "cycles": iterations // p if iterations % p == 0 else iterations / p,
                }
            )
    return tuple(rows)


M16_CITE = (
    'Michail, Athanasiou, Kelefouras, Theodoridis, Stouraitis, Goutis, "Area-throughput '
    "trade-offs for SHA-1 and SHA-256 hash functions' pipelined designs\", 2016"
)


def _m16_table(fig, what, family, arch, iterations, grid):
    """The Table of one of Figs. 8-11 (`what`: the design and its p range), its rows from the
    figure's `grid` (_m16_rows)."""
    return Table(
        f"michail2016_{family}_{arch}",
        MICHAIL_2016,
        fig,
        f"{M16_CITE}, {fig} ({what}): frequency, slices, throughput on Virtex, Virtex-E, "
        "Virtex-II and Virtex-4, Xilinx ISE 13.1 XST.",
        M16_DEVICES,
        M16_TOOL,
        M16_UNITS,
        _m16_rows(family, arch, iterations, grid),
        M16_NOTES,
    )


M16_SHA1_BASE = _m16_table(
    "Fig. 8",
    "SHA-1 base architecture, p = 1..80 pipeline stages",
    "sha1",
    "base",
    80,
    #  p  Freq (MHz) V, V-E, V-II, V-4  Slices (x10^3)       util %     Throughput (Gbps)
    """
     1   50.2 58.1 66.46 124.3    0.8  0.79  0.75  0.74    7  2  2  2   0.32  0.37  0.43  0.80
     2   44.8 55.2  64.2 109.5   1.18  1.21  1.12  1.11   10  4  2  2   0.57  0.71  0.82  1.40
     4   45.9 57.0  71.1 120.7   2.07  2.14  2.00  1.99   17  7  4  4   1.18  1.46  1.82  3.09
     5   44.8 55.2  64.1 109.5   2.68  2.74  2.59  2.56   22  8  6  5   1.43  1.77  2.05  3.50
     8   45.9 57.3  71.2 120.9   3.92  4.03  3.82  3.93   32 12  8  8   2.35  2.93  3.65  6.19
    10   44.6 55.2  64.3 109.6   4.95  5.06   4.8  4.75   40 16 10 10   2.85  3.53  4.12  7.01
    16   45.9 57.0  71.1 120.3   7.94  8.11  7.69  7.86   65 25 17 16   4.70  5.84  7.28 12.32
    20   44.8 52.8  71.0 110.8   9.57  9.43  9.86  9.00   78 29 21 18   5.73  6.76  9.09 14.18
    40      - 51.1  70.0 110.3      - 17.69 18.65 17.56    - 55 40 36      - 13.08 17.92 28.24
    80      -    -  71.8 129.6      -     - 33.77 31.70    -  - 72 64      -     - 36.76 66.36
    """,
)

M16_SHA256_BASE = _m16_table(
    "Fig. 9",
    "SHA-256 base architecture, p = 1..64",
    "sha256",
    "base",
    64,
    """
     1   51.1 53.3 63.8 110.6   0.90  0.86  0.87  0.92    7  3  3  2   0.41  0.43  0.51  0.88
     2   46.9 51.8 62.4 108.7   1.33  1.36  1.44  1.58   11  4  4  3   0.75  0.83  1.00  1.74
     4   46.9 51.8 62.4 108.8   2.39  2.40  2.60  2.97   19  7  8  6   1.50  1.66  2.00  3.48
     8   45.4 50.8 62.1 108.3   4.58  4.79  5.29  6.29   37 15 16 13   2.91  3.25  3.97  6.93
    16   44.5 49.6 61.9 108.0   8.99  9.09 10.66 12.12   73 28 32 25   5.70  6.35  7.92 13.82
    32      - 50.1 62.0 108.0      - 17.81 18.98 23.52    - 55 56 48      - 12.83 15.87 27.65
    64      - 58.3 76.3 111.2      - 29.99 27.61 31.42    - 92 82 64      - 29.85 39.07 56.93
    """,
)

M16_SHA1_OPT = _m16_table(
    "Fig. 10",
    "SHA-1 optimized architecture, two steps per clock, p = 1..40",
    "sha1",
    "opt",
    40,
    """
     1   65.1 73.6 86.4 161.6    0.96  0.99   0.9  0.89    8  3  2  2    0.83  0.94  1.11  2.07
     2   58.3 72.1 83.5 142.3    1.42  1.45  1.35  1.33   12  4  3  3    1.49  1.85  2.14  3.64
     4   59.5 74.1 92.4 157.2    2.49  2.56  2.41  2.39   20  8  5  5    3.05  3.79  4.73  8.05
     5   58.3 72.1 83.5 142.3    3.22  3.28  3.10  3.07   26 10  7  6    3.73  4.61  5.34  9.11
     8   59.5 74.1 92.4 157.2    4.75  4.84  4.59  4.56   39 15 10  9    6.09  7.59  9.46 16.10
    10   58.3 72.1 83.5 142.3    5.94  6.07  5.77  5.74   48 19 12 12    7.46  9.23 10.69 18.21
    20   56.9 70.1 92.3 144.1   11.06 11.31 11.86 10.83   90 35 25 22   14.57 17.95 23.63 36.89
    40      - 74.9 95.5 172.6       - 20.17 22.00 20.19    - 62 47 41       - 38.35 48.90 88.37
    """,
)

M16_SHA256_OPT = _m16_table(
    "Fig. 11",
    "SHA-256 optimized architecture, two rounds per clock, p = 1..32",
    "sha256",
    "opt",
    32,
    """
     1   61.1 63.2 76.7 132.2    1.18  1.10  1.16  1.22   10  3  3  2    0.98  1.01  1.23  2.12
     2   57.3 62.0 74.5 130.1    1.72  1.77  1.94  2.06   14  5  6  4    1.83  1.98  2.38  4.16
     4   57.3 62.0 74.5 130.1    3.10  3.16  3.50  3.96   25 10 10  8    3.67  3.97  4.77  8.33
     8   54.3 61.0 74.3 130.0    5.77  5.89  6.62  7.78   47 18 20 16    6.95  7.81  9.51 16.64
    16   53.4 58.5 74.1 129.7   11.90 12.16 13.78 15.26   97 37 41 31   13.67 14.98 18.97 33.20
    32      - 63.2 79.1 135.3       - 19.41 20.96 26.34    - 60 62 54       - 32.36 40.50 69.27
    """,
)

MICHAIL_2016_TABLES = (M16_SHA1_BASE, M16_SHA1_OPT, M16_SHA256_BASE, M16_SHA256_OPT)

MICHAIL_2016_CLAIMS = (
    *_and_again(
        Claim(
            MICHAIL_2016,
            "sec. 6.3, Fig. 18",
            "throughput/area",
            "SHA1opt-pN",
            "SHA1base-pN",
            2.2,
            "x",
            "V-4",
            "the achieved throughput/area of the optimized designs is 2.2 times higher than the "
            "base designs in both Virtex-4 and Virtex-II implementations",
            "sha1:opt:pN",
            "sha1:base:pN",
        ),
        quote="(the same sentence, Virtex-II)",
        device="V-II",
    ),
    *_and_again(
        Claim(
            MICHAIL_2016,
            "sec. 6.3, Fig. 18",
            "throughput/area",
            "SHA256opt-pN",
            "SHA256base-pN",
            1.8,
            "x",
            "V-4",
            "the throughput/area values of the optimized designs are 1.8 or 1.9 times higher "
            "than the base ones in Virtex-4 and Virtex-II implementations",
            "sha256:opt:pN",
            "sha256:base:pN",
        ),
        quote="(the same sentence, Virtex-II)",
        value=1.9,
        device="V-II",
    ),
    *_and_again(
        Claim(
            MICHAIL_2016,
            "sec. 4.2",
            "throughput/area",
            "SHA-1 optimized (their ref. 19)",
            "SHA-1 base",
            160,
            "%",
            None,
            "improve the throughput/area metric by 160% and 145% for SHA-1 and SHA-256",
            "sha1:opt:p4",
            "sha1:base:p4",
        ),
        design="SHA-256 optimized (their ref. 20)",
        baseline="SHA-256 base",
        value=145,
        spec="sha256:opt:p4",
        base_spec="sha256:base:p4",
    ),
    Claim(
        MICHAIL_2016,
        "sec. 6.1, Fig. 13",
        "throughput/area",
        "SHA1base-p8",
        "SHA1base-p4",
        8,
        "%",
        None,
        "the throughput/area improvements of the eight-staged pipelined designs vs. the "
        "four-staged ones over the non-pipelined designs is about 8%",
        "sha1:base:p8",
        "sha1:base:p4",
    ),
    Claim(
        MICHAIL_2016,
        "sec. 6.2, Fig. 15",
        "throughput/area",
        "SHA1opt-p8",
        "SHA1opt-p4",
        8,
        "%",
        None,
        "the difference between SHA1opt-p4 and SHA1opt-p8 designs in terms of throughput/area "
        "improvement over the non-pipeline implementation is 8%",
        "sha1:opt:p8",
        "sha1:opt:p4",
    ),
)


# ---------------------------------------- Michail et al. 2012 (SHA-256 opt, HMAC) and 2010
M12_DEVICES = {
    "V": "Virtex",
    "V-II-6": "Virtex-II, speed grade -6",
    "V-II-5": "Virtex-II, speed grade -5",
    "V-IIPro-7": "Virtex-II Pro, speed grade -7",
    "V-E-8": "Virtex-E, speed grade -8",
    "V-E-6": "Virtex-E, speed grade -6",
    "V-4": "Virtex-4 (speed grade not stated in Fig. 21)",
    "V-4-12": "Virtex-4, speed grade -12",
    "V-5-3": "Virtex-5, speed grade -3",
    "V-6-3": "Virtex-6, speed grade -3",
}
M12_TOOL = (
    "Xilinx ISE Design Suite, XST (version not stated); Virtex-5/6 results post place and route"
)

M12_SHA256 = Table(
    "michail2012_sha256",
    MICHAIL_2012,
    "Figs. 17-21, Table I",
    'Michail, Athanasiou, Kelefouras, Theodoridis, Goutis, "On the exploitation of a '
    "high-throughput SHA-256 FPGA design for HMAC\", 2012, Figs. 17-21 (the 'Proposed' rows) and "
    "Table I: the optimized SHA-256 core with four pipeline stages (a digest every 8 cycles) on "
    "Virtex, Virtex-II, Virtex-II Pro, Virtex-E, Virtex-4, Virtex-5, Virtex-6; Xilinx ISE XST.",
    M12_DEVICES,
    M12_TOOL,
    {
        "freq_mhz": "MHz (Freq.): post-synthesis in Figs. "
        "17-20, post place and route in Fig. 21 and Table I",
        "throughput": "Mbit/s (Throughput (Mbps)), post-synthesis (Figs. 17-20) or post place and "
        "route (Fig. 21, Table I)",
        "throughput_par": "Mbit/s, post place and route (the P&R column; None where not given)",
        "area": "slices (Area (slices))",
        "tpa": "Mbit/s per slice: plotted in each figure's chart (b); the text prints only the "
        "Virtex value (None elsewhere)",
        "cycles": "clock cycles between digests: 32 rounds over 4 stages, 'a "
        "256-bit message digest can be produced every 8 clock cycles' (sec. 7)",
    },
    tuple(
        {
            "design": "Proposed SHA-256 (4 stages)",
            "spec": "sha256:opt:p4",
            "device": d,
            "freq_mhz": f,
            "throughput": t,
            "throughput_par": tp,
            "area": a,
            "tpa": ta,
            "cycles": 8,
            "source": src,
        }
        for d, f, t, tp, a, ta, src in (
            ("V", 58.7, 3757, 3667, 2943, 1.02, "Fig. 17"),
            ("V-II-6", 98.9, 6330, 4768, 3075, None, "Fig. 18"),
            ("V-II-5", 85.9, 5498, 4132, 3077, None, "Fig. 18"),
            ("V-IIPro-7", 118.1, 7558, 6375, 3054, None, "Fig. 19"),
            ("V-E-8", 66.8, 4275, 3968, 3181, None, "Fig. 20"),
            ("V-E-6", 52.5, 3360, 3187, 3190, None, "Fig. 20"),
            ("V-4", 130.1, 8326, 8326, 3963, None, "Fig. 21 (P&R only)"),
            ("V-5-3", 169, 10816, 10816, 1885, None, "Table I (post P&R)"),
            ("V-6-3", 172, 11008, 11008, 1831, None, "Table I (post P&R)"),
        )
    ),
    (
        "Fig. 17's text says the Virtex throughput/area 'equals to 1.02'; 3757 Mbit/s / 2943 "
        "slices = 1.28 (3667 / 2943 = 1.25): the printed 1.02 does not follow from the table.",
        "Fig. 21 prints one value per column (frequency 130.1, throughput 8326, area 3963) as the "
        "post place and route figure; it is entered as both throughput and throughput_par.",
        "The post-P&R frequency follows from the P&R throughput as throughput / 64: 57.3 MHz "
        "(Virtex), 74.5 (Virtex-II -6), 62.0 (Virtex-E -8) -- the frequencies Michail et al. 2016 "
        "print for SHA256opt-p4 in Fig. 11.",
    ),
)

M12_HMAC = Table(
    "michail2012_hmac",
    MICHAIL_2012,
    "Table II",
    'Michail, Athanasiou, Kelefouras, Theodoridis, Goutis, "On the exploitation of a '
    'high-throughput SHA-256 FPGA design for HMAC", 2012, Table II: the HMAC core (two '
    "4-stage optimized SHA-256 cores; 65-cycle latency, a new message every 8 cycles), post place "
    "and route on Virtex .. Virtex-6; Xilinx ISE XST.",
    M12_DEVICES,
    M12_TOOL,
    {
        "freq_mhz": "MHz (Freq.)",
        "throughput": "Mbit/s (Throughput (Mbps))",
        "area": "slices (Area (Slices))",
        "cycles": "clock cycles between messages: 'every 8 "
        "clock cycle a new message can be inserted' (sec. 8)",
        "latency": "clock cycles from a message to its MAC: '65 clock cycles in total (32 "
        "for each one of the two SHA-256 cores and one clock cycle for ...)' (sec. 8)",
    },
    tuple(
        {
            "design": "Proposed HMAC-SHA-256",
            "spec": "hmac-sha256:opt:p4",
            "device": d,
            "freq_mhz": f,
            "throughput": t,
            "area": a,
            "cycles": 8,
            "latency": 65,
        }
        for d, f, t, a in (
            ("V", 50.1, 3206, 6964),
            ("V-II-5", 65, 4130, 6832),
            ("V-II-6", 70.6, 4521, 6835),
            ("V-IIPro-7", 96.3, 6163, 6789),
            ("V-E-6", 49.5, 3168, 6874),
            ("V-E-8", 60.2, 3852, 6883),
            ("V-4-12", 130.1, 8326, 7123),
            ("V-5-3", 163.8, 10483, 4219),
            ("V-6-3", 170.1, 10886, 4028),
        )
    ),
    (
        "Table II prints the Virtex-II Pro row as 'Virtex II RRO (-7)'.",
        "Virtex-II -5: 64 x 65 MHz = 4160 Mbit/s, printed 4130 (the frequency is printed without "
        "decimals; 4130 / 64 = 64.5 MHz).",
        "The text under Table II says 'As it is shown in Table I, the achieved throughput "
        "after place and route in Virtex 6 technology is 10.8 Gbps' (the value is Table "
        "II's 10,886 Mbit/s).",
    ),
)

M10_SHA256 = Table(
    "michail2010_sha256",
    MICHAIL_2010,
    "Table 1",
    'Michail, Athanasiou, Kritikakou, Goutis, Gregoriades, Papadopoulou, "Ultra high speed '
    'SHA-256 hashing cryptographic module for IPsec hardware/software codesign", 2010, Table 1 '
    "(the 'Proposed' rows): the optimized SHA-256 core (4 pipeline stages) on Virtex and "
    "Virtex-E; Xilinx tools (not named further).",
    {"V": "Virtex (device not named)", "V-E": "Virtex-E (device not named)"},
    "Xilinx FPGA tools (not named); frequencies are post-synthesis",
    {
        "freq_mhz": "MHz (Op. Freq.), post-synthesis",
        "throughput": "Mbit/s (Throughput (Mbps), Post-synthesis)",
        "throughput_par": "Mbit/s (Post Place & Route)",
        "area": "CLBs (Area CLBs)",
        "cycles": "clock cycles between digests of the 4-stage core: 32 mega-rounds over 4 stages "
        "('the message digest is now computed in only 32 clock cycles', sec. 2)",
    },
    _rows(
        "design spec device freq_mhz throughput throughput_par area cycles",
        ("Proposed (Virtex)", "sha256:opt:p4", "V", 35.1, 2210, 2077, 1534, 8),
        ("Proposed (Virtex-E)", "sha256:opt:p4", "V-E", 36.4, 2330, 2190, 1655, 8),
    ),
    (
        "Virtex row: 512 x 35.1 / 8 = 2246 Mbit/s, not the printed 2210 (the Virtex-E row is "
        "consistent: 512 x 36.4 / 8 = 2330).",
    ),
)

MICHAIL_2012_CLAIMS = (
    *_and_again(
        Claim(
            MICHAIL_2012,
            "sec. 9",
            "throughput",
            "Proposed SHA-256 (4 stages)",
            "conventional 4-stage SHA-256 (Fig. 3)",
            170,
            "%",
            None,
            "The proposed SHA-256 operation block results in a 170% increase of throughput and 35% "
            "area increase.",
            "sha256:opt:p4",
            "sha256:base:p4",
        ),
        metric="area",
        value=35,
    ),
    Claim(
        MICHAIL_2010,
        "sec. 2",
        "throughput",
        "Proposed operation block (Fig. 7)",
        "conventional 4-stage SHA-256",
        110,
        "%",
        None,
        "resulting in an increase of through-put of more than 110% (theoretical) ... This area "
        "penalty is worth paying for about 110% increase of throughput.",
        "sha256:opt:p4",
        "sha256:base:p4",
    ),
    Claim(
        MICHAIL_2010,
        "sec. 2",
        "area",
        "Proposed operation block (Fig. 7)",
        "conventional 4-stage SHA-256",
        35,
        "%",
        None,
        "The introduced area penalty is about 35% for the whole SHA-256 core compared to the "
        "conventional pipelined implementation.",
        "sha256:opt:p4",
        "sha256:base:p4",
    ),
    *_and_again(
        Claim(
            MICHAIL_2010,
            "sec. 3",
            "throughput",
            "Proposed (Table 1)",
            "non-optimized SHA-256 with four pipeline stages",
            110,
            "%",
            None,
            "the increase observed for SHA-256, is about 110% gain in throughput and 30% area "
            "penalty compared to a non-optimized implementation with four pipeline stages "
            "(implemented in the same technology)",
            "sha256:opt:p4",
            "sha256:base:p4",
        ),
        metric="area",
        value=30,
    ),
)


# ----------------------------------------------- Lien, Grembowski, Gaj 2004, Tables 2 and 3
L04_DEVICES = {"V": "Xilinx Virtex XCV1000-6", "V-E": "Xilinx Virtex-E (device not named)"}
L04_TOOL = (
    "Synopsys FPGA Compiler II (synthesis), Xilinx ISE 4.2 (map, place and route); "
    "tested on the SLAAC-1V board"
)
L04_UNITS = {
    "freq_mhz": "MHz (Clock frequency)",
    "throughput": "Mbit/s (Throughput [Mbit/s])",
    "area": "CLB slices (Area [CLB Slices] / 'Slices')",
    "bram": "4 kbit block RAMs (the SHA-512 round constants), not in the slice count",
    "multicycle": "clock periods per unrolled iteration (the tables' footnote 1: the 5-step "
    "critical path is a multicycle path of 2 clocks for SHA-1, 5 for SHA-512); 1 "
    "for the basic architecture",
    "cycles": "effective clock periods per block: 80 steps / k (Throughput = block size / "
    "(effective clock period x number of rounds / k), sec. 7)",
}

L04_CITE = (
    'Lien, Grembowski, Gaj, "A 1 Gbit/s partially unrolled architecture of hash functions SHA-1 '
    'and SHA-512", 2004'
)


def _l04_table(family, table, name, cells, notes):
    """The Table of the paper's `table` (Table 2: SHA-1, Table 3: SHA-512; `name` as printed),
    its rows the `cells` of the 'Our' rows as printed."""
    return Table(
        f"lien2004_{family}",
        LIEN_2004,
        table,
        f"{L04_CITE}, {table} (the 'Our' rows: basic and k = 5 unrolled {name}) on Virtex "
        "XCV1000-6 and Virtex-E; Synopsys FPGA Compiler II, Xilinx ISE 4.2.",
        L04_DEVICES,
        L04_TOOL,
        L04_UNITS,
        _rows("design spec device freq_mhz multicycle throughput area bram cycles", *cells),
        notes,
    )


L04_SHA1 = _l04_table(
    "sha1",
    "Table 2",
    "SHA-1",
    (
        ("basic", "sha1:base", "V", 85, 1, 544, 480, 0, 80),
        ("unrolled (k=5)", "sha1:k5", "V", 64, 2, 1024, 1480, 0, 16),
        ("basic", "sha1:base", "V-E", 103, 1, 659, 484, 0, 80),
        ("unrolled (k=5)", "sha1:k5", "V-E", 72.5, 2, 1160, 1484, 0, 16),
    ),
    (
        "The abstract says SHA-1 went 'from 544 Mbit/s to 1.1 Gbit/s using "
        "Xilinx XCV1000'; Table 2 gives 1024 Mbit/s on Virtex (1160 on Virtex-E).",
        "Figs. 11-13 (clock periods, throughputs, slices) are plots without numbers.",
    ),
)

L04_SHA512 = _l04_table(
    "sha512",
    "Table 3",
    "SHA-512",
    (
        ("basic", "sha512:base", "V", 56, 1, 717, 2384, 4, 80),
        ("unrolled (k=5)", "sha512:k5", "V", 67, 5, 929, 3521, 4, 16),
        ("unrolled (k=5)", "sha512:k5", "V-E", 72, 5, 1034, 3517, 4, 16),
    ),
    (
        "The unrolled rows' throughputs do not follow from their clock frequencies: 1024 "
        "bits x (67 MHz / 5) / 16 = 858 Mbit/s, not 929 (Virtex-E: 922, not 1034); 929 "
        "Mbit/s means an effective clock period of 68.9 ns (5 x 13.8 ns, i.e. a 72.6 MHz "
        "clock). The ratios below use the printed throughputs (the paper's own 'speed-up "
        "was only 30%' is 929 / 717).",
        "Table 3 has no basic SHA-512 row for Virtex-E.",
        "Table 1 lists the five most critical paths of the unrolled SHA-512 (60.2-62.3 "
        "ns, about half of it routing), a static timing figure, not the clock of Table 3.",
    ),
)

LIEN_2004_TABLES = (L04_SHA1, L04_SHA512)

LIEN_2004_CLAIMS = (
    Claim(
        LIEN_2004,
        "sec. 7",
        "throughput",
        "SHA-1 unrolled (k=5)",
        "SHA-1 basic",
        1.9,
        "x",
        None,
        "the throughput of SHA-1 increased by a factor of almost two (1.9 times)",
        "sha1:k5",
        "sha1:base",
    ),
    Claim(
        LIEN_2004,
        "sec. 7",
        "area",
        "SHA-1 unrolled (k=5)",
        "SHA-1 basic",
        3,
        "x",
        None,
        "while at the same time its area grew only by a factor of three",
        "sha1:k5",
        "sha1:base",
    ),
    *_and_again(
        Claim(
            LIEN_2004,
            "sec. 7",
            "throughput",
            "SHA-512 unrolled (k=5)",
            "SHA-512 basic",
            30,
            "%",
            None,
            "its observed speed-up was only 30%, and the area increase 48%",
            "sha512:k5",
            "sha512:base",
        ),
        metric="area",
        value=48,
    ),
)


# ------------------------------------------------ Athanasiou et al. 2013, Figs. 6-8 (Skein-512)
A13_DEVICES = {
    "V-4": "Virtex-4 xc4vlx160-FF1148",
    "V-5": "Virtex-5 xc5vfx130t-FF1738",
    "V-6": "Virtex-6 xc6vlx365t-FF1759",
}
A13_DEVICE_ORDER = ("V-4", "V-5", "V-6")
A13_TOOL = "Xilinx ISE Design Suite 13.1 (speed grades not stated)"
A13_UNITS = {
    "freq_mhz": "MHz (Frequency (MHz))",
    "area": "slices (Area (Slices))",
    "throughput": "Mbit/s (Throughput (Mbps))",
    "tpa": "Mbit/s per slice: chart (b) of each figure, no numbers printed (None)",
    "cycles": "clock cycles for one 512-bit block as the text states them: 73, 19, 10 (sec. 4.1) "
    "and (9 x p) + 2 for p blocks in a p-stage functional pipeline (sec. 3.2.1); None "
    "where the text gives no count (the structural pipelines)",
    "block_cycles_in_throughput": "cycles per block that the Throughput column implies (512 x f / "
    "Throughput, rounded): not stated in the text",
    "fp": "functional pipeline stages (1 = none)",
    "sp": "structural pipeline modules (1 = none)",
}
A13_SPECS = {
    "1-round_unroll": ("skein512:r1", 73, 73, 1, 1),
    "4-round_unroll": ("skein512:r4", 19, 19, 1, 1),
    "8-round_unroll": ("skein512:r8", 10, 10, 1, 1),
    "8r_nFp": ("skein512:r8", 10, 10, 1, 1),
    "8r_2Fp": ("skein512:r8:fp2", 20, 10, 2, 1),
    "8r_4Fp": ("skein512:r8:fp4", 38, 10, 4, 1),
    "8r_8Fp": ("skein512:r8:fp8", 74, 10, 8, 1),
    "8r_nFp_3Sp": ("skein512:r8:sp3", None, 3, 1, 3),
    "8r_2Fp_3Sp": ("skein512:r8:fp2:sp3", None, 3, 2, 3),
    "8r_4Fp_3Sp": ("skein512:r8:fp4:sp3", None, 3, 4, 3),
    "8r_8Fp_3Sp": ("skein512:r8:fp8:sp3", None, 3, 8, 3),
}


def _a13_rows(grid):
    rows = []
    for dev, design, f, area, t in grid:
        spec, cycles, implied, fp, sp = A13_SPECS[design]
        rows.append(
            {
                "design": design,
                "spec": spec,
                "device": dev,
                "freq_mhz": f,
                "area": area,
                "throughput": t,
                "tpa": None,
                "cycles": cycles,
                "block_cycles_in_throughput": implied,
                "fp": fp,
                "sp": sp,
            }
        )
    return tuple(rows)


A13_CITE = (
    'Athanasiou, Tsingkas, Michail, Theodoridis, Goutis, "Throughput/area trade-offs of '
    'loop-unrolling, functional, and structural pipeline for Skein hash function", 2013'
)


def _a13_table(key, fig, what, grid, notes):
    """The Table of one of Figs. 6-8 (`what`: the designs and devices), its rows from the
    figure's `grid` (_a13_rows)."""
    return Table(
        key,
        ATHANASIOU_2013,
        fig,
        f"{A13_CITE}, {fig}: {what}; Xilinx ISE 13.1.",
        A13_DEVICES,
        A13_TOOL,
        A13_UNITS,
        _a13_rows(grid),
        notes,
    )


A13_UNROLL = _a13_table(
    "athanasiou2013_unroll",
    "Fig. 6(a)",
    "Skein-512 with 1, 4 and 8 rounds unrolled on Virtex-4, Virtex-5, Virtex-6",
    (
        ("V-4", "1-round_unroll", 171.4, 3142, 1202.2),
        ("V-4", "4-round_unroll", 113.2, 3756, 3049.1),
        ("V-4", "8-round_unroll", 77.3, 4616, 3957.8),
        ("V-5", "1-round_unroll", 212.9, 1226, 1493.4),
        ("V-5", "4-round_unroll", 148.1, 1508, 3990.4),
        ("V-5", "8-round_unroll", 99.4, 1841, 5089.3),
        ("V-6", "1-round_unroll", 280.9, 1229, 1970.1),
        ("V-6", "4-round_unroll", 181.2, 1494, 4882.9),
        ("V-6", "8-round_unroll", 118.3, 1629, 6057.0),
    ),
    (
        "Fig. 10 prints the Virtex-4 4-round_unroll area "
        "as 3726 slices; Fig. 6 as 3756 (used here).",
    ),
)

A13_FUNCTIONAL = _a13_table(
    "athanasiou2013_functional",
    "Fig. 7(a)",
    "the 8-round datapath with none, 2, 4 and 8 functional pipeline stages on Virtex-4, Virtex-5, "
    "Virtex-6",
    (
        ("V-4", "8r_nFp", 77.3, 4616, 3957.8),
        ("V-4", "8r_2Fp", 108.5, 6133, 5556.2),
        ("V-4", "8r_4Fp", 124.2, 8465, 6359.0),
        ("V-4", "8r_8Fp", 133.5, 11369, 6835.2),
        ("V-5", "8r_nFp", 99.4, 1841, 5089.3),
        ("V-5", "8r_2Fp", 162.3, 2675, 8309.8),
        ("V-5", "8r_4Fp", 191.6, 4082, 9809.9),
        ("V-5", "8r_8Fp", 199.3, 5506, 10204.2),
        ("V-6", "8r_nFp", 118.3, 1629, 6057.0),
        ("V-6", "8r_2Fp", 206.6, 2212, 10579.5),
        ("V-6", "8r_4Fp", 247.0, 3219, 12647.9),
        ("V-6", "8r_8Fp", 266.4, 4272, 13639.2),
    ),
    (
        "The throughputs of 8r_4Fp and 8r_8Fp are 512 x f / 10, one block per 10 cycles, although "
        "the text's (9 x p) + 2 cycles for p blocks give 38 / 4 = 9.5 and 74 / 8 = 9.25 cycles per "
        "block.",
        "The Virtex-4 8r_2Fp throughput is printed 5556.2; 512 x 108.5 / 10 = 5555.2.",
        "Sec. 4.2 states that 8r_2Fp improves throughput/area over the 8-round datapath "
        "by 17.4% on Virtex-5; this table gives (8309.8 / 2675) / (5089.3 / 1841) = "
        "+12.4% (the Virtex-4 and Virtex-6 figures, 5.9% and 28.4%, agree with it).",
    ),
)

A13_MIXED = _a13_table(
    "athanasiou2013_mixed",
    "Fig. 8(a)",
    "three 8-round Threefish modules in a structural pipeline, with none, 2, 4 and 8 functional "
    "stages each, on Virtex-4, Virtex-5, Virtex-6",
    (
        ("V-4", "8r_nFp_3Sp", 71.3, 14563, 12166.8),
        ("V-4", "8r_2Fp_3Sp", 106.8, 18064, 18227.2),
        ("V-4", "8r_4Fp_3Sp", 122.6, 24839, 20923.7),
        ("V-4", "8r_8Fp_3Sp", 130.2, 25301, 22220.8),
        ("V-5", "8r_nFp_3Sp", 91.1, 6798, 15547.7),
        ("V-5", "8r_2Fp_3Sp", 154.1, 8525, 26299.7),
        ("V-5", "8r_4Fp_3Sp", 185.5, 11646, 31658.7),
        ("V-5", "8r_8Fp_3Sp", 196.2, 16832, 33484.8),
        ("V-6", "8r_nFp_3Sp", 110.0, 5229, 18764.8),
        ("V-6", "8r_2Fp_3Sp", 189.6, 6789, 32358.4),
        ("V-6", "8r_4Fp_3Sp", 228.9, None, 39065.6),
        ("V-6", "8r_8Fp_3Sp", 237.1, 12043, 40465.1),
    ),
    (
        "The Virtex-6 8r_4Fp_3Sp area cell is not legible in the copy used (the row reads "
        "'8r_4Fp_3Sp 3r_4Fp_3Sp 228.9 39065.6'): None.",
        "Every throughput is 512 x 3 x f / 9: three blocks per 9 cycles, one per 3 cycles (three "
        "modules of three 8-round iterations each, the first sub-key made by a separate key "
        "generator, sec. 3.2.2).",
    ),
)

ATHANASIOU_2013_TABLES = (A13_UNROLL, A13_FUNCTIONAL, A13_MIXED)

ATHANASIOU_2013_CLAIMS = tuple(
    Claim(
        ATHANASIOU_2013,
        src,
        metric,
        design,
        base,
        value,
        "%",
        dev,
        quote,
        A13_SPECS[design][0],
        A13_SPECS[base][0],
    )
    for src, metric, design, base, value, dev, quote in (
        (
            "sec. 4.1",
            "area",
            "8-round_unroll",
            "4-round_unroll",
            9,
            "V-6",
            "comparing the 8-round_unroll architecture with the 4-round and 1-round unroll ones in "
            "Virtex-6 technology, the area increases by 9% and 33%",
        ),
        ("sec. 4.1", "area", "8-round_unroll", "1-round_unroll", 33, "V-6", "(the same sentence)"),
        (
            "sec. 4.1",
            "frequency",
            "8-round_unroll",
            "4-round_unroll",
            -35,
            "V-6",
            "the frequency of the 8-round unroll architecture is lower by 35% and 58% compared to "
            "frequency of the 4- and 1-round unroll architectures",
        ),
        (
            "sec. 4.1",
            "frequency",
            "8-round_unroll",
            "1-round_unroll",
            -58,
            "V-6",
            "(the same sentence)",
        ),
        (
            "sec. 4.1",
            "throughput",
            "8-round_unroll",
            "1-round_unroll",
            207,
            "V-6",
            "In Virtex-6, the throughput of the 8-round "
            "unroll architecture is improved by 24% and 207%",
        ),
        (
            "sec. 4.1",
            "throughput",
            "8-round_unroll",
            "1-round_unroll",
            241,
            "V-5",
            "The corresponding improvements in Virtex-5 technology are 28% and 241%",
        ),
        (
            "sec. 4.1",
            "throughput",
            "8-round_unroll",
            "1-round_unroll",
            229,
            "V-4",
            "whereas in Virtex-4 they are 30% and 229%",
        ),
        (
            "sec. 4.1",
            "throughput/area",
            "8-round_unroll",
            "4-round_unroll",
            14,
            "V-6",
            "the Throughput/Area factor is improved by 14% and 133%",
        ),
        (
            "sec. 4.1",
            "throughput/area",
            "8-round_unroll",
            "1-round_unroll",
            133,
            "V-6",
            "(the same sentence)",
        ),
        (
            "sec. 4.2",
            "throughput",
            "8r_2Fp",
            "8r_nFp",
            75,
            "V-6",
            "the throughput improvements are 75%, 109%, and 125%, "
            "whereas the area increases by 36%, 98%, and 162%",
        ),
        ("sec. 4.2", "throughput", "8r_4Fp", "8r_nFp", 109, "V-6", "(the same sentence)"),
        ("sec. 4.2", "throughput", "8r_8Fp", "8r_nFp", 125, "V-6", "(the same sentence)"),
        ("sec. 4.2", "area", "8r_2Fp", "8r_nFp", 36, "V-6", "(the same sentence)"),
        ("sec. 4.2", "area", "8r_4Fp", "8r_nFp", 98, "V-6", "(the same sentence)"),
        ("sec. 4.2", "area", "8r_8Fp", "8r_nFp", 162, "V-6", "(the same sentence)"),
        (
            "sec. 4.2",
            "throughput/area",
            "8r_2Fp",
            "8-round_unroll",
            5.9,
            "V-4",
            "the Throughput/Area factor is improved by 5.9%, "
            "17.4%, and 28.4% in Virtex-4, Virtex-5, and Virtex-6",
        ),
        (
            "sec. 4.2",
            "throughput/area",
            "8r_2Fp",
            "8-round_unroll",
            17.4,
            "V-5",
            "(the same sentence)",
        ),
        (
            "sec. 4.2",
            "throughput/area",
            "8r_2Fp",
            "8-round_unroll",
            28.4,
            "V-6",
            "(the same sentence)",
        ),
        (
            "sec. 4.3",
            "throughput",
            "8r_nFp_3Sp",
            "8r_nFp",
            210,
            "V-6",
            "the throughput of the 8r_8Fp_3Sp architecture is improved by 197% compared "
            "to the 8r_8Fp architecture. The corresponding improvements of the "
            "8r_nFp_3Sp, 8r_2Fp_3Sp, 8r_4Fp_3Sp architectures are 210%, 206%, and 209%",
        ),
        ("sec. 4.3", "throughput", "8r_2Fp_3Sp", "8r_2Fp", 206, "V-6", "(the same sentence)"),
        ("sec. 4.3", "throughput", "8r_4Fp_3Sp", "8r_4Fp", 209, "V-6", "(the same sentence)"),
        ("sec. 4.3", "throughput", "8r_8Fp_3Sp", "8r_8Fp", 197, "V-6", "(the same sentence)"),
    )
) + (
    Claim(
        ATHANASIOU_2013,
        "Fig. 12(b)",
        "throughput/area",
        "8r_2Fp",
        "(absolute)",
        3.11,
        "Mbit/s per slice",
        "V-5",
        "Fig. 12(b) bar label",
        "skein512:r8:fp2",
    ),
    Claim(
        ATHANASIOU_2013,
        "Fig. 12(c)",
        "throughput/area",
        "8r_2Fp",
        "(absolute)",
        4.78,
        "Mbit/s per slice",
        "V-6",
        "Fig. 12(c) bar label",
        "skein512:r8:fp2",
    ),
)


TABLES = {
    t.key: t
    for t in (
        MICHAIL_2016_TABLES
        + (M12_SHA256, M12_HMAC, M10_SHA256)
        + LIEN_2004_TABLES
        + ATHANASIOU_2013_TABLES
    )
}
CLAIMS = MICHAIL_2016_CLAIMS + MICHAIL_2012_CLAIMS + LIEN_2004_CLAIMS + ATHANASIOU_2013_CLAIMS

# the unit of each throughput string, in Mbit/s
THROUGHPUT_SCALE = {"Gbit/s": 1000.0, "Mbit/s": 1.0}


def throughput_mbps(table, row):
    """A row's throughput in Mbit/s (the table prints Gbit/s or Mbit/s)."""
    unit = table.units["throughput"].split()[0]
    return None if row.get("throughput") is None else row["throughput"] * THROUGHPUT_SCALE[unit]


def effective_freq_mhz(row):
    """The clock at which one unrolled iteration completes: the printed clock over the multicycle
    factor (Lien, Grembowski, Gaj 2004), else the printed clock."""
    f = row.get("freq_mhz")
    return None if f is None else f / row.get("multicycle", 1)
