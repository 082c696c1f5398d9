"""How deeply a JSON text nests, measured without parsing it.

Python's json module parses each array or object inside another with a recursive
call, so a text of a thousand nested brackets (2 KB) raises RecursionError in the
parser, or in whatever walks the value afterwards: a server error. Every JSON text
the site reads from a client (an API request's body, whoever parses it: DRF's
parser or allauth's views; a match socket's message) is measured here first and
refused past MAX_DEPTH, far below where any recursion could fail.
"""

import re

MAX_DEPTH = 32
"""The deepest nesting read. The API's own bodies nest two deep (a deal's options,
the settings' list of games), allauth's one."""

# A string (to its closing quote, escapes skipped; an unterminated one to the end of
# the text) or a bracket: the brackets inside strings are text.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def json_too_deep(text: str, *, limit: int = MAX_DEPTH) -> bool:
    """Whether `text`, read as JSON, opens more than `limit` arrays or objects inside
    one another. Brackets left open count (the parser recurses into them before it
    finds the text broken); a closing bracket with nothing open counts for nothing."""
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        bracket = token[0]
        if bracket in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif bracket in ("]", "}"):
            depth = max(depth - 1, 0)
    return False
