"""The reviewers' admin: only staff with the review permission reach the review
list, a game's review page, the replay viewer and the audit log; the actions go
through a form that needs a note; nobody adds, changes or deletes anything."""

import re

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from games.engine import get_variant
from games.tracks import casual_track
from reviews import services
from reviews.models import AuditEntry, Flag, GameReview
from tests.leaderboards.helpers import deal_of
from tests.reviews.conftest import ensure_reviewers_group
from tests.reviews.helpers import finished_game, start, tamper

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviewed(player, reviewer):
    """A flagged game (its score tampered with) and an audit entry."""
    game = tamper(finished_game(player, moves=12), score=3)
    services.game_review(game_id=game.id)
    return game, AuditEntry.objects.get(game_id=game.id)


def review_pages(game, entry):
    return {
        "review list": reverse("admin:games_game_changelist"),
        "game review": reverse("admin:games_game_change", args=[game.pk]),
        "replay viewer": reverse("admin:games_game_replay", args=[game.pk]),
        "audit log": reverse("admin:reviews_auditentry_changelist"),
        "audit entry": reverse("admin:reviews_auditentry_change", args=[entry.pk]),
    }


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_migration_makes_the_reviewers_group_with_the_review_permission():
    ensure_reviewers_group()  # made by the migration, unless a flush took it
    Group.objects.filter(name="Reviewers").delete()
    for _ in range(2):  # idempotent
        group = ensure_reviewers_group()
    assert list(group.permissions.values_list("content_type__app_label", "codename")) == [
        ("reviews", "review_results")
    ]
    assert Group.objects.filter(name="Reviewers").count() == 1


class TestWhoGetsIn:
    def test_a_reviewer_reaches_every_review_page(self, reviewed, reviewer):
        client = client_for(reviewer)
        for name, url in review_pages(*reviewed).items():
            assert client.get(url).status_code == 200, name

    def test_a_superuser_does_too(self, reviewed, make_user):
        client = client_for(make_user("root", is_staff=True, is_superuser=True))
        for name, url in review_pages(*reviewed).items():
            assert client.get(url).status_code == 200, name

    def test_staff_without_the_permission_get_nothing(self, reviewed, staff):
        client = client_for(staff)
        for name, url in review_pages(*reviewed).items():
            assert client.get(url).status_code == 403, name
        index = client.get(reverse("admin:index"))
        assert index.status_code == 200
        assert reverse("admin:games_game_changelist") not in index.content.decode()
        assert reverse("admin:reviews_auditentry_changelist") not in index.content.decode()

    def test_staff_with_other_permissions_get_nothing_either(self, reviewed, staff):
        staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="games"))
        client = client_for(staff)
        for name, url in review_pages(*reviewed).items():
            assert client.get(url).status_code == 403, name

    def test_anonymous_visitors_are_sent_to_the_admin_login(self, reviewed, client):
        for name, url in review_pages(*reviewed).items():
            response = client.get(url)
            assert response.status_code == 302, name
            assert response["Location"].startswith(reverse("admin:login")), name

    def test_a_reviewer_who_is_not_staff_is_sent_to_the_login(self, reviewed, make_user):
        user = make_user("nostaff")
        user.groups.add(ensure_reviewers_group())
        client = client_for(user)
        for name, url in review_pages(*reviewed).items():
            assert client.get(url).status_code == 302, name

    def test_the_review_action_needs_the_permission(self, reviewed, staff):
        game, _ = reviewed
        response = client_for(staff).post(
            reverse("admin:games_game_changelist"),
            {"action": "void_results", "_selected_action": [game.pk], "apply": "1", "note": "x"},
        )
        assert response.status_code == 403
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW


class TestNothingIsEditable:
    @pytest.mark.parametrize("superuser", [False, True], ids=["reviewer", "superuser"])
    def test_no_add_change_or_delete_for_anyone(self, reviewed, reviewer, superuser):
        game, entry = reviewed
        if superuser:
            reviewer.is_superuser = True
            reviewer.save()
        client = client_for(reviewer)
        for url in (
            reverse("admin:reviews_auditentry_add"),
            reverse("admin:reviews_auditentry_delete", args=[entry.pk]),
            reverse("admin:games_game_add"),
            reverse("admin:games_game_delete", args=[game.pk]),
        ):
            assert client.get(url).status_code == 403, url
            assert client.post(url, {"post": "yes"}).status_code == 403, url
        for url in (
            reverse("admin:reviews_auditentry_change", args=[entry.pk]),
            reverse("admin:games_game_change", args=[game.pk]),
        ):
            assert client.post(url, {"note": "changed"}).status_code == 403, url
        response = client.post(
            reverse("admin:reviews_auditentry_changelist"),
            {"action": "delete_selected", "_selected_action": [entry.pk], "index": 0},
        )
        assert response.status_code in (200, 302)
        assert AuditEntry.objects.filter(pk=entry.pk, note=entry.note).exists()

    def test_the_audit_log_page_shows_who_what_and_why(self, reviewed, reviewer):
        game, _ = reviewed
        services.review_void(game_id=game.id, reviewer=reviewer, note="Forged score, voided.")
        page = client_for(reviewer).get(reverse("admin:reviews_auditentry_changelist"))
        html = page.content.decode()
        assert "Forged score, voided." in html
        assert reviewer.username in html
        assert "Voided" in html


