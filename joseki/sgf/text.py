"""Decoding SGF text: the one home of how a file's bytes become the text of its values.

The charset is chosen once per file (:func:`charset_of`), from the root's ``CA`` and the bytes:

- a ``CA`` Python knows is honoured, read as its superset where a server writes one under the
  older name (GB2312 and GBK as GB18030, Shift_JIS as CP932, EUC-KR as CP949, Big5 as Big5-HKSCS),
  but for a one-byte charset (Latin-1 ...) on text that is UTF-8, which such text never is by chance;
  in Shift_JIS, Big5 and GBK a character's second byte may be a backslash, so their escapes are read
  after decoding (one such character just before a value's ``]`` still ends the value early, as in
  every SGF reader);
- a file without ``CA`` that is valid UTF-8 is UTF-8 (what every modern server writes);
- a file without ``CA`` that is not is given to charset-normalizer, a maintained detector,
  among the charsets Go records come in (:data:`CANDIDATES`);
- a ``CA`` that the bytes do not fit (a wrong ``CA``), or one Python does not know, is replaced by
  the detector's choice when that reads every byte, with a warning; otherwise the declared charset
  (or UTF-8) reads the file with invalid bytes replaced, and each value with some is counted.

A file's name is decoded for a player by :func:`file_name` (percent-encoded bytes, a name in another
charset than the file system's).

One damage is recognised: UTF-8 whose bytes 0x81, 0x8D, 0x8F, 0x90 and 0x9D were lost to ``?``
on a round trip through Windows-1252 (the Fox server's records as published). The lost byte
cannot be known, so each such character is read as one ``?`` (counted), never as replacement
characters around a stray ``?``.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field
from urllib.parse import unquote_to_bytes

from sgfmill import sgf_grammar

from joseki.core.limits import MAX_VALUE_BYTES, beyond

SUPERSETS = {"gb2312": "gb18030", "gbk": "gb18030", "cp936": "gb18030", "shift_jis": "cp932",
             "euc_kr": "cp949", "big5": "big5hkscs", "ascii": "utf-8"}
"""Python's name of a declared charset -> the charset it is read as (a superset of it)."""
CANDIDATES = ("utf_8", "gb18030", "big5hkscs", "cp932", "cp949", "cp1252")
"""The charsets the detector chooses among: those Go servers and editors write."""
_WHITESPACE = bytes.maketrans(b"\t\f\v", b"   ")
_LOST = re.compile(rb"[\xc2-\xdf]\?|[\xe0-\xef](?:\?[\x80-\xbf]|[\x80-\xbf]\?|\?\?)|"
                   rb"[\xf0-\xf4](?:[?\x80-\xbf]{3})")
"""A UTF-8 character one of whose continuation bytes is a ``?`` (see the module's note on lost bytes)."""
_LOST_BYTES = (0x81, 0x8D, 0x8F, 0x90, 0x9D)


@dataclass(slots=True)
class SgfText:
    """How one file's values are read: the charset, how it was chosen, and what could not be read."""

    encoding: str
    """Python's name of the charset the values are read in."""
    chosen: str
    """``declared`` (the file's CA), ``default`` (UTF-8 without CA), ``detected`` (charset-normalizer)."""
    warnings: list[str] = field(default_factory=list)
    """What was wrong with the declared charset (an unknown or wrong CA) and what was read instead."""
    lost: bool = False
    """The file is UTF-8 with bytes lost to ``?`` (see the module's note)."""
    replaced: int = 0
    """Values read with bytes invalid in :attr:`encoding` (each such byte replaced)."""
    escapes_after: bool = False
    """A backslash may be the second byte of a character (Shift_JIS, Big5, GBK...): escapes are read after decoding."""

    def __post_init__(self) -> None:
        self.escapes_after = not _single_byte(self.encoding) and self.encoding != "utf-8"

    def text(self, raw: bytes, key: str = "text") -> str:
        """The SGF value ``raw`` of property ``key`` as text (escapes and line breaks per the SGF text type);
        LimitError past :data:`~joseki.core.limits.MAX_VALUE_BYTES`."""
        if len(raw) > MAX_VALUE_BYTES:
            raise beyond(f"a {key} value", MAX_VALUE_BYTES, "bytes")
        if b"\\" not in raw and b"\r" not in raw:  # sgfmill's text_value then only maps whitespace
            return self.decode(raw.translate(_WHITESPACE))
        if self.escapes_after:
            return _text_value(self.decode(raw))
        return self.decode(sgf_grammar.text_value(raw))

    def decode(self, value: bytes) -> str:
        """Bytes of this file as text, counting a value with bytes that could not be read."""
        try:
            return value.decode(self.encoding)
        except UnicodeDecodeError:
            pass
        self.replaced += 1
        if self.lost:
            value = _LOST.sub(b"?", value)
        return value.decode(self.encoding, errors="replace")

    def finish(self) -> list[str]:
        """The warning about the values read so far that had bytes which could not be read (none: [])."""
        if not self.replaced:
            return []
        what = ("characters whose bytes were lost to '?' upstream, each shown as '?'" if self.lost
                else f"bytes invalid in {self.encoding}; replaced")
        return [f"{self.replaced} text values had {what}"]


