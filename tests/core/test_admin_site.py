"""The admin site refuses with a 400 the values Django's admin views cannot read
(they were 500s), and works as before otherwise."""

import pytest
from django.contrib import admin
from django.contrib.contenttypes.models import ContentType
from django.test import Client

from core.admin_site import ArenaAdminSite
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(make_user):
    client = Client(raise_request_exception=False)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def finished(player):
    game = services.game_start(player=player, variant="klondike")
    services.game_finish(game_id=game.id, player=player, revision=0)
    return game


def test_the_default_admin_site_is_the_arena_site():
    assert isinstance(admin.site, ArenaAdminSite)


@pytest.mark.parametrize("view", ["change", "delete"])
def test_an_empty_to_field_is_a_bad_request(superuser_client, player, view):
    url = f"/admin/auth/user/{player.pk}/{view}/"
    assert superuser_client.get(f"{url}?_to_field=").status_code == 400
    assert superuser_client.post(url, {"_to_field": ""}).status_code == 400
    assert superuser_client.get(url).status_code == 200
    assert superuser_client.get(f"{url}?_to_field=id").status_code == 200


def test_an_empty_to_field_is_refused_on_the_review_admin_too(superuser_client, finished):
    url = f"/admin/games/game/{finished.id}/change/"
    assert superuser_client.get(f"{url}?_to_field=").status_code == 400
    assert superuser_client.get(url).status_code == 200


def test_an_object_id_the_primary_key_cannot_read_is_a_bad_request(superuser_client, finished):
    games = ContentType.objects.get_for_model(Game)
    assert superuser_client.get(f"/admin/r/{games.pk}/1/").status_code == 400
    assert superuser_client.get(f"/admin/r/{games.pk}/{finished.id}/").status_code == 404


def test_anonymous_visitors_are_still_sent_to_log_in(finished):
    response = Client().get(f"/admin/games/game/{finished.id}/change/?_to_field=")
    assert response.status_code == 302
