"""Whole numbers as a trace writes them: ASCII digits (`3`, `12`) or Chinese numerals as the text
writes them (三, 十, 十一, 二十, 一百零一 …; 〇 for 零, 萬/億 for 万/亿, 两 for 二).

>>> [read_count(w) for w in ("0", "3", "12", "零", "一", "十", "十一", "二十", "九十九", "一百零一")]
[0, 3, 12, 0, 1, 10, 11, 20, 99, 101]
>>> [read_count(w) for w in ("一百一十", "一千零一", "一万", "十万零一十", "两", "一十")]
[110, 1001, 10000, 100010, 2, 10]
>>> [read_count(w) for w in ("", "-1", "三三", "十十", "百", "一百一", "1.5", "三纯")]
[None, None, None, None, None, None, None, None]
"""

from __future__ import annotations

_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "兩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_SMALL = {"十": 10, "百": 100, "千": 1000}
_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
#: the characters a Chinese count may be written in
CHARS = frozenset(_DIGITS) | frozenset(_SMALL) | frozenset(_LARGE)


def _below_10000(word: str) -> int | None:
    """千/百/十 groups, each unit at most once and in falling order; 零 marks a gap; a bare 十 at the
    head is 一十. A digit after a unit must be followed by a smaller unit unless a 零 came before
    it or it is the ones (一百一 is refused: it is read 一百一十 in speech, not 101)."""
    if not word:
        return None
    total, digit, last_unit, gap = 0, None, 10**4, False
    for i, ch in enumerate(word):
        if ch in _DIGITS:
            if _DIGITS[ch] == 0:
                if digit is not None or i == 0 and len(word) > 1:
                    return None
                gap = True
                continue
            if digit is not None:
                return None
            digit = _DIGITS[ch]
        elif ch in _SMALL:
            unit = _SMALL[ch]
            if unit >= last_unit:
                return None
            if digit is None:
                if i != 0 or unit != 10:
                    return None
                digit = 1
            total += digit * unit
            last_unit, digit, gap = unit, None, False
        else:
            return None
    if digit is not None:
        if last_unit > 10 and last_unit != 10**4 and not gap:
            return None  # 一百一: not a plain 101
        total += digit
    elif word in ("零", "〇"):
        return 0
    return total


def read_count(word: str) -> int | None:
    """A whole number ≥ 0 written in ASCII digits or Chinese numerals, or None if it is not one."""
    if not isinstance(word, str) or not word:
        return None
    if word.isascii():
        return int(word) if word.isdigit() else None
    if not set(word) <= CHARS:
        return None
    total, rest = 0, word
    for ch, size in (("亿", 10**8), ("億", 10**8), ("万", 10**4), ("萬", 10**4)):
        if ch in rest:
            head, _, rest = rest.partition(ch)
            if ch in rest or rest and any(c in rest for c in "亿億") and size == 10**4:
                return None
            n = read_count(head) if any(c in head for c in _LARGE) else _below_10000(head)
            if n is None or n == 0:
                return None
            total += n * size
            if rest.startswith(("零", "〇")) and len(rest) > 1:
                rest = rest[1:]
    if rest:
        n = _below_10000(rest)
        if n is None:
            return None
        total += n
    return total
