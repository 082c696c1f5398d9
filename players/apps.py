from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """A player's public page: statistics, badges, chart and daily calendar."""

    name = "players"
    verbose_name = "Players"