def charset_of(data: bytes, declared: bytes | str | None = None) -> SgfText:
    """How to read the values of SGF ``data`` whose root declares ``CA[declared]`` (None or empty: none)."""
    name = (declared.decode("ascii", "replace") if isinstance(declared, bytes) else declared or "").strip()
    if name:
        try:
            encoding = SUPERSETS.get(codecs.lookup(name).name, codecs.lookup(name).name)
        except LookupError:
            return _undeclared(data, f"unknown charset CA[{name}]")
        if encoding != "utf-8" and not data.isascii() and _single_byte(encoding) and _reads(data, "utf-8"):
            return SgfText("utf-8", "default", [f"CA[{name}], but the text is UTF-8: read as UTF-8"])
        if _reads(data, encoding):
            return SgfText(encoding, "declared")
        return _undeclared(data, f"CA[{name}] does not fit the file's bytes", encoding)
    return _undeclared(data)


def _undeclared(data: bytes, problem: str = "", fallback: str = "utf-8") -> SgfText:
    """A file whose charset is not declared, or not rightly: UTF-8 if it reads so, else the detector's choice,
    else ``fallback`` with invalid bytes replaced; ``problem`` (if any) is told with the choice."""
    def told(encoding: str) -> list[str]:
        return [f"{problem}: read as {encoding}"] if problem else []

    if _reads(data, "utf-8"):
        return SgfText("utf-8", "default", told("UTF-8"))
    if fallback == "utf-8" and _lost_to_question_marks(data):
        return SgfText("utf-8", "default", told("UTF-8"), lost=True)
    detected = detect(data)
    if detected is not None and _reads(data, detected):
        return SgfText(detected, "detected", told(detected))
    return SgfText(fallback, "declared" if fallback != "utf-8" else "default", told(fallback))


def detect(data: bytes) -> str | None:
    """charset-normalizer's choice of charset for ``data`` among :data:`CANDIDATES` (None: none reads it), as the
    name :func:`charset_of` reads it by: its first match whose text has none of the characters a wrong CJK choice
    yields (see :func:`_unlikely`)."""
    from charset_normalizer import from_bytes

    matches = list(from_bytes(_non_ascii_values(data), cp_isolation=list(CANDIDATES)))
    if not matches:
        return None
    best = next((m for m in matches if not _unlikely(str(m))), matches[0])
    name = codecs.lookup(best.encoding).name
    return SUPERSETS.get(name, name)


def _unlikely(text: str) -> bool:
    """Whether ``text`` holds what short CJK text read in another CJK charset turns into: half-width katakana
    (Big5 or GB read as CP932), Hangul syllables outside KS X 1001 (GB or Big5 read as CP949), the rare
    ideographs of GB18030's four-byte codes (another charset read as GB18030), C1 controls or private-use
    characters."""
    return bool(_UNLIKELY.search(text)) or any("\uac00" <= ch <= "\ud7a3" and not _in_ks_x_1001(ch) for ch in text)


def _in_ks_x_1001(ch: str) -> bool:
    try:
        ch.encode("euc_kr")
    except UnicodeEncodeError:
        return False
    return True


_UNLIKELY = re.compile("[\uff61-\uff9f\u0080-\u009f\ue000-\uf8ff\u3400-\u4dbf\U00010000-\U0010ffff]")


def _non_ascii_values(data: bytes) -> bytes:
    """The values of ``data`` holding non-ASCII bytes, a line each: the text the detector should judge
    (the moves' letters would only dilute it)."""
    values = [v for v in re.findall(rb"\[((?:[^\]\\]|\\.)*)\]", data, re.DOTALL) if not v.isascii()]
    return b"\n".join(values) or data


_NEWLINE = re.compile(r"\n\r|\r\n|\n|\r")
_CHUNK = re.compile(r"[^\n\\]+|[\n\\]")
_SPACES = str.maketrans("\t\f\v", "   ")


def _text_value(text: str) -> str:
    """sgfmill's ``text_value`` on text: line breaks as ``\\n``, other whitespace as spaces, escapes read."""
    result, escaped = [], False
    for chunk in _CHUNK.findall(_NEWLINE.sub("\n", text).translate(_SPACES)):
        if escaped:
            if chunk != "\n":
                result.append(chunk)
            escaped = False
        elif chunk == "\\":
            escaped = True
        else:
            result.append(chunk)
    return "".join(result)


def _single_byte(encoding: str) -> bool:
    """Whether ``encoding`` gives one character per byte (Latin-1, Windows-1252, KOI8-R ...)."""
    return len(bytes(range(128, 256)).decode(encoding, errors="replace")) == 128


def _reads(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _lost_to_question_marks(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 but for characters with a byte lost to ``?`` (see the module's note)."""
    if b"?" not in data:
        return False
    return _reads(_LOST.sub(lambda m: _restore_any(m.group(0)), data), "utf-8")


def _restore_any(sequence: bytes) -> bytes:
    """``sequence`` with each ``?`` replaced by one of the lost bytes that makes it a UTF-8 character, if any."""
    for byte in _LOST_BYTES:
        candidate = sequence.replace(b"?", bytes([byte]))
        if _reads(candidate, "utf-8"):
            return candidate
    return sequence


_PERCENT = re.compile(rb"%[0-9A-Fa-f]{2}")


def file_name(name: str) -> str:
    """A file's name (or path) as a player reads it: percent-encoded bytes (``%E6%9D%8E.sgf``, or the ``%XX`` of
    :func:`joseki.sgf.archive.storable`) decoded, and bytes that are not UTF-8 (which Python keeps as surrogate
    escapes) read in the detector's charset (:func:`detect`; a short name may be told wrongly), never shown as
    escapes."""
    raw = os.fsencode(name)
    if _PERCENT.search(raw):
        raw = unquote_to_bytes(raw)
    if _reads(raw, "utf-8"):
        return raw.decode("utf-8")
    return raw.decode(detect(raw) or "utf-8", errors="replace")
