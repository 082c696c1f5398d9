"""Goals: what a daily challenge asks of a game, judged from its position and history.

A goal is data (``Goal``: a kind and its figures, stored as JSON); its kind, a small
registered object (``GoalKind``), says it in words and measures a game against it from
the engine's public view of the position and the game's history (moves made, moves
taken back). Nothing hidden takes part: a goal is judged from what the player sees.

Each variant names the kinds it offers (``Variant.goal_kinds``). ``goal_candidates``
lists the goals that a winning line reaches, each with the number of the line's moves
it needs: the daily challenges (the ``challenges`` app) keep only goals proved that
way, and store the line up to that move as the proof (docs/challenges.md).
"""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .cards import RANKS, SUITS
from .errors import EngineError
from .variant import WON, Json, Variant

if TYPE_CHECKING:
    from .solvers import Budget, Solution, Solver

_RANK_WORDS = {
    "A": ("ace", "aces"),
    "2": ("two", "twos"),
    "3": ("three", "threes"),
    "4": ("four", "fours"),
    "5": ("five", "fives"),
    "6": ("six", "sixes"),
    "7": ("seven", "sevens"),
    "8": ("eight", "eights"),
    "9": ("nine", "nines"),
    "T": ("ten", "tens"),
    "J": ("jack", "jacks"),
    "Q": ("queen", "queens"),
    "K": ("king", "kings"),
}
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_NUMBER_WORDS = ("no", "one", "two", "three", "four")
_BADGES = ("bronze", "silver", "gold")
_STREAK_BRACKETS = {3: "Ascent Streak", 5: "Summit Surge", 8: "Avalanche Chain"}


@dataclass(frozen=True, kw_only=True)
class Goal:
    """One goal: its kind and the figures the kind reads (unused ones stay empty)."""

    kind: str
    count: int = 0
    rank: str = ""
    suit: str = ""
    badge: str = ""

    def as_json(self) -> Json:
        data: Json = {"kind": self.kind}
        for name in ("count", "rank", "suit", "badge"):
            value = getattr(self, name)
            if value:
                data[name] = value
        return data


@dataclass(frozen=True, kw_only=True)
class GoalFacts:
    """What a goal is judged from: the public view of the position and the history."""

    public: Mapping[str, Any]
    status: str
    moves: int
    undos: int


@dataclass(frozen=True, kw_only=True)
class Progress:
    """How far a game is from its goal."""

    label: str
    """The goal's measure in words, for the board: "Sevens to the foundations"."""
    done: int
    target: int
    met: bool
    failed: bool = False
    """The game can no longer meet the goal (a move taken back, too many moves): a new
    attempt can."""

    @property
    def text(self) -> str:
        if self.met:
            return f"{self.label}: done"
        if self.failed:
            return f"{self.label}: out of reach in this game"
        return f"{self.label}: {min(self.done, self.target)} of {self.target}"


class GoalKind:
    """A kind of goal. A subclass sets ``key`` and the public hooks: ``check`` (the
    goal's figures), ``describe``, ``progress`` and ``reached`` (the goals a position of
    a line meets, for the candidates); the hooks below say when it is more than a win
    (docs/challenges.md, "More than a win")."""

    key: ClassVar[str]
    figure_stands: ClassVar[bool] = True
    """Whether the figure a solver's winning line meets the goal with says something of
    the deal (its length: the line is direct, a player's is longer). False where the
    searches do not economise the figure (recycles: they turn the waste whenever it
    suits them), so that a bound the solver's own line keeps to asks nothing beyond the
    win: such a goal must be one that line breaks, proved by a search of its own."""

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        """Whether a player can win the deal (``deal``: its facts before the first move)
        and still miss the goal. False by default: a goal every win meets (a foundation
        built, every run removed, every spike cleared, the win itself) is no harder than
        the win."""
        return False

    def search_keeping_to(
        self,
        goal: Goal,
        *,
        solver: "Solver[Any]",
        variant: Variant[Any],
        state: Any,
        budget: "Budget",
    ) -> "Solution | None":
        """The solver's search for a win that meets the goal, for a goal whose figure
        does not stand; None where the solver cannot search under the goal's bound."""
        return None

    def check(self, goal: Goal) -> None:
        """EngineError when the goal's figures do not make a goal of this kind."""
        if goal.count < 1:
            raise EngineError(f"A {self.key} goal needs a count from 1 up, not {goal.count}")

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        raise NotImplementedError

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        raise NotImplementedError

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        """The goals of this kind that the position `facts` (of a winning line of
        `line_length` moves) meets."""
        raise NotImplementedError


_KINDS: dict[str, GoalKind] = {}


def register_goal_kind(cls: type[GoalKind]) -> type[GoalKind]:
    if cls.key in _KINDS:
        raise EngineError(f"The goal kind {cls.key!r} is registered twice")
    _KINDS[cls.key] = cls()
    return cls


