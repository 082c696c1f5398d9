"""The games the site offers, in the order it shows them. A variant the engine
knows joins the site by being listed here (and having its board templates)."""

PLAYABLE_VARIANTS: tuple[str, ...] = ("klondike", "kingsley", "spiderette", "steps", "spike")
