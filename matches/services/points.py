"""Publishing Klondike's competitive points table (staff, in the admin)."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.engine import EngineError, get_variant
from matches.errors import MatchRefused
from matches.models import PointsTable


def points_table_publish(*, table_id: int, staff: User) -> PointsTable:
    """Publish a draft table: it scores every Klondike match made from now on, and the
    mode opens to players. The engine checks the table first; a published table is
    never changed (a new version replaces it)."""
    with transaction.atomic():
        table = PointsTable.objects.select_for_update().get(id=table_id)
        if table.published_at is not None:
            raise MatchRefused(f"Version {table.version} is published already.")
        try:
            get_variant("klondike").normalize_options({"points": table.points})
        except EngineError as refusal:
            raise MatchRefused(f"The engine refuses this table: {refusal}") from refusal
        table.published_at = timezone.now()
        table.published_by = staff
        table.save(update_fields=["published_at", "published_by"])
    return table
