from services.common.text import lexical_terms, query_words, vocabulary_terms
from services.searcher.lexical import CorpusStats, idf, query_term_counts, selective_terms


def test_japanese_without_spaces_becomes_content_words():
    terms = lexical_terms("北海道と小笠原諸島を除く日本で見られる")
    assert "北海道" in terms and "小笠原" in terms and "日本" in terms
    assert "と" not in terms and "を" not in terms  # particles carry no topic


def test_inflections_share_a_normalised_form():
    assert "見る" in lexical_terms("見られる") and "見る" in lexical_terms("見た")


def test_full_width_and_case_fold_to_the_same_term():
    assert lexical_terms("Ｐｙｔｈｏｎ") == lexical_terms("python") == ["python"]


def test_english_words_and_punctuation():
    terms = lexical_terms("The Rhine flows; it's long!")
    assert "rhine" in terms and "flows" in terms
    assert ";" not in terms and "!" not in terms


def test_greek_letters_and_their_names_are_terms_though_sudachi_calls_them_symbols():
    assert "λ" in lexical_terms("正則化の強さ λ=1.0") and "σ" in lexical_terms("分散 σ^2")
    assert "ラムダ" in lexical_terms("ラムダを大きくする")
    assert lexical_terms("δ") == lexical_terms("デルタ")  # Sudachi writes the name as the letter
    assert lexical_terms("^ = → ※") == []  # operators and marks stay out


def test_long_text_over_the_tokenizer_limit_is_split():
    text = "梅雨前線が北上する。" * 8_000  # ~80 KB of UTF-8, above Sudachi's input limit
    assert lexical_terms(text).count("梅雨") == 8_000


def test_sql_metacharacters_are_just_text():
    terms = lexical_terms("'; DROP TABLE chunks; --")
    assert terms[0] == "drop" and terms[-1] == "chunks" and len(terms) == 3


def test_query_terms_count_over_all_queries():
    counts = query_term_counts(["梅雨 前線", "梅雨"])
    assert counts["梅雨"] == 2 and counts["前線"] == 1


def test_idf_falls_with_document_frequency():
    assert idf(1000, 1) > idf(1000, 100) > idf(1000, 900) > 0


def test_selective_terms_prefer_rare_terms_and_keep_a_minimum():
    stats = CorpusStats(1000, 50.0, {"rare": 2, "mid": 50, "common": 600, "all": 999})
    assert selective_terms(stats) == ["rare", "mid", "common"]
    stats = CorpusStats(1000, 50.0, {f"t{i}": i + 1 for i in range(10)})
    assert selective_terms(stats) == [f"t{i}" for i in range(10)]


def test_selective_terms_stay_within_the_postings_budget():
    stats = CorpusStats(100_000, 50.0, {"a": 2_000, "b": 2_500, "c": 2_900, "d": 50_000})
    assert selective_terms(stats) == ["a"]
    stats = CorpusStats(100_000, 50.0, {"huge": 40_000, "huger": 60_000})
    assert selective_terms(stats) == ["huge"]  # the rarest term always defines candidates


# --- the words worth translating (services/searcher/translation.py) ------------------------


def test_vocabulary_terms_are_content_words_as_bm25_matches_them():
    words = vocabulary_terms("チャンクを分割し、100文字ずつ重ねる。その後で検索する。")
    assert {"チャンク", "分割", "文字", "重ねる", "検索"} <= set(words)
    # no numbers, no single kanji, no adnominals (その → 其の), no auxiliary uses (し → 為る)
    assert not {"100", "後", "其の", "為る"} & set(words)


def test_vocabulary_terms_leave_out_short_and_stop_latin_words_even_in_katakana():
    words = vocabulary_terms("What is the overlap and the chunk size of an IVF index")
    # Sudachi writes known English words in katakana (overlap → オーバーラップ); "and" → アンド
    # and "what" → ホワット must not come in that way either
    assert "オーバーラップ" in words and "アンド" not in words and "ホワット" not in words
    assert "ivf" not in words  # short Latin words are names, written alike in both scripts


def test_query_words_are_written_as_asked():
    # the translation of "overlap" (重ねる) is found from the English word, not its katakana
    assert query_words("How much do the chunks overlap?") == ["chunks", "overlap"]
    assert query_words("検証データの割合は？") == ["検証", "データ", "割合"]
