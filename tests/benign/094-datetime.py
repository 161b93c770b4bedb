#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Date arithmetic and formatting."""
from datetime import date, datetime, timedelta, timezone

now = datetime.now(timezone.utc)
print("now (UTC):", now.strftime("%Y-%m-%d %H:%M"))
release = date(2024, 3, 1)
print("release + 90 days:", release + timedelta(days=90))
print("weekday of release:", release.strftime("%A"))
d = datetime.strptime("2024-02-28 23:30", "%Y-%m-%d %H:%M") + timedelta(hours=1)
print("an hour later:", d.isoformat())
print("leap day exists:", (date(2024, 3, 1) - date(2024, 2, 28)).days == 2)
