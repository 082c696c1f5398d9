"""Reading the challenges' pages in tests: Django's own HTML parser (no third-party
one is installed) with the small part of CSS selectors the tests use: descendants
(`a b`) of simple selectors (`tr`, `#id`, `.class`, `[attr]`, `[attr="value"]`)."""

import re
from collections.abc import Iterator

from django.test.html import Element, parse_html

SIMPLE = re.compile(r'([a-z0-9]+)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]')


def _matches(node: "Node", simple: str) -> bool:
    for tag, id_, class_, attr, value in SIMPLE.findall(simple):
        if tag and node.name != tag:
            return False
        if id_ and node.attrs.get("id") != id_:
            return False
        if class_ and class_ not in node.classes:
            return False
        if attr and (attr not in node.attrs or (value and node.attrs[attr] != value)):
            return False
    return True


class Node:
    def __init__(self, element: Element) -> None:
        self.element = element
        self.name = element.name
        self.attrs = {key: value or "" for key, value in element.attributes}

    def __getitem__(self, key: str) -> str:
        return self.attrs[key]

    def get(self, key: str, default: str = "") -> str:
        return self.attrs.get(key, default)

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    @property
    def text(self) -> str:
        parts = (
            child if isinstance(child, str) else Node(child).text for child in self.element.children
        )
        return " ".join(" ".join(parts).split())

    def _descendants(self) -> Iterator["Node"]:
        for child in self.element.children:
            if isinstance(child, Element):
                node = Node(child)
                yield node
                yield from node._descendants()

    def select(self, selector: str) -> list["Node"]:
        found = [self]
        for simple in selector.split():
            seen: dict[int, Node] = {}
            for node in found:
                for below in node._descendants():
                    if _matches(below, simple):
                        seen.setdefault(id(below.element), below)
            found = list(seen.values())
        return found

    def select_one(self, selector: str) -> "Node | None":
        found = self.select(selector)
        return found[0] if found else None


def page(html: bytes | str) -> Node:
    text = html.decode() if isinstance(html, bytes) else html
    # One root whatever the answer is: a whole page or a partial of several elements.
    root = parse_html("<div>" + text.removeprefix("<!doctype html>") + "</div>")
    assert isinstance(root, Element)
    return Node(root)