class TestReviewList:
    def test_finished_games_with_filters_and_search(self, reviewed, reviewer, make_user):
        flagged, _ = reviewed
        bob = make_user("bob")
        clean = finished_game(bob, moves=12)
        services.game_review(game_id=clean.id)
        daily = finished_game(make_user("carol"), moves=4, deal=deal_of("klondike"))
        active = start(make_user("dave"))
        client = client_for(reviewer)
        url = reverse("admin:games_game_changelist")

        def listed(query=""):
            html = client.get(url + query).content.decode()
            return {
                game_id
                for game_id in (flagged.pk, clean.pk, daily.pk, active.pk)
                if reverse("admin:games_game_change", args=[game_id]) in html
            }

        assert listed() == {flagged.pk, clean.pk, daily.pk}  # finished games only
        assert listed("?flagged=yes") == {flagged.pk}
        assert listed("?flagged=no") == {clean.pk, daily.pk}
        assert listed("?review=under_review") == {flagged.pk}
        assert listed("?review=none") == {daily.pk}
        assert listed("?daily=ranked") == {daily.pk}
        assert listed("?daily=none") == {flagged.pk, clean.pk}
        assert listed(f"?track=daily&track_ref={daily.track_ref}") == {daily.pk}
        assert listed("?variant=klondike&status=finished") == {flagged.pk, clean.pk, daily.pk}
        assert listed("?status=won") == set()
        assert listed("?finished_at__gte=2000-01-01T00:00:00%2B00:00") == {
            flagged.pk,
            clean.pk,
            daily.pk,
        }
        assert listed("?q=bob") == {clean.pk}
        html = client.get(url + "?flagged=yes").content.decode()
        assert "Replay mismatch" in html
        assert "Under review" in html

    def test_the_game_page_shows_the_review_and_never_the_deal(self, reviewed, reviewer):
        game, _ = reviewed
        response = client_for(reviewer).get(reverse("admin:games_game_change", args=[game.pk]))
        html = response.content.decode()
        assert "score: stored 3, replayed 0" in html  # the flag and the verification
        assert 'id="review-state">Under review<' in html
        assert reverse("admin:games_game_replay", args=[game.pk]) in html
        assert game.seed not in html
        stock = get_variant("klondike").load(game.state).stock
        assert "".join(stock) not in html
        assert '"stock"' not in html


def action_post(client, game, action, **extra):
    return client.post(
        reverse("admin:games_game_changelist"),
        {"action": action, "_selected_action": [game.pk], **extra},
    )


class TestActions:
    def test_an_action_asks_for_a_note_first(self, reviewed, reviewer):
        game, _ = reviewed
        client = client_for(reviewer)
        response = action_post(client, game, "void_results", index="0")
        assert response.status_code == 200
        assert response.templates[0].name == "admin/reviews/review_action.html"
        assert 'name="note"' in response.content.decode()
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW

    @pytest.mark.parametrize(
        "action", ["verify_again", "void_results", "restore_results", "dismiss_flags"]
    )
    def test_an_empty_note_is_an_error_and_nothing_happens(self, reviewed, reviewer, action):
        game, _ = reviewed
        entries = AuditEntry.objects.count()
        response = action_post(client_for(reviewer), game, action, apply="1", note="   ")
        assert response.status_code == 200
        assert "A note is required" in response.content.decode()
        assert AuditEntry.objects.count() == entries
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW
        assert Flag.objects.get(game=game).status == Flag.Status.OPEN

    def test_void_restore_dismiss_and_verify_through_the_admin(self, reviewed, reviewer):
        game, _ = reviewed
        client = client_for(reviewer)
        change_url = reverse("admin:games_game_change", args=[game.pk])

        response = action_post(client, game, "void_results", apply="1", note="Forged.")
        assert response.status_code == 302
        assert response["Location"] == change_url
        assert GameReview.objects.get(game=game).state == GameReview.State.VOIDED

        action_post(client, game, "restore_results", apply="1", note="Appeal.")
        assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR

        action_post(client, game, "verify_again", apply="1", note="Once more.")
        assert GameReview.objects.get(game=game).state == GameReview.State.UNDER_REVIEW

        action_post(client, game, "dismiss_flags", apply="1", note="Known bug.")
        assert GameReview.objects.get(game=game).state == GameReview.State.CLEAR

        actions = list(
            AuditEntry.objects.filter(game_id=game.id, actor=reviewer)
            .order_by("created_at", "id")
            .values_list("action", "note")
        )
        assert actions == [
            ("void", "Forged."),
            ("restore", "Appeal."),
            ("flag_raised", "Replay mismatch: score: stored 3, replayed 0."),
            ("verify", "Once more."),
            ("dismiss_flag", "Known bug."),
        ]

    def test_a_refused_action_says_why(self, reviewed, reviewer):
        game, _ = reviewed
        response = action_post(
            client_for(reviewer), game, "restore_results", apply="1", note="Why not."
        )
        assert response.status_code == 302
        follow = client_for(reviewer).get(response["Location"])
        assert follow.status_code == 200
        assert AuditEntry.objects.filter(action="restore").count() == 0

    def test_the_game_page_offers_the_actions(self, reviewed, reviewer):
        game, _ = reviewed
        html = (
            client_for(reviewer)
            .get(reverse("admin:games_game_change", args=[game.pk]))
            .content.decode()
        )
        for button in ("action-verify", "action-void", "action-dismiss"):
            assert f'id="{button}"' in html
        assert 'id="action-restore"' not in html
        # A button posts the action without the list's "index": the note form comes.
        response = action_post(client_for(reviewer), game, "dismiss_flags")
        assert response.status_code == 200
        assert response.templates[0].name == "admin/reviews/review_action.html"
        assert Flag.objects.get(game=game).status == Flag.Status.OPEN


