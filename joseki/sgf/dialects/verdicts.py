"""Verdicts in free text (Kogo's style): which move a sentence gives a verdict on, and which verdict.

Kogo's comments often speak of other moves than the one they sit on. "'a' is correct, 'b'
is a mistake" rates two continuations marked on the board by labels; "White 12 is a
mistake" rates move 12 of the line; "* Joseki *" or "A mistake." rates the node's own
move. So a verdict names its :class:`~joseki.sgf.dialects.targets.Target`: ``self``, a
``label`` (lower case), or a ``move`` number. Sentences are cut into clauses (at commas, "but",
parentheses); in each clause a verdict word rates the subjects written before it ("'b' is a
mistake"), or after it for a few verbs ("Black continues with 'a'"). A negation before the
verdict turns it ("'a' or 'b' don't work", "not a mistake"). Conditional sentences ("If ...")
and counterfactual ones ("... would be better at 'a'"), and assessments of the whole position
("good for White", "the result favors Black") rate no move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from joseki.core.regex import LazyPattern
from joseki.sgf.dialects.targets import LABEL, MOVE, SELF, Target


@dataclass(frozen=True, slots=True)
class Verdict:
    """One category given to one target, with the sentence that gave it."""

    target: Target
    category: str
    text: str


_SENTENCE = LazyPattern(r"(?<=[.!?])(?<!\besp\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bcf\.)(?<!\bvs\.)\s+"
                       r"|\n\s*\n\s*|\n(?=\s*[A-Z'\"*(<#-])")
_TOKEN = LazyPattern(r"'[a-z](?:\s*\*)?'|[a-z]+(?:['-][a-z]+)*|\d+|->|--|\S")


def _expand(spec: str) -> list[tuple[str, ...]]:
    """Phrases of a spec: ``|`` between phrases, ``/`` between words, ``[word]`` optional."""
    phrases: list[tuple[str, ...]] = []
    for phrase in spec.split("|"):
        partial: list[tuple[str, ...]] = [()]
        for word in phrase.split():
            optional = word.startswith("[")
            choices = word.strip("[]").split("/")
            partial = [(*p, c) for p in partial for c in choices] + (partial if optional else [])
        phrases.extend(partial)
    return phrases


FORWARD = "forward"
_LEXICON = (
    (FORWARD, "good", "continue/continues/continuing/respond/responds/answer/answers/replies/reply with/at/by/on"
                      "|should/must/can/will/may/could [also] play/answer/respond"
                      "|should/must/can/will/may/could [also] continue with"
                      "|the correct/best/proper/usual/normal/joseki move/answer/response/continuation is"),
    ("fixed", "good", "not [a/an/the] mistake/bad/wrong/overplay"),
    ("fixed", "mistake", "not correct/possible/playable|tricked|no good|out of the question"),
    ("fixed", "question", "at best|not recommended|not joseki"
                          "|not [the] best/usual/proper/good/ideal/advisable/necessary"
                          "|not urgent/sufficient/enough|no longer [considered] joseki/played/popular/recommended/used"
                          "|before its time|too slow/passive/soft/timid/fearful/greedy/narrow/close/thin/low/high"
                          "|too risky/tight/loose/early/much/small/submissive/defensive/aggressive"),
    ("word", "mistake", "mistake/mistakes/blunder/blunders/bad/wrong/unreasonable/overplay/overplays/failure/failures"
                        "|fail/fails/unthinkable/self-destructive/terrible/erroneous/foolish/silly/pointless/suicidal"
                        "|impossible/unplayable"),
    ("word", "trick", "trick/tricky/tricks/hamete/trap/traps|trick/tricky play/move/plays/moves"),
    ("word", "question", "questionable/dubious/doubtful/inferior/disadvantageous/submissive/slack/passive/heavy/weak"
                         "|old-fashioned/unusual/misplaced/premature/needless/needlessly/unnecessary/useless/risky"
                         "|greedy/crude/vulgar/awkward/ugly/clumsy/insufficient/slow/overconcentrated/thin"),
    ("fixed", "ideal", "* joseki *|* good variation *"),
    ("fixed", "good", "old/older/ancient/also/another joseki"),
    ("word", "ideal", "correct/joseki/best/honte/proper/necessary/vital/ideal|only move"),
    ("effect", "good", "work/works/help/helps/kill/kills/live/lives/succeed/succeeds/connect/connects|escape/escapes"),
    ("word", "good", "ok/okay/possible/playable/good/miai/reasonable/fine/normal/common/usual/standard/solid"
                     "|equivalent/better/popular/sensible/natural/simple/tesuji/viable/feasible/steady/calm/acceptable"),
)


class _PhraseNode:
    """A node of the lexicon's trie of phrases: the verdict of the phrase ending here, if any."""

    __slots__ = ("next", "verdict")

    def __init__(self) -> None:
        self.verdict: tuple[int, str, str] | None = None  # (phrase length, category, kind)
        self.next: dict[str, _PhraseNode] = {}


