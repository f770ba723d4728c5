"""The README is a guide a newcomer reads to the end, and its links lead somewhere.

README.md stays short (its records live under docs/), every relative link of README.md and of
docs/*.md names a file that exists (and, with a #fragment, a heading of that file), and every
command of the command line is shown in the README or in a page it links to: a reader finds
each within two clicks.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
import typer.main

from ladder.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
MAX_README_LINES = 220

# [text](target) outside code; images too. Targets with a scheme (http:, mailto:) are external.
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")


def prose(text: str) -> str:
    """`text` without fenced code blocks and inline code, where brackets are not links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def relative_links(page: Path) -> list[str]:
    """The relative link targets of a Markdown page (no scheme, not a bare #fragment)."""
    targets = LINK.findall(prose(page.read_text(encoding="utf-8")))
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I)]


def anchors(page: Path) -> set[str]:
    """The #fragments GitHub gives the headings of a Markdown page (lower case, punctuation
    dropped, spaces to hyphens; repeated headings numbered -1, -2 ...)."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        text = m.group(1).lower()
        slug = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
        slug = slug.replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def resolve(page: Path, target: str) -> tuple[Path, str]:
    """The file and the fragment a relative link of `page` names."""
    path, _, fragment = target.partition("#")
    return ((page.parent / path).resolve() if path else page), fragment


def test_the_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, (
        f"README.md has {len(lines)} lines (at most {MAX_README_LINES}): move records to docs/")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page):
    broken = []
    for target in relative_links(page):
        path, fragment = resolve(page, target)
        if not path.exists():
            broken.append(f"{target} (no file {path.relative_to(ROOT)})")
        elif fragment and path.suffix == ".md" and fragment not in anchors(path):
            broken.append(f"{target} (no heading #{fragment} in {path.name})")
    assert not broken, f"{page.relative_to(ROOT)}: broken links: {', '.join(broken)}"


def test_the_checker_sees_a_broken_link(tmp_path):
    """The link test above can fail: a missing file and a missing heading are both caught,
    and a link inside code is not a link."""
    (tmp_path / "other.md").write_text("# A heading\n\n## Second: part (two)\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md#second-part-two) [gone](missing.md) [bad](other.md#nope)\n"
                    "`[code](nowhere.md)` [web](https://example.org)\n")
    targets = relative_links(page)
    assert targets == ["other.md#second-part-two", "missing.md", "other.md#nope"]
    assert not resolve(page, "missing.md")[0].exists()
    assert "second-part-two" in anchors(tmp_path / "other.md")
    assert "nope" not in anchors(tmp_path / "other.md")


def cli_commands() -> list[str]:
    """Every command of `tianti` as typed: 'tianti play', 'tianti ladder show' ..."""
    out: list[str] = []

    def walk(command, words: list[str]) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*words, name])
        else:
            out.append(" ".join(words))

    walk(typer.main.get_command(app), ["tianti"])
    return sorted(out)


def reachable_text() -> str:
    """The README and every page under docs/ that it links to (one click; their own links are
    the second)."""
    texts = [README.read_text(encoding="utf-8")]
    for target in relative_links(README):
        path, _ = resolve(README, target)
        if path.suffix == ".md" and path.exists():
            texts.append(path.read_text(encoding="utf-8"))
    return "\n".join(texts)


def test_every_command_is_shown_within_a_click_of_the_readme():
    commands = cli_commands()
    assert "tianti ladder show" in commands and "tianti play" in commands
    text = reachable_text()
    # `tianti ladder h2h | recompute | export`: alternatives after a command count as shown.
    shown = set(re.findall(r"tianti(?: [a-z][a-z0-9-]*)+", text))
    for head, rest in re.findall(r"(tianti [a-z-]+) ([a-z0-9-]+ [^\n]*\|[^\n`]*)", text):
        shown.update(f"{head} {part.split()[0]}" for part in rest.split("|") if part.split())
    missing = [c for c in commands if not any(s == c or s.startswith(c + " ") for s in shown)]
    assert not missing, f"commands shown neither in README.md nor a page it links: {missing}"
