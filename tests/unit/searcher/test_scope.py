import uuid

import pytest

from services.common.errors import InvalidInput
from services.searcher.engine import SearchQuery, cap_per_material, validate
from services.searcher.fusion import Fused
from services.searcher.scope import SearchFilters, scope_predicate


def test_values_are_parameters_never_sql_text():
    hostile = "x' OR '1'='1"
    pred = scope_predicate(
        hostile, hostile, SearchFilters(heading=hostile, page_from=1), [uuid.uuid4()]
    )
    text = repr(pred.clause)
    assert hostile not in text
    assert pred.params["scope_subject"] == hostile and pred.params["filter_heading"] == hostile


def test_scope_always_has_subject_enrollment_visibility_and_active():
    text = repr(scope_predicate("s", "u", SearchFilters()).clause)
    for needed in (
        "c.subject_id",
        "m.subject_id",
        "c.is_active",
        "m.is_active",
        "enrollments",
        "visibility",
    ):
        assert needed in text


def test_filters_only_add_conditions():
    plain = scope_predicate("s", "u", SearchFilters())
    narrowed = scope_predicate(
        "s", "u", SearchFilters(material_ids=frozenset({uuid.uuid4()}), page_to=3)
    )
    assert repr(plain.clause).rstrip("])") in repr(narrowed.clause)


def test_bad_filters_and_ids_are_invalid_input():
    with pytest.raises(InvalidInput):
        SearchFilters(page_from=5, page_to=2)
    with pytest.raises(InvalidInput):
        scope_predicate("s", "u", SearchFilters(), ["not-a-uuid"])


def test_validate_refuses_empty_or_unknown_requests():
    with pytest.raises(InvalidInput):
        validate(SearchQuery("s", "u", [" "], ""))
    with pytest.raises(InvalidInput):
        validate(SearchQuery("s", "u", ["q"], mode="fuzzy"))  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        validate(SearchQuery("", "u", ["q"]))
    validate(SearchQuery("s", "u", [], "a sentence"))


def test_per_material_cap_spreads_then_fills():
    fused = [Fused(i, 1.0 / (i + 1)) for i in range(6)]
    material = {0: "A", 1: "A", 2: "A", 3: "B", 4: "A", 5: "C"}
    assert [f.key for f in cap_per_material(fused, material, k=4, cap=2)] == [0, 1, 3, 5]
    assert [f.key for f in cap_per_material(fused, material, k=6, cap=1)] == [0, 3, 5, 1, 2, 4]


def test_questions_are_embedded_on_the_query_side_of_an_asymmetric_embedder():
    from services.searcher.engine import query_side

    class Symmetric:
        name = "same"

    class Asymmetric:
        name = "documents"

        def for_queries(self):
            twin = Asymmetric()
            twin.name = "queries"
            return twin

    symmetric = Symmetric()
    assert query_side(symmetric) is symmetric
    assert query_side(Asymmetric()).name == "queries"
