"""Material keys: a private note lives under its owner's namespace and can never take the
key of a shared material or of another user's note (the write check on keys is pure)."""

from __future__ import annotations

import pytest

from services.common.errors import Forbidden, InvalidInput
from services.common.ids import ingest_key
from services.common.materials import NewMaterial, check_key_namespace, material_key


def test_default_keys_by_visibility():
    assert material_key("stats", "lecture1.pdf", "subject", "sensei") == "stats/lecture1.pdf"
    assert (
        material_key("stats", "lecture1.pdf", "private", "gakusei")
        == "stats/private:gakusei/lecture1.pdf"
    )
    note = NewMaterial(
        "stats", "gakusei", "t", "lecture1.pdf", "text/plain", "h", "gs://b/x", visibility="private"
    )
    assert note.key == "stats/private:gakusei/lecture1.pdf"
    with pytest.raises(InvalidInput):
        material_key("stats", "a.md", "public", "x")


@pytest.mark.parametrize(
    ("key", "visibility", "owner"),
    [
        ("stats/lecture1.pdf", "private", "gakusei"),  # a note posing as the lecture
        ("stats/private:sensei/notes.md", "private", "gakusei"),  # someone else's note
        ("stats/private:gakusei/notes.md", "subject", "gakusei"),  # shared into a note's key
        ("other/lecture1.pdf", "subject", "sensei"),  # another subject
        ("stats/", "subject", "sensei"),  # no name at all
    ],
)
def test_keys_outside_the_writers_namespace_are_forbidden(key, visibility, owner):
    with pytest.raises(Forbidden):
        check_key_namespace(key, "stats", visibility, owner)


def test_keys_inside_the_namespace_pass():
    check_key_namespace("stats/lecture1.pdf", "stats", "subject", "sensei")
    check_key_namespace("stats/private:gakusei/lecture1.pdf", "stats", "private", "gakusei")


def test_ingest_keys_differ_by_namespace_so_a_note_never_shadows_a_lecture():
    data = b"# lecture\n"
    shared = ingest_key("stats", data)
    assert shared == ingest_key("stats", data, "subject")
    assert ingest_key("stats", data, "private:gakusei") not in (
        shared,
        ingest_key("stats", data, "private:other"),
    )
