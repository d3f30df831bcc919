#!/usr/bin/env python3
"""Derives the IDNA2008 tables for src/text/format.rs from the Unicode Character Database
(Debian package `unicode-data`, /usr/share/unicode), following RFC 5892 section 3."""
import re, sys
U = "/usr/share/unicode/"
N = 0x110000

def ranges(path, field=1):
    for line in open(U + path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split(";")]
        a, _, b = parts[0].partition("..")
        yield int(a, 16), int(b or a, 16), parts[field:]

gc = ["Cn"] * N
ccc = [0] * N
prev = None
for line in open(U + "UnicodeData.txt", encoding="utf-8"):
    f = line.split(";")
    cp = int(f[0], 16)
    if f[1].endswith(", Last>"):
        for c in range(prev + 1, cp + 1):
            gc[c] = f[2]; ccc[c] = int(f[3])
    gc[cp] = f[2]; ccc[cp] = int(f[3]); prev = cp

def prop_set(path, name):
    s = set()
    for a, b, p in ranges(path):
        if p[0] == name:
            s.update(range(a, b + 1))
    return s

nonchar = prop_set("PropList.txt", "Noncharacter_Code_Point")
white = prop_set("PropList.txt", "White_Space")
ignorable = prop_set("DerivedCoreProperties.txt", "Default_Ignorable_Code_Point")
unstable = prop_set("DerivedNormalizationProps.txt", "NFKC_CF")  # has a mapping: changes
old_jamo = set()
for a, b, p in ranges("HangulSyllableType.txt"):
    if p[0] in ("L", "V", "T"):
        old_jamo.update(range(a, b + 1))
blocks = set()
for a, b, p in ranges("Blocks.txt"):
    if p[0] in ("Combining Diacritical Marks for Symbols", "Musical Symbols",
                "Ancient Greek Musical Notation"):
        blocks.update(range(a, b + 1))

EXC_P = {0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007}
EXC_O = {0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB} | set(range(0x0660, 0x066A)) | set(range(0x06F0, 0x06FA))
EXC_D = {0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B}

def idna(cp):
    if cp in EXC_P: return "P"
    if cp in EXC_O: return "O"
    if cp in EXC_D: return "D"
    if gc[cp] == "Cn" and cp not in nonchar: return "D"  # UNASSIGNED
    if cp == 0x2D or 0x30 <= cp <= 0x39 or 0x61 <= cp <= 0x7A: return "P"
    if cp in (0x200C, 0x200D): return "J"
    if cp in unstable: return "D"
    if cp in ignorable or cp in white or cp in nonchar: return "D"
    if cp in blocks or cp in old_jamo: return "D"
    if gc[cp] in ("Ll", "Lu", "Lo", "Nd", "Lm", "Mn", "Mc"): return "P"
    return "D"

cls = [idna(c) for c in range(N)]

if "--check" in sys.argv:
    import idna.idnadata as d
    def decode(rs):
        s = set()
        for r in rs:
            s.update(range(r >> 32, r & 0xFFFFFFFF))
        return s
    for k, mine in (("PVALID", "P"), ("CONTEXTJ", "J"), ("CONTEXTO", "O")):
        theirs = decode(d.codepoint_classes[k])
        ours = {c for c in range(N) if cls[c] == mine}
        print(k, "only ours:", sorted(hex(c) for c in ours - theirs)[:20], len(ours - theirs),
              "only theirs(first 20):", sorted(hex(c) for c in theirs - ours)[:20], len(theirs - ours))

bidi = {}
for a, b, p in ranges("extracted/DerivedBidiClass.txt"):
    for c in range(a, b + 1):
        bidi[c] = p[0]
jt = {}
for a, b, p in ranges("extracted/DerivedJoiningType.txt"):
    for c in range(a, b + 1):
        jt[c] = p[0]
script = {}
for a, b, p in ranges("Scripts.txt"):
    for c in range(a, b + 1):
        script[c] = p[0]

BIDI = {"L": 0, "R": 1, "AL": 2, "AN": 3, "EN": 4, "ES": 5, "CS": 6, "ET": 7, "ON": 8, "BN": 9, "NSM": 10}
JT = {"U": 0, "C": 0, "L": 1, "R": 2, "D": 3, "T": 4}
SC = {"Greek": 1, "Hebrew": 2, "Hiragana": 3, "Katakana": 4, "Han": 5}

def props(c):
    """None for DISALLOWED; else a packed value:
    bits 0-3 bidi class, 4-6 joining type, 7-9 script, 10 virama, 11 combining mark, 12-13 class."""
    k = cls[c]
    if k == "D":
        return None
    b = BIDI.get(bidi.get(c, "L"), 11)
    j = JT[jt.get(c, "U")]
    s = SC.get(script.get(c, ""), 0)
    v = 1 if ccc[c] == 9 else 0
    m = 1 if gc[c] in ("Mn", "Mc", "Me") else 0
    kk = {"P": 1, "J": 2, "O": 3}[k]
    return b | j << 4 | s << 7 | v << 10 | m << 11 | kk << 12

runs = []
cur = object()
for c in range(N):
    p = props(c)
    if p != cur:
        runs.append((c, 0 if p is None else p))
        cur = p
print("runs", len(runs), file=sys.stderr)
print("other bidi among valid:", sorted({bidi.get(c) for c in range(N) if cls[c] != "D" and bidi.get(c, "L") not in BIDI}), file=sys.stderr)

combos = [0] + sorted({p for _, p in runs if p})
index = {p: i for i, p in enumerate(combos)}
print("distinct", len(combos), file=sys.stderr)

if "--emit" in sys.argv:
    def rows(vals, width, per):
        return "\n".join("    " + ", ".join(vals[i:i + per]) + "," for i in range(0, len(vals), per))
    print(f"const IDNA_PROPS: [u16; {len(combos)}] = [")
    print(rows([f"0x{p:04X}" for p in combos], 6, 10))
    print("];")
    print(f"const IDNA_RUNS: [u32; {len(runs)}] = [")
    print(rows([f"0x{(start << 8 | index[p]):08X}" for start, p in runs], 10, 8))
    print("];")

if "--check" in sys.argv:
    import idna.idnadata as d
    theirs = set()
    for r in d.codepoint_classes["PVALID"]:
        theirs.update(range(r >> 32, r & 0xFFFFFFFF))
    extra = [c for c in theirs if cls[c] != "P"]
    print("their PVALID not ours, assigned in UCD 15.0:", [hex(c) for c in extra if gc[c] != "Cn"])
