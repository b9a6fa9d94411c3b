"""Markdown (the OGS Joseki Explorer's comments) as safe HTML and as plain text, by markdown-it-py.

markdown-it-py (CommonMark, maintained by the Executable Books project, already what rich reads
Markdown with) is run with raw HTML off, so any HTML in a comment is escaped, and without images;
a link is kept only to an http or https address, and gets ``rel="noopener noreferrer"``; any other
link stays as its text. What is left: paragraphs, line breaks, headings, emphasis, lists, quotes,
code and those links. The plain text is the same document for a terminal: headings and paragraphs
as lines, list items after ``-`` (or their number), a link's address after its text.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

SAFE_SCHEMES = ("http://", "https://")


def _safe_link(url: str) -> bool:
    return url.strip().lower().startswith(SAFE_SCHEMES)


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable(["image", "hr"])  # the safe subset has no rule or image (a "---" under a line is a heading)
    md.validateLink = _safe_link  # type: ignore[method-assign]

    def link_open(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        tokens[idx].attrSet("rel", "noopener noreferrer")
        return str(self.renderToken(tokens, idx, options, env))

    md.add_render_rule("link_open", link_open)
    md.core.ruler.push("unsafe_links_as_text", _unsafe_links_as_text)
    return md


def _unsafe_links_as_text(state: Any) -> None:
    """Drop the link tokens around a link whose address is not http(s), keeping its text: markdown-it checks an
    address with ``validateLink`` only when there is one, so ``[text]()`` would otherwise be a link to nothing."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        kept: list[Token] = []
        dropped: list[bool] = []  # for each open link, whether its tokens are dropped
        for token in block.children:
            if token.type == "link_open":
                dropped.append(not _safe_link(str(token.attrGet("href") or "")))
                if dropped[-1]:
                    continue
            elif token.type == "link_close" and dropped and dropped.pop():
                continue
            kept.append(token)
        block.children = kept


def markdown_html(text: str) -> str:
    """``text`` read as Markdown, as HTML of the safe subset (a fenced block's language is not kept)."""
    md = _parser()
    tokens = md.parse(text)
    for token in tokens:
        if token.type == "fence":
            token.info = ""
    return str(md.renderer.render(tokens, md.options, {}))


def markdown_text(text: str) -> str:
    """``text`` read as Markdown, as plain text: one line a heading or paragraph line, blank lines between blocks."""
    blocks: list[tuple[str, bool]] = []
    prefixes: list[str] = []
    numbers: list[int] = []
    for token in _parser().parse(text):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            numbers.append(int(token.attrGet("start") or 1) if token.type == "ordered_list_open" else 0)
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            numbers.pop()
        elif token.type == "list_item_open":
            if numbers and numbers[-1]:
                prefixes.append(f"{numbers[-1]}. ")
                numbers[-1] += 1
            else:
                prefixes.append("- ")
        elif token.type == "list_item_close":
            prefixes.pop()
        elif token.type == "inline":
            line = _inline_text(token.children or [])
            indent = "  " * max(0, len(prefixes) - 1)
            blocks.append((indent + (prefixes[-1] if prefixes else "") + line, bool(prefixes)))
            if prefixes:
                prefixes[-1] = " " * len(prefixes[-1])
        elif token.type in ("fence", "code_block"):
            blocks.append((token.content.rstrip("\n"), bool(prefixes)))
    out: list[str] = []
    previous = False
    for index, (block, listed) in enumerate(b for b in blocks if b[0].strip()):
        if index:
            out.append("\n" if listed and previous else "\n\n")
        out.append(block)
        previous = listed
    return "".join(out)


def _inline_text(children: list[Token]) -> str:
    out: list[str] = []
    links: list[tuple[str, int]] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type == "softbreak":
            out.append(" ")
        elif child.type == "hardbreak":
            out.append("\n")
        elif child.type == "link_open":
            links.append((str(child.attrGet("href") or ""), len(out)))
        elif child.type == "link_close" and links:
            href, start = links.pop()
            if href and "".join(out[start:]).strip() != href:
                out.append(f" ({href})")
    return "".join(out).strip()