class TestReplayViewer:
    def url(self, game, step=None):
        url = reverse("admin:games_game_replay", args=[game.pk])
        return url if step is None else f"{url}?step={step}"

    def test_the_deal_shows_every_card_and_marks_the_hidden_ones(self, player, reviewer):
        game = finished_game(player, moves=12)
        html = client_for(reviewer).get(self.url(game, 0)).content.decode()
        cards = re.findall(r'<span class="replay-card( unseen)?( red)?"[^>]*>([^<]+)</span>', html)
        assert len(cards) == 52 + 1  # every card, and the one in the legend
        assert sum(1 for hidden, _, _ in cards if hidden) == 21 + 24 + 1  # face down, stock
        assert "Step 0 of 12" in html
        assert "The deal, before any move." in html
        assert 'id="replay-next"' in html
        assert 'id="replay-previous"' not in html

    def test_stepping_through_the_moves(self, player, reviewer):
        game = finished_game(player, moves=12)
        client = client_for(reviewer)
        html = client.get(self.url(game, 5)).content.decode()
        assert "Step 5 of 12" in html
        assert f"After move 5: <code>{game.move_log[4]}</code>" in html
        assert '?step=4" id="replay-previous"' in html
        assert '?step=6" id="replay-next"' in html
        assert '?step=12" id="replay-last"' in html
        assert "Step 12 of 12" in client.get(self.url(game, 99)).content.decode()
        assert "Step 0 of 12" in client.get(self.url(game, "x")).content.decode()

    def test_the_last_step_is_the_stored_position(self, player, reviewer):
        from reviews.selectors import replay_board

        game = finished_game(player, moves=12)
        board = replay_board(game=game, step=12)
        assert board.applied == 12
        assert board.error is None
        piles = next(section for section in board.sections if section.title == "Tableau")
        stored = get_variant("klondike").load(game.state).tableau
        assert [[card.code for card in pile.down] for pile in piles.piles] == [
            list(pile.down) for pile in stored
        ]

    def test_a_refused_move_stops_the_replay_and_says_so(self, player, reviewer):
        game = finished_game(player, moves=12)
        log = list(game.move_log)
        log[3] = "t7-f"
        game = tamper(game, move_log=log)
        html = client_for(reviewer).get(self.url(game, 12)).content.decode()
        assert "The replay stopped after 3 moves: move 4 (&#x27;t7-f&#x27;) was refused" in html

    @pytest.mark.parametrize("variant", ["kingsley", "spiderette", "spike", "steps"])
    def test_every_variant_is_shown(self, player, reviewer, variant):
        from games import services as game_services

        options = {"mode": "classic"} if variant == "spike" else None
        game = game_services.game_start(
            player=player, variant=variant, track=casual_track(options=options)
        )
        game_services.game_finish(game_id=game.id, player=player, revision=0)
        html = client_for(reviewer).get(self.url(game, 0)).content.decode()
        cards = re.findall(r'<span class="replay-card( unseen)?( red)?"[^>]*>([A2-9JQK]|10)', html)
        assert len(cards) >= 52 + 1

    def test_an_active_game_is_not_shown(self, player, reviewer):
        game = start(player)
        assert client_for(reviewer).get(self.url(game, 0)).status_code == 404
