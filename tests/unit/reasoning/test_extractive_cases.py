import pytest

from services.reasoning.extractive.cases import other_case


@pytest.mark.parametrize(
    "question, text, case",
    [
        # the notes measured other sizes, other thread counts, another variant
        ("What miss rate did the 128 KiB cache get?", "8 KiB: 9.1 %, 16 KiB: 6.0 %", "128 KiB"),
        (
            "6 スレッドのときの実行時間は？",
            "2 スレッドで 4.1 秒、4 スレッドで 2.3 秒",
            "6 スレッド",
        ),
        ("4相クロックの利点は？", "## 2相クロック\n重なりのない2相のクロックを使う。", "4相"),
        ("How fast is the four-stage pipeline?", "A 6-stage pipeline runs at 2 GHz.", "four-stage"),
        ("What happens at 80 ℃?", "At 25 °C the rate is 0.3 per second.", "80 °C"),
    ],
)
def test_a_case_the_notes_give_only_for_other_values_is_named(question, text, case):
    assert other_case(question, text, text).startswith(case)


@pytest.mark.parametrize(
    "question, text",
    [
        # the same case, as the notes write it: another spacing, a decimal, a word
        ("What miss rate did the 16 KiB cache get?", "8 KiB: 9.1 %, 16KB: 6.0 %"),
        ("What happens at 37 °C?", "predicted rate at 37.0 °C: 0.8 per second"),
        ("How fast is the 5-stage pipeline?", "The five-stage pipeline of the lecture"),
        # a case of a kind the notes give no number of: nothing to compare
        ("What miss rate did the 128 KiB cache get?", "The miss rate falls as caches grow."),
        # the question states two; the notes give both
        ("2相コミットと3相コミットの違いは？", "2相コミットはブロックし、3相コミットはしない。"),
        # a word that only starts like the unit: 相当, 段階
        ("3段階評価の基準は？", "10相当の作業量で、2段の審査を経る"),
    ],
)
def test_a_case_the_notes_give_or_cannot_contradict_is_none(question, text):
    assert other_case(question, text, text) == ""


def test_sizes_and_frequencies_are_compared_with_their_prefix():
    def case(question: str, text: str) -> str:
        return other_case(question, text, text)

    assert case("What hit rate did the 64 MB cache get?", "64 KB: 0.9") == "64 MB"
    assert case("fs = 8 kHz のときの遮断周波数は？", "$f_s = 8000$ Hz で 1 kHz") == ""
    assert case("fs = 8 kHz のときの遮断周波数は？", "$f_s = 8$~kHz、$f_c = 1$~kHz") == ""
    assert case("fs = 8 kHz のときの遮断周波数は？", "$f_s = 48$ kHz で 1 kHz") == "8 kHz"


def test_the_case_may_be_stated_anywhere_in_the_passage():
    # a worked example states its case once; the sentence that answers names one number
    question = "What cutoff do the notes get for fc = 1 kHz at fs = 8 kHz?"
    near = "Designing at 1 kHz directly moves the digital cutoff below 1 kHz."
    passage = f"Example 2. With fs = 8 kHz and a 1 kHz cutoff, prewarp. {near}"
    assert other_case(question, near, passage) == ""
    assert other_case(question, near, near) == "8 kHz"
