"""``replay --check`` re-runs decisions with the engine the live librarian builds."""

from __future__ import annotations

from services.librarian import app as librarian_app
from services.librarian.settings import LibrarianSettings
from tools.replay import check_decisions


def test_the_live_librarians_engine_judges_with_its_embedder():
    engine = librarian_app.librarian_engine(LibrarianSettings(llm_engine="extractive"))
    assert engine.name == "extractive"
    assert engine.embedder is not None and engine.embedder.name == "use-m3"


def test_replay_check_builds_the_engine_the_librarian_way(monkeypatch):
    built = []

    def spy(settings):
        built.append(settings)
        return object()

    monkeypatch.setattr(librarian_app, "librarian_engine", spy)
    assert check_decisions([]) == []
    assert len(built) == 1 and isinstance(built[0], LibrarianSettings)