def goal_kind(key: str) -> GoalKind:
    found = _KINDS.get(key) if isinstance(key, str) else None
    if found is None:
        raise EngineError(f"Unknown goal kind {key!r}; the kinds are: {', '.join(sorted(_KINDS))}")
    return found


def _won(facts: GoalFacts) -> bool:
    return facts.status == WON


def _counted(label: str, done: int, target: int) -> Progress:
    return Progress(label=label, done=done, target=target, met=done >= target)


def _foundation_counts(public: Mapping[str, Any]) -> dict[str, int]:
    return {pile["suit"]: int(pile["count"]) for pile in public.get("foundations", ())}


@register_goal_kind
class WinGoal(GoalKind):
    key = "win"

    def check(self, goal: Goal) -> None:
        pass

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return "Win the deal"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        return Progress(label="Win the deal", done=int(_won(facts)), target=1, met=_won(facts))

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        if _won(facts):
            yield Goal(kind=self.key)


@register_goal_kind
class WinWithinGoal(GoalKind):
    """Win in at most `count` moves (the moves of the game's log, undone ones apart)."""

    key = "win_within"
    SLACKS = (0.5, 0.25, 0.1)
    """Moves over the line's length that a goal allows, as a share of it."""

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return f"Win in at most {goal.count} moves"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        label = f"Win within {goal.count} moves"
        return Progress(
            label=label,
            done=int(_won(facts)),
            target=1,
            met=_won(facts) and facts.moves <= goal.count,
            failed=facts.moves > goal.count,
        )

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        return True  # no game limits a win's moves

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        if _won(facts):
            for slack in self.SLACKS:
                yield Goal(kind=self.key, count=line_length + max(3, round(line_length * slack)))


@register_goal_kind
class WinWithoutUndoGoal(GoalKind):
    key = "win_without_undo"

    def check(self, goal: Goal) -> None:
        pass

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return "Win without taking a move back"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        return Progress(
            label="Win with no move taken back",
            done=int(_won(facts)),
            target=1,
            met=_won(facts) and facts.undos == 0,
            failed=facts.undos > 0,
        )

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        return True  # every game with goals lets a move be taken back

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        if _won(facts) and facts.undos == 0:
            yield Goal(kind=self.key)


@register_goal_kind
class RankToFoundationsGoal(GoalKind):
    """`count` cards of one rank on the foundations (built up from the ace)."""

    key = "foundation_rank"

    def check(self, goal: Goal) -> None:
        if goal.rank not in RANKS or len(goal.rank) != 1:
            raise EngineError(f"A foundation_rank goal needs a rank of {RANKS}, not {goal.rank!r}")
        if not 1 <= goal.count <= len(SUITS):
            raise EngineError(f"A foundation_rank goal counts 1 to 4 cards, not {goal.count}")

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        one, many = _RANK_WORDS[goal.rank]
        cards = one if goal.count == 1 else many
        return f"Play {_NUMBER_WORDS[goal.count]} {cards} to the foundations"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        value = RANKS.index(goal.rank) + 1
        done = sum(count >= value for count in _foundation_counts(facts.public).values())
        label = f"{_RANK_WORDS[goal.rank][1].capitalize()} to the foundations"
        return _counted(label, done, goal.count)

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        counts = _foundation_counts(facts.public).values()
        for value, rank in enumerate(RANKS, start=1):
            for count in range(1, sum(c >= value for c in counts) + 1):
                yield Goal(kind=self.key, rank=rank, count=count)


@register_goal_kind
class SuitToFoundationGoal(GoalKind):
    """One suit's foundation built up to `count` cards (ace to that rank)."""

    key = "foundation_suit"

    def check(self, goal: Goal) -> None:
        if goal.suit not in SUITS:
            raise EngineError(f"A foundation_suit goal needs a suit of {SUITS}, not {goal.suit!r}")
        if not 2 <= goal.count <= len(RANKS):
            raise EngineError(f"A foundation_suit goal counts 2 to 13 cards, not {goal.count}")

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        top = _RANK_WORDS[RANKS[goal.count - 1]][0]
        return f"Build the {_SUIT_WORDS[goal.suit]} foundation from the ace up to the {top}"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        done = _foundation_counts(facts.public).get(goal.suit, 0)
        return _counted(f"The {_SUIT_WORDS[goal.suit]} foundation", done, goal.count)

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        for suit, count in _foundation_counts(facts.public).items():
            for built in range(2, count + 1):
                yield Goal(kind=self.key, suit=suit, count=built)


