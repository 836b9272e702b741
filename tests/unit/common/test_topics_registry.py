from topics.registry import ALL_TOPICS, SEARCH_SESSIONS, STREAMS


def test_every_input_topic_has_a_dlq_twin():
    names = {t.name for t in ALL_TOPICS}
    for spec in STREAMS:
        if spec.has_dlq:
            assert f"{spec.name}.dlq" in names
    for name in ("ingest.jobs", "questions", "search.requests", "search.results", "evaluations"):
        assert f"{name}.dlq" in names


def test_session_state_is_compacted_and_co_partitioned_with_requests():
    from topics.registry import SEARCH_REQUESTS

    assert SEARCH_SESSIONS.configs["cleanup.policy"] == "compact,delete"
    assert SEARCH_SESSIONS.configs["retention.ms"] == str(24 * 3600 * 1000)
    # the searcher restores a partition's state from the same partition number
    assert SEARCH_SESSIONS.partitions == SEARCH_REQUESTS.partitions


def test_loop_topics_are_keyed_by_session():
    for spec in STREAMS:
        if spec.name in (
            "questions",
            "search.requests",
            "search.results",
            "evaluations",
            "answers",
        ):
            assert spec.key == "session_id"
