"""The caller's scope as one SQL predicate, applied to every search query.

Scope = the subject, the caller's enrollment in it (none: nothing), materials
visible to the caller (``subject`` visibility or the caller's own ``private``),
``is_active`` on both material and chunk, minus the chunk IDs the session has
already seen. Request filters can only add conditions (AND), never remove one.
Every value is a bound parameter; only fixed SQL text is composed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from psycopg import sql

from services.common.errors import InvalidInput


@dataclass(frozen=True)
class SearchFilters:
    """Narrowing filters from the request (a plan or a user), ANDed onto the scope."""

    material_ids: frozenset[uuid.UUID] = frozenset()  # empty = every material in scope
    page_from: int | None = None
    page_to: int | None = None
    heading: str | None = None  # the chunk's heading path contains this heading

    def __post_init__(self) -> None:
        if (
            self.page_from is not None
            and self.page_to is not None
            and self.page_from > self.page_to
        ):
            raise InvalidInput(f"page_from {self.page_from} is after page_to {self.page_to}")

    @property
    def narrows(self) -> bool:
        return (
            bool(self.material_ids)
            or self.page_from is not None
            or (self.page_to is not None or bool(self.heading))
        )


def as_uuids(values: Iterable[Any]) -> list[uuid.UUID]:
    """Chunk/material IDs as UUIDs; a malformed ID is bad input, not a SQL error."""
    out = []
    for value in values:
        try:
            out.append(value if isinstance(value, uuid.UUID) else uuid.UUID(str(value)))
        except ValueError as exc:
            raise InvalidInput(f"not a chunk or material id: {value!r}") from exc
    return out


@dataclass
class ScopePredicate:
    """A WHERE clause over ``chunks c JOIN materials m`` and its named parameters."""

    clause: sql.Composable
    params: dict[str, Any] = field(default_factory=dict)


def scope_predicate(
    subject_id: str,
    user_id: str,
    filters: SearchFilters,
    seen_ids: Iterable[uuid.UUID] = (),
    *,
    exclude_seen: bool = True,
) -> ScopePredicate:
    parts = [
        sql.SQL("c.subject_id = %(scope_subject)s"),
        sql.SQL("m.subject_id = %(scope_subject)s"),
        sql.SQL("c.is_active"),
        sql.SQL("m.is_active"),
        sql.SQL(
            "(m.visibility = 'subject'"
            " OR (m.visibility = 'private' AND m.owner_id = %(scope_user)s))"
        ),
        sql.SQL(
            "EXISTS (SELECT 1 FROM enrollments e"
            " WHERE e.subject_id = %(scope_subject)s AND e.user_id = %(scope_user)s)"
        ),
    ]
    params: dict[str, Any] = {"scope_subject": subject_id, "scope_user": user_id}
    seen = as_uuids(seen_ids)
    if exclude_seen and seen:
        parts.append(sql.SQL("NOT (c.chunk_id = ANY(%(scope_seen)s::uuid[]))"))
        params["scope_seen"] = seen
    if filters.material_ids:
        parts.append(sql.SQL("c.material_id = ANY(%(filter_materials)s::uuid[])"))
        params["filter_materials"] = as_uuids(filters.material_ids)
    if filters.page_from is not None:
        parts.append(sql.SQL("c.page >= %(filter_page_from)s"))
        params["filter_page_from"] = filters.page_from
    if filters.page_to is not None:
        parts.append(sql.SQL("c.page <= %(filter_page_to)s"))
        params["filter_page_to"] = filters.page_to
    if filters.heading:
        parts.append(sql.SQL("%(filter_heading)s = ANY(c.heading_path)"))
        params["filter_heading"] = filters.heading
    return ScopePredicate(sql.SQL(" AND ").join(parts), params)