@register_goal_kind
class CardsToFoundationsGoal(GoalKind):
    """`count` cards on the foundations in all (also Klondike's score goal while its
    points table is not published, and Kingsley's score)."""

    key = "foundation_cards"
    STEPS = (5, 10, 15, 20, 26, 30, 35, 40, 45)

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return f"Put {goal.count} cards on the foundations"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        done = sum(_foundation_counts(facts.public).values())
        return _counted("Cards on the foundations", done, goal.count)

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        done = sum(_foundation_counts(facts.public).values())
        for count in self.STEPS:
            if count <= done:
                yield Goal(kind=self.key, count=count)


@register_goal_kind
class ScoreGoal(GoalKind):
    """A score of `count` or more, as the variant keeps it (Steps: the Architect Ledger;
    Spike: the Summit ledger)."""

    key = "score"

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return f"Reach {goal.count} on the {variant.score_name}"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        done = int(facts.public.get("score", 0))
        return _counted("Score", done, goal.count)

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        return True  # the ledgers score one win higher than another

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        score = int(facts.public.get("score", 0))
        if score <= 0:
            return
        # Round figures: a goal says "reach 750", not "reach 763".
        unit = 10 if score < 200 else 50 if score < 2_000 else 500
        for count in range(unit, score + 1, unit):
            yield Goal(kind=self.key, count=count)


@register_goal_kind
class SpikesClearedGoal(GoalKind):
    key = "spikes_cleared"

    def check(self, goal: Goal) -> None:
        if not 1 <= goal.count <= 5:
            raise EngineError(f"A spikes_cleared goal counts 1 to 5 spikes, not {goal.count}")

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return f"Clear {goal.count} spike{'s' if goal.count > 1 else ''}"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        return _counted("Spikes cleared", int(facts.public.get("spikes_cleared", 0)), goal.count)

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        for count in range(1, int(facts.public.get("spikes_cleared", 0)) + 1):
            yield Goal(kind=self.key, count=count)


@register_goal_kind
class SummitBadgeGoal(GoalKind):
    """Earn this Summit badge or a better one (Spike: bronze at three spikes cleared,
    silver at five, gold at five with more than ten cards left in the stock)."""

    key = "summit_badge"

    def check(self, goal: Goal) -> None:
        if goal.badge not in _BADGES:
            raise EngineError(f"A summit_badge goal names one of {_BADGES}, not {goal.badge!r}")

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return f"Earn the {goal.badge.capitalize()} Summit badge or better"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        badge = facts.public.get("badge")
        met = badge in _BADGES and _BADGES.index(badge) >= _BADGES.index(goal.badge)
        label = f"{goal.badge.capitalize()} Summit badge"
        return Progress(label=label, done=int(met), target=1, met=met)

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        return goal.badge == _BADGES[-1]  # every win is silver or better

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        badge = facts.public.get("badge")
        if badge in _BADGES:
            for earned in _BADGES[: _BADGES.index(badge) + 1]:
                yield Goal(kind=self.key, badge=earned)


@register_goal_kind
class StreakBracketGoal(GoalKind):
    """A streak of `count` cards in a row, the start of a Summit ledger bracket."""

    key = "streak_bracket"

    def check(self, goal: Goal) -> None:
        if goal.count not in _STREAK_BRACKETS:
            raise EngineError(
                f"A streak_bracket goal starts a bracket ({sorted(_STREAK_BRACKETS)}), "
                f"not {goal.count}"
            )

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return f"Reach the {_STREAK_BRACKETS[goal.count]} bracket: {goal.count} cards in a row"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        return _counted("Cards in a row", int(facts.public.get("streak", 0)), goal.count)

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        return True  # a win needs no streak

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        streak = int(facts.public.get("streak", 0))
        for count in _STREAK_BRACKETS:
            if count <= streak:
                yield Goal(kind=self.key, count=count)


@register_goal_kind
class RunsRemovedGoal(GoalKind):
    key = "runs_removed"

    def check(self, goal: Goal) -> None:
        if not 1 <= goal.count <= len(SUITS):
            raise EngineError(f"A runs_removed goal counts 1 to 4 runs, not {goal.count}")

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        runs = "run" if goal.count == 1 else "runs"
        return f"Remove {_NUMBER_WORDS[goal.count]} {runs} from King to Ace"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        return _counted("Runs removed", len(facts.public.get("removed_runs", ())), goal.count)

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        for count in range(1, len(facts.public.get("removed_runs", ())) + 1):
            yield Goal(kind=self.key, count=count)


@register_goal_kind
class WinWithoutReserveGoal(GoalKind):
    """Steps: win with no reserve slot used in the line of play in effect."""

    key = "win_without_reserve"

    def check(self, goal: Goal) -> None:
        pass

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        return "Win without using a reserve slot"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        used = facts.public.get("reserve_used_ever") is True
        return Progress(
            label="Win with no reserve slot used",
            done=int(_won(facts)),
            target=1,
            met=_won(facts) and not used,
            failed=used,
        )

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        return any(slot.get("enabled") for slot in deal.public.get("reserves", ()))

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        if _won(facts) and facts.public.get("reserve_used_ever") is False:
            yield Goal(kind=self.key)