@cache
def _phrases() -> dict[str, _PhraseNode]:
    """The lexicon's phrases by first word (built on first use); a phrase listed twice keeps its first entry."""
    phrases: dict[str, _PhraseNode] = {}
    for kind, category, spec in _LEXICON:
        for phrase in _expand(spec):
            node = phrases.setdefault(phrase[0], _PhraseNode())
            for word in phrase[1:]:
                node = node.next.setdefault(word, _PhraseNode())
            if node.verdict is None:
                node.verdict = (len(phrase), category, kind)
    return phrases


def _longest_phrase(words: list[str], i: int) -> tuple[int, str, str] | None:
    """The verdict of the longest lexicon phrase starting at word ``i``."""
    node: _PhraseNode | None = _phrases().get(words[i])
    found = None
    j = i + 1
    while node is not None:
        if node.verdict is not None:
            found = node.verdict
        if j == len(words):
            break
        node = node.next.get(words[j])
        j += 1
    return found

_COMPARATIVES = frozenset({"less", "more", "most", "least", "somewhat"})
_NEGATIONS = frozenset({"not", "never", "neither", "nor", "hardly", "nothing"})
_CLAUSE_WORDS = frozenset({",", ";", ":", "(", ")", "->", "--", "-", "but", "while", "whereas", "though", "although",
                           "however", "since", "because", "if", "unless", "when", "whether"})
_CLAUSE_CONDITIONS = frozenset({"if", "unless", "when", "whether"})
_CONDITIONAL = frozenset({"if", "when", "unless", "depending", "provided", "once", "after", "should", "in case",
                          "as long"})
_COLLECTIVE = frozenset({"neither", "both", "either", "none", "all"})
_PREPOSITIONS = frozenset({"than", "of", "from", "at", "on", "onto", "under", "below", "above", "against", "after",
                           "before", "beside", "behind", "near", "capture", "captures", "capturing", "for", "by",
                           "between", "like", "as", "into", "to", "toward", "towards", "with", "instead", "rather",
                           "over", "cutting", "cut", "save", "saving"})
_CONNECTORS = frozenset({"or", "and", "nor", "either", "neither", "to", "through", "possibly", "maybe", "perhaps",
                         "also", "black", "white", ",", ".", ";", "!", "?", "*", '"', "&"})
_FILLER = frozenset({"a", "an", "the", "is", "are", "this", "that", "it", "move", "play", "also", "very",
                     "slightly", "clearly", "probably", "still", "now", "here", "quite", "rather", "considered",
                     "simply", "just", "and", "too", "so", "was", "be", "of", "course", "bit", ",", ".", ";", "!",
                     "?", "*", "'", '"', "(", ")"})
