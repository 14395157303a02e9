"""Perform the libretto: render it for a cast and locate each clause it enacts in the text.

The libretto (text/*.j2) is the text of the ceremony, clause by clause in its own order, written as
Jinja2 templates with line statements (`% for`, `% if`, `% macro`). Its lines are:

    phase Φ05 主人献宾            a phase begins (a heading in the trace)
    § 主人坐取爵于上篚，以降       the events below enact these words of the text (located by the
                                  program: forward from the clause before, else from the phase's
                                  first clause; `§ L243 尊，绤幂` names the line when the words are
                                  elsewhere, as the 记's are)
    § 无介 | not enacted: REASON  a clause the ceremony does not enact, and why
    主人 取 爵1 at=上篚  # note    an event of the trace (with a note for the reader)
    # a comment                   copied into the trace
    ## a comment                  for the libretto's readers only

Everything a staging varies on comes in through the context: `o` (the Options), `cast` (the
people and the pairs), `arrows` (each round's results), the helpers `num`, `chun`, `announced`, and
the modules `shoot`, `music`, `cups` (what a template cannot say simply: keep them small).
"""

from __future__ import annotations

from dataclasses import field
from functools import cache
from pathlib import Path

import jinja2

from xiangshe.domain.dataclass import dataclass
from xiangshe.domain.errors import QuoteError
from xiangshe.domain.libretto.arrows import HITS, Arrows, announced, chun, num, tallies
from xiangshe.domain.libretto.cast import Cast
from xiangshe.domain.libretto.options import Options, StagingError
from xiangshe.domain.text import TEXT, Citation

LIBRETTO = Path(__file__).with_name("text")
MAIN = "ceremony.j2"
#: the default occasion (domain/occasion.py), written out: 「此射於序」 (郑注), 「釋獲者執鹿中」
OCCASION = "occasion presiding=州长 venue=序 hou=采侯 zhong=鹿中 jing=翿旌"


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(LIBRETTO),
        undefined=jinja2.StrictUndefined,
        line_statement_prefix="%",
        line_comment_prefix="##",
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=True,
    )


@dataclass
class Clause:
    """One clause of the text as the libretto performs it."""

    cite: Citation
    events: int = 0
    reason: str | None = None  # why it is not enacted

    @property
    def where(self) -> str:
        return _where([self])


@dataclass
class Performance:
    """The trace lines of one staging and the clauses they enact."""

    lines: list[str] = field(default_factory=list)
    clauses: list[Clause] = field(default_factory=list)
    enacts: dict[int, tuple[Clause, ...]] = field(default_factory=dict)  # event line (index in lines) → its clauses


class _Locator:
    """Finds each § clause in the text: forward from the last one, else from the phase's first."""

    def __init__(self) -> None:
        self.cursor = 0
        self.phase_start: int | None = None

    def phase(self) -> None:
        self.phase_start = None

    def locate(self, spec: str, where: str) -> Citation:
        line = None
        if spec.startswith("L") and " " in spec:
            head, spec = spec.split(" ", 1)
            try:
                line = int(head[1:].split("–")[0].split("-")[0])
            except ValueError:
                raise StagingError(f"{where}: write § L<line> <words>, not {head!r}") from None
        quote = spec.strip()
        if line is not None:
            try:
                return TEXT.cite(quote, line, where=where)
            except QuoteError as e:
                raise StagingError(str(e)) from None
        flat = TEXT.flat
        at = flat.find(quote, self.cursor)
        if at < 0 and self.phase_start is not None:
            at = flat.find(quote, self.phase_start)
        if at < 0:
            raise StagingError(
                f"{where}: 「{quote}」 is not in the text after L{TEXT._line_of[self.cursor]} (give its line: § L<n> …)"
            )
        self.cursor = at
        if self.phase_start is None:
            self.phase_start = at
        return Citation(quote, TEXT._line_of[at], TEXT._line_of[at + len(quote) - 1])


