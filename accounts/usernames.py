"""Usernames that look like another one: NFKC, the mixed-script check, the skeleton.

Pure functions over the text (no database): `accounts.selectors` and
`accounts.services` store and compare skeletons, the sign-up adapter and the admin
forms refuse with `username_check`'s message.

A skeleton is what a name looks like, so that two names with the same skeleton are
look-alikes: NFKC (compatibility forms such as fullwidth letters become plain ones),
then every character is replaced by the representative of its group of Unicode
confusables (Cyrillic a, U+0430, and Latin a share one; so do "l", "I" and "1", and "O"
and "0"), then case-folded and mapped once more. Mapping before case folding keeps
"Ian" and "lan" apart from "ian" only where they look different: "Ian" and "lan"
share a skeleton, "ian" has its own. The groups come from confusable_homoglyphs'
copy of Unicode's confusables list, one character to one character (sequences such
as "rn" for "m" are not taken into account).
"""

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from confusable_homoglyphs import categories, confusables


def username_normalise(username: str) -> str:
    """The form a username is stored in (Django normalises usernames the same way)."""
    return unicodedata.normalize("NFKC", username)


@lru_cache(maxsize=1)
def _representatives() -> dict[str, str]:
    """Character -> the smallest code point among the characters it can be confused
    with, directly or through others (a union-find over the confusables pairs)."""
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        parent.setdefault(char, char)
        while parent[char] != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, homoglyphs in confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for homoglyph in homoglyphs:
            # The list wraps right-to-left characters in LEFT-TO-RIGHT MARKs.
            glyph = homoglyph["c"].replace("\u200e", "")
            if len(glyph) != 1:
                continue
            first, second = root(char), root(glyph)
            if first != second:
                parent[max(first, second)] = min(first, second)
    return {char: root(char) for char in parent}


def _mapped(text: str) -> str:
    representatives = _representatives()
    return "".join(representatives.get(char, char) for char in text)


def username_skeleton(username: str) -> str:
    """What the name looks like: equal skeletons mean look-alike names."""
    return _mapped(_mapped(username_normalise(username)).casefold())


@dataclass(frozen=True)
class MixedScript:
    """Letters of one alphabet (`script`) among letters of another that they look like."""

    script: str
    characters: str
    among: str


def _script_name(alias: str) -> str:
    return alias.replace("_", " ").title()


def username_mixed_script(username: str) -> MixedScript | None:
    """The look-alike letters of a name that mixes alphabets, or None when it uses
    one alphabet (digits and "_ . @ + -" belong to none), or mixes alphabets whose
    letters do not look like one another."""
    name = username_normalise(username)
    scripts = categories.unique_aliases(name) - {"COMMON"}
    if len(scripts) < 2:
        return None
    counts = {script: sum(categories.alias(char) == script for char in name) for script in scripts}
    # The alphabet most of the name is written in; the others are the intruders.
    main = max(sorted(scripts), key=lambda script: counts[script])
    found = confusables.is_confusable(name, greedy=True, preferred_aliases=[main])
    if not found:
        return None
    intruders = [item["character"] for item in found]
    return MixedScript(
        script=" and ".join(sorted({_script_name(item["alias"]) for item in found})),
        characters="".join(intruders),
        among=_script_name(main),
    )


def username_mixed_script_message(mixed: MixedScript) -> str:
    quoted = ", ".join(f'"{char}"' for char in mixed.characters)
    return (
        f"This username mixes alphabets with letters that look alike: {quoted} "
        f"({mixed.script}) among {mixed.among} letters. Please use letters of one alphabet."
    )


LOOKALIKE_MESSAGE = (
    "This username looks the same as another player's name. Please choose a different one."
)
