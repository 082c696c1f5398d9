from django.apps import AppConfig
from django.db.models.signals import post_delete


class LeaderboardsConfig(AppConfig):
    name = "leaderboards"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        from leaderboards.models import Result
        from leaderboards.services import result_deleted

        # A result is deleted by a cascade (its player's account, its game), where no
        # service of ours runs: the deal's histogram of scores must lose it too.
        post_delete.connect(result_deleted, sender=Result, dispatch_uid="leaderboards.result")
