"""Query translation: the nearest-word step, on vectors made for it; the numbered parts of a
course, what a question word asks and a course's rules, in the other language."""

from __future__ import annotations

import numpy as np
import pytest

from services.searcher.translation import (
    MIN_SIMILARITY,
    PER_WORD,
    Vocabulary,
    asked_label_words,
    course_part_words,
    course_rule_words,
)


def unit(*rows):
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_the_closest_words_above_the_floor_and_no_more_than_per_word():
    vocabulary = Vocabulary(
        ("重ねる", "重複", "分割", "講義"),
        unit([1.0, 0.1, 0.0], [1.0, 0.3, 0.0], [1.0, 0.9, 0.0], [0.0, 0.0, 1.0]),
    )
    query = unit([1.0, 0.0, 0.0])
    assert PER_WORD == 2
    assert vocabulary.nearest(query) == ["重ねる", "重複"]  # 分割 is close too, but third


def test_nothing_below_the_floor():
    vocabulary = Vocabulary(("講義",), unit([0.0, 1.0]))
    angle = np.arccos(MIN_SIMILARITY) + 0.05  # just less similar than the floor
    query = unit([np.sin(angle), np.cos(angle)])
    assert vocabulary.nearest(unit([0.0, 1.0])) == ["講義"]
    assert vocabulary.nearest(query) == []


def test_an_empty_vocabulary_or_no_query_word_finds_nothing():
    assert Vocabulary((), np.zeros((0, 3), dtype=np.float32)).nearest(unit([1.0, 0, 0])) == []
    one = Vocabulary(("講義",), unit([1.0, 0.0]))
    assert one.nearest(np.zeros((0, 2), dtype=np.float32)) == []


def test_a_word_whose_own_nearest_words_are_all_closer_is_not_taken():
    # the mutual check: 重ねる is close to the query word, but a hub word is close to many
    # words of the query's script, closer than this one
    vocabulary = Vocabulary(("重ねる",), unit([1.0, 0.2]))
    query = unit([1.0, 0.0])
    assert vocabulary.nearest(query, bar=lambda i: 0.5) == ["重ねる"]
    assert vocabulary.nearest(query, bar=lambda i: 0.999) == []


@pytest.mark.parametrize(
    "question, words",
    [
        ("Which PCs does Lab 5 use?", ["演習", "実習"]),
        ("What did the teacher say in Lecture 9?", ["講義", "回"]),
        ("Is Assignment 2 graded by hand?", ["課題", "宿題"]),
        ("演習3のレポートは何ページまで？", ["lab", "exercise"]),
        ("課題4は二人で出してもいい？", ["assignment", "homework"]),
        ("第9回の授業で何を扱う？", ["lecture"]),
        ("小テスト③の範囲は？", ["quiz"]),  # a circled number is a number
        # a part without its number names no part of the course
        ("How long are the lab sessions?", []),
        ("演習の進め方を教えて", []),
    ],
)
def test_a_numbered_part_of_a_course_is_named_in_the_other_language(question, words):
    assert course_part_words(question) == words


@pytest.mark.parametrize(
    "question, words",
    [
        ("When and where is the midterm?", ["日時", "日程", "場所", "教室"]),
        ("Where are the lab reports handed in?", ["場所", "教室"]),
        ("Which room is the seminar in?", ["場所", "教室"]),
        ("中間試験はいつですか？", ["date", "due"]),
        ("レポートはどこに出せばいい？", ["room", "place"]),
        # a question word inside a statement, or in another sense, asks nothing
        ("What happens when I submit twice?", []),
        ("いつもの教室で行いますか", []),
        ("どこまでが試験範囲？", []),
    ],
)
def test_what_a_question_word_asks_is_labelled_in_the_other_language(question, words):
    assert asked_label_words(question) == words


@pytest.mark.parametrize(
    "question, words",
    [
        ("Can we bring notes into the midterm?", ["中間", "持ち込み", "持込"]),
        ("Is a late lab report still marked?", ["遅れ", "遅延", "減点"]),
        ("When is the project due?", ["締切", "期限"]),
        ("What if I am absent from class?", ["欠席"]),
        ("If I missed the quiz, is there a retake?", ["追試", "再試験", "欠席"]),
        ("May I use a calculator in the exam?", ["試験", "電卓"]),
        # "due to" gives a cause, not a deadline; a rule asked in Japanese gets no English
        ("Why did the cache miss rate rise? Was it due to the stride?", []),
        ("期末試験に電卓は持ち込めますか？", []),
    ],
)
def test_a_course_rule_asked_in_english_is_named_as_a_japanese_syllabus_names_it(question, words):
    assert course_rule_words(question) == words