def render(o: Options, cast: Cast, source: str | None = None) -> str:
    """The libretto (or `source`, a libretto's text) rendered for `o`; its errors located."""
    from xiangshe.domain.libretto import cups, music, shoot

    env = environment()
    try:
        template = env.from_string(source) if source is not None else env.get_template(MAIN)
        return template.render(
            o=o,
            cast=cast,
            arrows=Arrows(cast),
            num=num,
            chun=chun,
            announced=announced,
            HITS=HITS,
            tallies=tallies,
            shoot=shoot,
            music=music,
            cups=cups,
        )
    except jinja2.TemplateSyntaxError as e:
        raise StagingError(f"{e.filename or 'libretto'}:{e.lineno}: error: {e.message}") from None
    except jinja2.TemplateError as e:
        raise StagingError(f"libretto{_template_line(e)}: error: {e}") from None


def _template_line(e: BaseException) -> str:
    """The template file and line an error was raised at (from the traceback Jinja2 rewrites)."""
    tb, found = e.__traceback__, ""
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith(".j2") or name == "<template>":
            found = f" ({Path(name).name}:{tb.tb_lineno})"
        tb = tb.tb_next
    return found


def perform(o: Options, cast: Cast, source: str | None = None) -> Performance:
    """Render the libretto for `o` and turn it into trace lines, stopping after `o.until`."""
    text = render(o, cast, source)
    out = Performance()
    locate = _Locator()
    group: list[Clause] = []  # the § clauses the next events enact (several § in a row share them)
    first = False
    phase = "before the first phase"
    for raw in text.splitlines():
        row = raw.strip()
        where = f"libretto, {phase}"
        if not row:
            continue
        if row.startswith("phase "):
            pid, _, title = row[6:].partition(" ")
            phase = f"phase {pid}"
            if pid > o.until:
                break
            out.lines += ["", f"# -- {pid} {title} " + "-" * max(4, 76 - len(title)), f"phase {pid}"]
            locate.phase()
        elif row.startswith("§"):
            spec, _, reason = row[1:].partition("|")
            clause = Clause(locate.locate(spec.strip(), where))
            out.clauses.append(clause)
            if reason.strip():
                clause.reason = reason.strip().removeprefix("not enacted:").strip()
                out.lines.append(f"# {clause.where} 「{clause.cite.quote}」 not enacted: {clause.reason}")
                continue
            group = group + [clause] if first else [clause]
            first = True
        elif row.startswith("#"):
            out.lines.append("# " + row.lstrip("#").strip())
        else:
            event, _, note = row.partition("#")
            if not group:
                raise StagingError(f"{where}: an event before any § clause: {row}")
            note = note.strip()
            comment = " ".join(
                x
                for x in (
                    _where(group),
                    " … ".join(c.cite.quote for c in group) if first else "",
                    f"({note})" if note else "",
                )
                if x
            )
            out.enacts[len(out.lines)] = tuple(group)
            out.lines.append(f"{event.strip():<44}# {comment}")
            for c in group:
                c.events += 1
            first = False
    return out


def _where(group: list[Clause]) -> str:
    """The text lines of a group of clauses: `L14` or `L14–15`."""
    lo, hi = min(c.cite.line for c in group), max(c.cite.end_line for c in group)
    return f"L{lo}" + (f"–{hi}" if hi != lo else "")


def header(o: Options, cast: Cast, title: str) -> list[str]:
    head = [
        f"# {title}",
        "# Generated by `xiangshe generate` from the libretto (domain/libretto/text/); options:",
        f"#   {o}",
        "",
        *([f"fragment Φ01–{o.until}", ""] if o.until != "Φ52" else []),
        *(
            [
                "# -- the occasion: the main text's, as 郑注 and 贾疏 read it (the 州长 shooting in his 序) -----",
                OCCASION,
            ]
            if not o.jun
            else [
                "# -- the occasion: the ruler's 燕射 in the city, by the 乡射之礼 (记 「君，国中射」) -----------",
                "occasion " + " ".join(f"{k}={v}" for k, v in cast.occasion.items()),
            ]
        ),
        "",
        "# -- the cast " + "-" * 70,
    ]
    head += [f"cast {name} {role}" + (f"    # {note}" if note else "") for name, role, note in cast.members]
    head += ["", "# -- the pairs (耦): 上射 is the senior, on the right " + "-" * 30]
    head += [f"pair {p.name} 上射={p.upper} 下射={p.lower}" for p in cast.pairs]
    return head
