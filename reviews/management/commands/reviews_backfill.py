"""Review every closed game that has no automatic verification, however old
(games closed before the review of results existed): batch after batch."""

from typing import Any

from django.core.management.base import BaseCommand

from reviews import services


class Command(BaseCommand):
    help = "Verify by replay, and check, every closed game not reviewed yet."

    def handle(self, *args: Any, **options: Any) -> None:
        total = 0
        while True:
            reviewed = services.reviews_sweep(days=None)["reviewed"]
            if not reviewed:
                break
            total += reviewed
            self.stdout.write(f"{total} games reviewed")
        self.stdout.write(self.style.SUCCESS(f"Done: {total} games reviewed."))