_COLOURS = frozenset({"black", "white"})
_ASSESSED = frozenset({"good", "bad", "better", "worse", "best", "favorable", "favourable", "unfavorable",
                       "unfavourable", "advantageous", "disadvantageous", "easier", "difficult", "hard", "painful",
                       "satisfactory", "comfortable", "fine", "ok", "okay", "excellent", "great", "terrible",
                       "dangerous", "severe", "happy", "satisfied", "ahead", "behind", "thick", "strong", "weak",
                       "heavy", "even", "equal", "balanced"})
_PLAYERS = frozenset({"black", "white", "both", "him", "her", "them", "either", "black's", "white's"})
_STATE_VERBS = frozenset({"is", "are", "gets", "get", "stands", "stand", "looks", "look", "comes", "seems", "seem",
                          "remains", "remain", "feels"})
_ASSESSMENT_WORDS = _ASSESSED | {"favors", "favours", "favor", "favour"}
_DEGREE = frozenset({"a", "bit", "little", "slightly", "much", "clearly", "very", "somewhat", "still", "now", "also",
                     "out", "far", "quite"})


@dataclass(slots=True)
class _Phrase:
    """A verdict phrase of a sentence: its words, its category (None: it rates nothing), whether its subjects follow."""

    start: int
    end: int
    category: str | None
    forward: bool


@dataclass(frozen=True, slots=True)
class _Mark:
    start: int
    end: int
    targets: tuple[Target, ...]
    excluded: bool


@lru_cache(maxsize=256)
def sentences(comment: str) -> tuple[str, ...]:
    """The sentences of a comment; a line break inside a sentence (a wrapped line) does not end it.

    Remembered for a while: a comment is read for verdicts, then for conditions.
    """
    return tuple(" ".join(s.split()) for s in _SENTENCE.split(comment) if s and not s.isspace())


def subjects(text: str) -> list[Target]:
    """The moves ``text`` speaks of as subjects (not those after "than", "at", "capture", ...).

    A label after "for" counts ("the ladder for 'e'"); a sentence that opens with "This" or
    "It" speaks of the node's own move.
    """
    words = _TOKEN.findall(text.lower())
    marks = _marks(words)
    found = _targets(m for m in marks if not m.excluded or (m.start and words[m.start - 1] == "for"))
    return found or ([_SELF_TARGET] if _self_at(words, 0) else [])


@lru_cache(maxsize=1 << 16)
def verdicts(comment: str) -> tuple[Verdict, ...]:
    """The verdicts of a free-text comment, in reading order, each target rated once per category."""
    found: list[Verdict] = []
    seen_subject = False
    previous: list[Target] = []
    for index, text in enumerate(sentences(comment)):
        words = _TOKEN.findall(text.lower())
        marks = _marks(words)
        if not words or words[0] in _CONDITIONAL or " ".join(words[:2]) in _CONDITIONAL or "would" in words:
            pass
        elif marks and _is_listing(words, marks, 0, len(words)):
            found.extend(Verdict(t, "good", text) for t in _targets(marks) if t.kind == LABEL)
        else:
            phrases = _phrases_in(words, _assessed(words))
            if phrases:
                bare = index == 0 and not seen_subject and not marks and _bare(words, phrases)
                inherited = previous if not marks and words[0] in _COLLECTIVE else []
                found.extend(_sentence_verdicts(text, words, marks, phrases, bare, inherited))
        seen_subject = seen_subject or bool(marks)
        previous = _targets(m for m in marks if not m.excluded) or previous
    unique: dict[tuple[Target, str], Verdict] = {}
    for v in found:
        unique.setdefault((v.target, v.category), v)
    return tuple(unique.values())


