"""What each hand's page says about its photo being read by a job: "reading…", "still waiting" past the
deadline, or why it could not be read. Works from the round as loaded (its uploads and events), so rendering never
asks Redis; without REDIS_URL no upload is ever queued and nothing is shown."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from webapp.models import Round

WAITING = ("queued", "reading")


@dataclass(frozen=True)
class PhotoJob:
    state: str  # reading | stuck | failed
    upload_id: int | None
    error: str | None = None
    waited_s: int = 0


def _age_s(created_at: datetime, now: datetime) -> int:
    if created_at.tzinfo is None:
        created_at = created_at.replace(tzinfo=timezone.utc)
    return max(0, int((now - created_at).total_seconds()))


def photo_jobs(rnd: Round, stuck_after_s: int, now: datetime | None = None) -> dict[tuple[str, int], PhotoJob]:
    """Per (player, hand set) with something to say: the newest photo still waiting for a reader (newer than the
    one the hand shows), else a failed reading that is the newest change to that hand."""
    now = now or datetime.now(timezone.utc)
    found: dict[tuple[str, int], PhotoJob] = {}
    shown = {(h.player, h.hand_set): h.upload_id or 0 for h in rnd.hands}
    for upload in sorted(rnd.uploads, key=lambda u: u.id, reverse=True):
        key = (upload.player, upload.hand_set)
        if key in found or upload.status not in WAITING or upload.id <= shown.get(key, 0):
            continue
        waited = _age_s(upload.created_at, now)
        found[key] = PhotoJob("stuck" if waited > stuck_after_s else "reading", upload.id, upload.error, waited)
    latest: dict[tuple[str, int], object] = {}
    for event in rnd.events:  # in order: the last one per hand wins
        if event.player is not None:
            latest[(event.player, int((event.detail or {}).get("set", 1)) - 1)] = event
    for key, event in latest.items():
        if key not in found and getattr(event, "kind", None) == "read_failed":
            detail = getattr(event, "detail", None) or {}
            found[key] = PhotoJob("failed", detail.get("upload"), str(detail.get("error") or ""))
    return found