@register_goal_kind
class WinWithRecyclesGoal(GoalKind):
    """Win with at most `count` recycles of the waste (0: none at all)."""

    key = "win_within_recycles"
    figure_stands = False

    def beyond_a_win(self, goal: Goal, deal: GoalFacts) -> bool:
        """Below what the rules allow (Steps: its recycles option; Klondike: no limit)."""
        if "recycles_left" in deal.public:
            allowed = int(deal.public["recycles"]) + int(deal.public["recycles_left"])
            return goal.count < allowed
        return "recycles" in deal.public

    def search_keeping_to(
        self,
        goal: Goal,
        *,
        solver: "Solver[Any]",
        variant: Variant[Any],
        state: Any,
        budget: "Budget",
    ) -> "Solution | None":
        return solver.solve_recycling_at_most(variant, state, recycles=goal.count, budget=budget)

    def check(self, goal: Goal) -> None:
        if goal.count < 0:
            raise EngineError(f"A win_within_recycles goal allows 0 or more, not {goal.count}")

    def describe(self, goal: Goal, variant: Variant[Any]) -> str:
        if goal.count == 0:
            return "Win without recycling the waste"
        return f"Win with at most {goal.count} recycle{'s' if goal.count > 1 else ''}"

    def progress(self, goal: Goal, facts: GoalFacts) -> Progress:
        recycles = int(facts.public.get("recycles", 0))
        return Progress(
            label=f"Win with at most {goal.count} recycles",
            done=int(_won(facts)),
            target=1,
            met=_won(facts) and recycles <= goal.count,
            failed=recycles > goal.count,
        )

    def reached(self, facts: GoalFacts, line_length: int) -> Iterator[Goal]:
        if _won(facts):
            yield Goal(kind=self.key, count=int(facts.public.get("recycles", 0)))


def goal_of(data: object, variant: Variant[Any]) -> Goal:
    """The goal a JSON object holds, for this variant; EngineError, saying what is wrong,
    when it is not one."""
    if not isinstance(data, Mapping):
        raise EngineError(f"A goal is an object, not {type(data).__name__}")
    unknown = set(data) - {"kind", "count", "rank", "suit", "badge"}
    if unknown:
        raise EngineError(f"A goal has no {', '.join(sorted(unknown))}")
    kind = goal_kind(data.get("kind"))  # type: ignore[arg-type]
    if kind.key not in variant.goal_kinds:
        raise EngineError(f"{variant.name} has no {kind.key} goal")
    count = data.get("count", 0)
    if not isinstance(count, int) or isinstance(count, bool):
        raise EngineError(f"A goal's count is a whole number, not {count!r}")
    texts = {name: data.get(name, "") for name in ("rank", "suit", "badge")}
    for name, value in texts.items():
        if not isinstance(value, str):
            raise EngineError(f"A goal's {name} is text, not {value!r}")
    goal = Goal(kind=kind.key, count=count, **texts)
    kind.check(goal)
    return goal


def goal_description(goal: Goal, variant: Variant[Any]) -> str:
    return goal_kind(goal.kind).describe(goal, variant)


def goal_progress(goal: Goal, facts: GoalFacts) -> Progress:
    return goal_kind(goal.kind).progress(goal, facts)


def goal_facts(variant: Variant[Any], state: Any, *, moves: int, undos: int) -> GoalFacts:
    return GoalFacts(
        public=variant.public_view(state), status=variant.status(state), moves=moves, undos=undos
    )


def line_facts(variant: Variant[Any], state: Any, line: Sequence[str]) -> list[GoalFacts]:
    """The facts after each move of a line played from `state` (index 0: before the
    first move), with no move taken back; EngineError when a move does not play."""
    timeline = [goal_facts(variant, state, moves=0, undos=0)]
    for number, text in enumerate(line, start=1):
        state = variant.play(state, text).state
        timeline.append(goal_facts(variant, state, moves=number, undos=0))
    return timeline


def goal_proof_length(goal: Goal, timeline: Sequence[GoalFacts]) -> int | None:
    """How many moves of the line the goal needs (the first position that meets it),
    or None when the line never meets it."""
    for moves, facts in enumerate(timeline):
        if goal_progress(goal, facts).met:
            return moves
    return None


def goal_candidates(variant: Variant[Any], timeline: Sequence[GoalFacts]) -> dict[Goal, int]:
    """Every goal of the variant's kinds that the line meets, with the moves it needs."""
    line_length = len(timeline) - 1
    found: dict[Goal, int] = {}
    for moves, facts in enumerate(timeline):
        for key in variant.goal_kinds:
            for goal in goal_kind(key).reached(facts, line_length):
                found.setdefault(goal, moves)
    return found