def _sentence_verdicts(text: str, words: list[str], marks: list[_Mark], phrases: list[_Phrase], bare: bool,
                       inherited: list[Target]) -> list[Verdict]:
    found: list[Verdict] = []
    last = list(inherited)
    for start, end in _clauses(words, marks):
        clause_phrases = [p for p in phrases if start <= p.start < end]
        clause_marks = [m for m in marks if start <= m.start < end]
        self_mark = _self_at(words, start)
        since = start
        for number, phrase in enumerate(clause_phrases):
            if phrase.forward:
                subjects = _forward_subjects(clause_marks, phrase, clause_phrases, end)
            else:
                subjects = _targets(m for m in clause_marks if since <= m.start < phrase.start and not m.excluded)
                if not subjects and self_mark and number == 0:
                    subjects = [_SELF_TARGET]
            since = phrase.end
            if subjects:
                last = subjects
            elif number == 0 and last:
                subjects = last
            elif bare:
                subjects = [_SELF_TARGET]
            if phrase.category is not None:
                found.extend(Verdict(t, phrase.category, text) for t in subjects)
        if not clause_phrases:
            last = _targets(m for m in clause_marks if not m.excluded) or ([_SELF_TARGET] if self_mark else last)
    return found


def _self_at(words: list[str], i: int) -> bool:
    """True if the clause starting at word ``i`` speaks of the node's own move ("This", "White plays elsewhere")."""
    if i >= len(words):
        return False
    if words[i] in ("this", "it"):
        return True
    return words[i] in _COLOURS and words[i + 1 : i + 3] in (["plays", "elsewhere"], ["played", "elsewhere"],
                                                               ["tenukis"])


def _clauses(words: list[str], marks: list[_Mark]) -> list[tuple[int, int]]:
    """Clause spans (word indices) of a sentence, conditional clauses ("if ...") left out.

    A clause of subjects alone ("White 'b',") joins the next one.
    """
    pieces: list[tuple[int, int]] = []
    start = 0
    skip = False
    for i in [i for i, w in enumerate(words) if w in _CLAUSE_WORDS]:
        if i > start and not skip:
            pieces.append((start, i))
        skip = words[i] in _CLAUSE_CONDITIONS
        start = i + 1
    if start < len(words) and not skip:
        pieces.append((start, len(words)))
    if len(pieces) == 1:
        return pieces
    merged: list[tuple[int, int]] = []
    pending: int | None = None
    for start, end in pieces:
        if any(start <= m.start < end for m in marks) and _is_listing(words, marks, start, end):
            pending = start if pending is None else pending
            continue
        merged.append((start if pending is None else pending, end))
        pending = None
    if pending is not None:
        merged.append((pending, len(words)))
    return merged


def _is_listing(words: list[str], marks: list[_Mark], start: int, end: int) -> bool:
    """True if words ``start:end`` are only subjects and connectors ("'a', 'b' or 'c'.")."""
    covered = {i for m in marks for i in range(m.start, m.end)}
    return all(i in covered or words[i] in _CONNECTORS for i in range(start, end))


def _assessed(words: list[str]) -> set[int]:
    """Word indices of assessments of the whole position ("good for White", "Black is better"), which rate no move."""
    masked: set[int] = set()
    if _ASSESSMENT_WORDS.isdisjoint(words):
        return masked
    for i, word in enumerate(words):
        if word in _ASSESSED and words[i + 1 : i + 2] in (["for"], ["to"]) and (
                words[i + 2 : i + 3] and (words[i + 2] in _PLAYERS or words[i + 2] == "the")):
            masked.update(range(i, i + 3))
        elif word in ("favors", "favours", "favor", "favour") and words[i + 1 : i + 2] and words[i + 1] in _PLAYERS:
            masked.update((i, i + 1))
        elif word in _PLAYERS or word in ("result", "position"):
            j = i + 1
            if j < len(words) and words[j] in _STATE_VERBS:
                j += 1
                while j < len(words) and words[j] in _DEGREE:
                    j += 1
                if j < len(words) and words[j] in _ASSESSED:
                    masked.update(range(i, j + 1))
    return masked


