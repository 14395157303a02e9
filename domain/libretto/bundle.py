"""Regenerate the bundled stagings: `python -m xiangshe.domain.libretto.bundle` (add --check to compare only).

Besides the canonical ceremony and the variants (which pass), it writes the examples of the
scoring audit, traces/audit/: the ceremony up to the count of round 2 (a fragment Φ01–Φ32), with
one edit that the audit must catch under the reading it names.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from xiangshe.domain.bundled import AUDIT, CANONICAL, MANIFEST, ROOT, VARIANTS
from xiangshe.domain.libretto import Options, generate

#: the examples of the scoring audit: name, options, the header, and the one edit (the event as
#: generated, and what replaces it: an event, or None to delete it)
AUDIT_EXAMPLES: tuple[tuple[str, dict, str, str, str | None], ...] = (
    (
        "n10.margin",
        {},
        "fails audit.n10 under xian-huo=margin (the default) only: the 释获者 announces the winner's whole count\n"
        "(右 10 = 五纯), which is the 贤获 under xian-huo=whole; under the default the 贤获 is the margin,\n"
        "10 − 7 = 3 = 一纯一奇: 郑注 「賢獲勝黨之算也齊之而取其餘」, 「假如右勝告曰右賢於左若干純若干竒」.\n"
        "`xiangshe check --reading xian-huo=whole traces/audit/n10.margin.trace` passes.",
        "释获者 告 to=宾 words=右贤于左 chun=一 qi=一",
        "释获者 告 to=宾 words=右贤于左 chun=五",
    ),
    (
        "n10.whole",
        {},
        "fails audit.n10 under xian-huo=whole only: the announcement of the canonical ceremony, the margin\n"
        "一纯一奇 (10 − 7), unchanged; under xian-huo=whole the 贤获 is the winner's whole count, 五纯.\n"
        "`xiangshe check traces/audit/n10.whole.trace` (the default, margin) passes.",
        "释获者 告 to=宾 words=右贤于左 chun=一 qi=一",
        "释获者 告 to=宾 words=右贤于左 chun=一 qi=一",
    ),
    (
        "n10.qi",
        {},
        "fails audit.n10 under either reading: the announcement leaves out the 奇 — 「以纯数告；若有奇者，\n"
        "亦曰奇」 (the margin 3 is 一纯一奇; the whole count 10 is 五纯, not 一纯).",
        "释获者 告 to=宾 words=右贤于左 chun=一 qi=一",
        "释获者 告 to=宾 words=右贤于左 chun=一",
    ),
    (
        "r131",
        {},
        "fails audit.r131 only (under the default readings): the 释获者 counts the left (7 tallies = 三纯一奇) "
        "but lays out only the 奇 —\n"
        "「一纯以委，十则异之，其余如右获」 (郑注 on 其余如右获: 「謂所縮所横」): the three 纯 are not laid\n"
        "crosswise, so what is laid out is not the count.",
        "释获者 横 算 side=左 chun=三",
        None,
    ),
    (
        "r131.2",
        {
            "zhongbin": 9,
            "zhongbin_pairs": 2,
            "arrows": {
                "2:上耦:上射": ["中正"] * 4,
                "2:次耦:上射": ["中正"] * 4,
                "2:下耦:上射": ["中正"] * 4,
                "2:宾耦:上射": ["中正"] * 4,
                "2:众耦1:上射": ["中正"] * 4,
                "2:大夫耦:上射": ["不中", "不中", "中侯", "不中"],
            },
        },
        "fails audit.r131 only (under the default readings): the right scores 21 (十纯一奇); "
        "the 释获者 lays the ten 纯 crosswise instead of\n"
        "bundling them lengthwise — 「十纯则缩而委之，每委异之；有余纯，则横于下」 (郑注: 「縮從也」, 「易校數」;\n"
        "on 有余纯则横于下: 「又異之也」): only the 纯 left over after the bundles of ten lie crosswise.",
        "释获者 缩 算 side=右 chun=十",
        "释获者 横 算 side=右 chun=十",
    ),
)
CANONICAL_TITLE = "乡射礼 — the canonical ceremony, as the text tells it (default staging: one 大夫 present)"


def bundle() -> dict[Path, str]:
    """Every bundled staging: its path and the text the generator makes for it."""
    out = {CANONICAL: generate(Options(), CANONICAL_TITLE)}
    for name, spec in tomllib.loads(MANIFEST.read_text(encoding="utf-8")).items():
        spec = dict(spec)
        title = spec.pop("title")
        if "outcome" in spec:
            spec["outcome"] = tuple(spec["outcome"])
        out[VARIANTS / f"{name}.trace"] = generate(Options(**spec), f"乡射礼 — variant: {title}")
    return out


def audit_examples() -> dict[Path, str]:
    """The examples of the scoring audit: the ceremony to Φ32, one edit each, marked `# <-`."""
    out = {}
    for name, spec, header, event, instead in AUDIT_EXAMPLES:
        text = generate(Options(until="Φ32", **spec), f"乡射礼 to the count of round 2 — audit example {name}")
        head = "".join(f"# {line}\n" for line in header.split("\n"))
        text = text.replace("\nfragment Φ01–Φ32\n", f"\n{head}fragment Φ01–Φ32\n", 1)  # generate writes it
        lines = text.split("\n")
        hits = [i for i, line in enumerate(lines) if line.split("#")[0].strip() == event]
        assert len(hits) == 1, (name, event, len(hits))
        i = hits[0]
        if instead is None:
            lines[i] = f"# <- deleted here: {event}"
        elif instead != event:
            lines[i] = f"{instead:<44}# <- the edit (was: {event})"
        out[AUDIT / f"{name}.trace"] = "\n".join(lines)
    return out


def main(argv: list[str]) -> int:
    stale = []
    for path, text in (bundle() | audit_examples()).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            stale.append(path)
            if "--check" not in argv:
                path.parent.mkdir(exist_ok=True)
                path.write_text(text, encoding="utf-8")
    for p in stale:
        print(("stale: " if "--check" in argv else "wrote: ") + str(p.relative_to(ROOT)))
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
