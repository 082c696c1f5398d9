"""The ranked rule of hints: a ranked daily result that used a hint stays listed but
ranks after every result without hints, whatever its figures."""

from dataclasses import dataclass

import pytest

from games import services as game_services
from leaderboards.models import Result
from leaderboards.ranking import RANKING_RULES
from leaderboards.selectors import leaderboard_for_deal, player_rank
from leaderboards.services import result_listing_set
from tests.leaderboards.helpers import committed, deal_of, finish, replay_fixture, start_daily

pytestmark = pytest.mark.django_db


@dataclass
class Figures:
    won: bool = False
    score: int = 0
    elapsed_ms: int = 60_000
    move_count: int = 100
    hints_used: int = 0


@pytest.mark.parametrize("rule", sorted(RANKING_RULES))
def test_one_hint_ranks_below_the_worst_result_without_hints(rule):
    ranking = RANKING_RULES[rule]
    best_hinted = Figures(won=True, score=10**6, elapsed_ms=0, move_count=1, hints_used=1)
    worst_clean = Figures(won=False, score=-(10**6), elapsed_ms=10**9, move_count=10**4)
    assert ranking.rank_key(best_hinted) < ranking.rank_key(worst_clean)
    # Among hinted results the figures still decide, and the count of hints does not.
    assert ranking.rank_key(Figures(score=5, hints_used=1)) > ranking.rank_key(
        Figures(score=4, hints_used=1)
    )
    assert ranking.rank_key(Figures(score=5, hints_used=1)) == ranking.rank_key(
        Figures(score=5, hints_used=7)
    )


def test_a_hinted_win_is_listed_after_an_unhinted_finish(make_user):
    deal = deal_of("klondike")
    helped, honest = make_user("helped"), make_user("honest")
    hinted = start_daily(helped, deal)
    game_services.game_hint(game_id=hinted.id, player=helped, revision=hinted.revision)
    hinted = replay_fixture(hinted, "klondike_win.json")
    assert hinted.status == "won"
    assert hinted.hints_used == 1
    plain = finish(start_daily(honest, deal))
    assert plain.status == "finished"
    won, lost = Result.objects.get(game=hinted), Result.objects.get(game=plain)
    assert won.won
    assert not lost.won
    assert won.rank_key < lost.rank_key
    # The replayed win is faster than a person plays, so the review holds it; listed
    # as a reviewer would restore it, it still comes after the finish without hints.
    with committed():  # the review's own call; with Redis it rebuilds the live ranks
        result_listing_set(game_id=hinted.id, listed=True)
    page = leaderboard_for_deal(deal=deal)
    assert [row.username for row in page.rows] == ["honest", "helped"]
    assert player_rank(deal=deal, player=honest) == 1
    assert player_rank(deal=deal, player=helped) == 2