def _phrases_in(words: list[str], masked: set[int]) -> list[_Phrase]:
    """The verdict phrases of a sentence, left to right, each turned by a negation since the previous one."""
    spans: list[_Phrase] = []
    previous_end = 0
    negations: list[int] | None = None
    phrases = _phrases()
    for i in [i for i, w in enumerate(words) if w in phrases]:
        if i < previous_end or i in masked:
            continue
        hit = _longest_phrase(words, i)
        if hit is None:
            continue
        length, category, kind = hit
        verdict_category: str | None = None if kind == "effect" else category
        if i and words[i - 1] in _COMPARATIVES:
            verdict_category = None
        elif kind in ("word", "effect"):
            if negations is None:
                negations = [j for j, w in enumerate(words) if w in _NEGATIONS or w.endswith("n't") or w == "longer"]
            if any(previous_end <= j < i for j in negations):
                verdict_category = _negated(category, kind == "effect")
        spans.append(_Phrase(i, i + length, verdict_category, kind == FORWARD))
        previous_end = i + length
    return spans


def _negated(category: str, effect: bool) -> str | None:
    if category in ("ideal", "good"):
        return "mistake" if effect else "question"
    if category in ("question", "mistake"):
        return "good"
    return None


def _forward_subjects(marks: list[_Mark], phrase: _Phrase, phrases: list[_Phrase], end: int) -> list[Target]:
    """The subjects right after a forward verb ("continues with 'a' or 'b'"), up to the next verdict."""
    after = [m for m in marks if m.start >= phrase.end]
    if not after or after[0].start != phrase.end:
        return []
    stop = min((p.start for p in phrases if p.start >= phrase.end), default=end)
    return _targets(m for m in after if m.start < stop)


def _marks(words: list[str]) -> list[_Mark]:
    """Every subject among ``words``, and whether a preposition before it makes it an object."""
    out: list[_Mark] = []
    consumed = -1
    count = len(words)
    for i in [i for i, w in enumerate(words) if w[0] == "'" or w in _COLOURS]:
        word = words[i]
        if i <= consumed:
            continue
        if word[0] == "'":
            if len(word) < 3:
                continue
            first = last = word[1]
            end = i + 1
            if i + 2 < count and words[i + 1] in ("to", "through") and words[i + 2][0] == "'" and len(words[i + 2]) > 2:
                last, end = words[i + 2][1], i + 3
            targets = _LABELS[first] if first >= last else tuple(
                _LABELS[chr(c)][0] for c in range(ord(first), ord(last) + 1) if chr(c) in _LABELS)
        elif i + 1 < count and words[i + 1].isdigit():
            numbers = [int(words[i + 1])]
            end = i + 2
            while end + 1 < count and words[end] in (",", "and", "&") and words[end + 1].isdigit():
                numbers.append(int(words[end + 1]))
                end += 2
            targets = tuple(_move(n, word[0]) for n in numbers)
        else:
            continue
        before = i - 1
        if before >= 0 and words[before] == "(":
            before -= 1
        if before >= 0 and words[before] in _COLOURS and word[0] == "'":
            before -= 1
        out.append(_Mark(i, end, targets, before >= 0 and words[before] in _PREPOSITIONS))
        consumed = end - 1
    return out


def _targets(marks: Iterable[_Mark]) -> list[Target]:
    found: list[Target] = []
    for m in marks:
        for t in m.targets:
            if t not in found:
                found.append(t)
    return found


_LABELS = {chr(c): (Target(LABEL, chr(c)),) for c in range(ord("a"), ord("z") + 1)}
_SELF_TARGET = Target(SELF)


@lru_cache(maxsize=1024)
def _move(number: int, colour: str) -> Target:
    return Target(MOVE, number, colour)


def _bare(words: list[str], phrases: list[_Phrase]) -> bool:
    """True if the sentence is a verdict alone ("Joseki", "A mistake."), so it rates the node's own move."""
    inside = {i for p in phrases for i in range(p.start, p.end)}
    return all(i in inside or w in _FILLER for i, w in enumerate(words))
