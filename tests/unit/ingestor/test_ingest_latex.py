"""LaTeX sources: sections and frames as headings, lists, tables, displays and listings as
the structures the chunker keeps whole, text commands unwrapped, and what is no text gone."""

from services.ingestor.formats import Format
from services.ingestor.stages import parse_material

NOTES = r"""\documentclass{ltjsarticle}
\usepackage{amsmath,listings}
\title{分散システム 第3回：レプリケーション}
\begin{document}
\maketitle
% 来年は Paxos の節を足す（この行は資料ではない）
\section{クォーラム}
読み取りと書き込みのクォーラムは\textbf{必ず重なる}ように選ぶ\cite{gifford79}。
\begin{equation}\label{eq:quorum}
  R + W > N
\end{equation}
既定では~$N = 3$ とする\footnote{演習環境の場合}。

\subsection{設定例}
\begin{lstlisting}[language=Python]
replicas = 3  # 100% 同期ではない
\end{lstlisting}
\begin{table}[h]
  \centering
  \caption{構成ごとの遅延}
  \begin{tabular}{|l|r|}\hline
    構成 & p99 遅延 \\ \hline
    同期 & 42 ms \\
    非同期 (\texttt{async\_commit}) & 9 ms \\ \hline
  \end{tabular}
\end{table}
\section{障害の種類}
次の障害を考える。
\begin{enumerate}
  \item クラッシュ停止
  \item ネットワーク分断：
    \begin{itemize}
      \item 対称な分断
      \item 非対称な分断
    \end{itemize}
  \item ビザンチン障害
\end{enumerate}
\begin{description}
  \item[MTTR] 平均修復時間
\end{description}
\end{document}
"""


def test_lecture_notes_keep_their_sections_formulas_listings_and_tables():
    material = parse_material(NOTES.encode(), "lec03.tex")
    assert material.format is Format.LATEX
    assert material.title == "分散システム 第3回：レプリケーション"
    chunks = {c.heading_path[-1]: c.text for c in material.chunks}
    quorum = chunks["クォーラム"]
    assert "クォーラムは必ず重なるように選ぶ。" in quorum  # \textbf unwrapped, \cite gone
    assert "$$\nR + W > N\n$$" in quorum  # a display of its own, its \label gone
    assert "既定では $N = 3$ とする (演習環境の場合)。" in quorum  # inline math as written
    example = chunks["設定例"]
    assert "```python\nreplicas = 3  # 100% 同期ではない\n```" in example  # % is code there
    assert "構成ごとの遅延" in example  # the caption introduces the table
    assert "| 非同期 (`async_commit`) | 9 ms |" in example
    text = "\n".join(c.text for c in material.chunks)
    assert "Paxos" not in text  # a comment is no text
    assert "maketitle" not in text and "cite" not in text and "centering" not in text


def test_nested_lists_keep_their_numbers_and_labels():
    material = parse_material(NOTES.encode(), "lec03.tex")
    (faults,) = [c.text for c in material.chunks if c.heading_path[-1] == "障害の種類"]
    assert (
        "1. クラッシュ停止\n2. ネットワーク分断：\n    - 対称な分断\n    - 非対称な分断\n"
        "3. ビザンチン障害" in faults
    )
    assert "- MTTR: 平均修復時間" in faults


SLIDES = r"""\documentclass{beamer}
\title{Lecture 8: Consensus}
\begin{document}
\frame{\titlepage}
\section{Raft}
\begin{frame}{Leader election}
  \begin{itemize}
    \item<1-> A follower becomes a candidate after an election timeout \pause
    \item<2-> Timeouts are drawn from \alert{150--300 ms}
  \end{itemize}
\end{frame}
\begin{frame}[fragile]
  \frametitle{Log matching}
  \begin{block}{Invariant}
  Same index and term $\Rightarrow$ same command; see \href{https://raft.example}{the paper}.
  \end{block}
\begin{verbatim}
if log[prev].term != prev_term: reject()
\end{verbatim}
\end{frame}
\end{document}
"""


def test_a_beamer_deck_is_read_frame_by_frame_without_its_overlays():
    material = parse_material(SLIDES.encode(), "lec08_slides.tex")
    assert material.title == "Lecture 8: Consensus"
    chunks = {c.heading_path: c.text for c in material.chunks}
    election = chunks[("Lecture 8: Consensus", "Raft", "Leader election")]
    assert "- Timeouts are drawn from 150–300 ms" in election
    assert "<1->" not in election and "pause" not in election
    log = chunks[("Lecture 8: Consensus", "Raft", "Log matching")]
    # a block's title leads what it labels
    assert "Invariant: Same index and term $\\Rightarrow$ same command; see the paper (" in log
    assert "```\nif log[prev].term != prev_term: reject()\n```" in log


SHEET = r"""\documentclass{jsarticle}
\usepackage{enumitem}
\newtheorem{definition}{定義}
\newcommand{\ans}{\par\noindent\textbf{【答】}\ }
\newcommand{\unit}[1]{\,\mathrm{#1}}
\title{演習問題集}
\author{芦田 律}
\date{2026年度前期}
\begin{document}
\maketitle
\section{問1}
\begin{definition}[クォーラム]
書き込みと読み出しの集合が重なる条件を式 (\ref{eq:q}) に示す。
\end{definition}
\begin{align}
  W + R &> N \label{eq:q} \\
  2W &> N
\end{align}
\begin{enumerate}[label=(\arabic*)]
  \item 判定せよ。
  \begin{enumerate}[label=(\alph*)]
    \item $W = 3$
    \item $W = 4$
  \end{enumerate}
\end{enumerate}
\ans (1)(a) は重なる。Safety vs.\ liveness, 1, 2, \ldots{} ``quoted''.
\begin{lstlisting}[language=Python, caption={Lamport 時計の実装}]
clock += 1
\end{lstlisting}
\end{document}
"""


def test_what_maketitle_prints_and_the_documents_own_names_and_macros_are_kept():
    material = parse_material(SHEET.encode(), "sheet.tex")
    text = "\n".join(c.text for c in material.chunks)
    assert "芦田 律\n\n2026年度前期" in text  # author and date under the title
    # \newtheorem's name, not the environment's, and it leads the sentence it labels
    assert "定義 (クォーラム): 書き込みと読み出しの集合が重なる条件を式 に示す。" in text
    assert "条件を式 に示す。" in text  # a reference goes with its parentheses
    assert "【答】 (1)(a) は重なる。" in text  # the teacher's macro, expanded
    assert "Safety vs. liveness, 1, 2, … “quoted”." in text
    assert "Lamport 時計の実装\n\n```python\nclock += 1\n```" in text  # a caption introduces


def test_align_rows_read_as_lines_and_list_labels_as_printed():
    text = "\n".join(c.text for c in parse_material(SHEET.encode(), "sheet.tex").chunks)
    assert "$$\nW + R > N\n2W > N\n$$" in text
    assert "(1) 判定せよ。\n    - (a) $W = 3$\n    - (b) $W = 4$" in text
    steps = r"\begin{enumerate}[label=Task \arabic*:] \item a \item b \end{enumerate}"
    text = "\n".join(c.text for c in parse_material(steps.encode(), "steps.tex").chunks)
    assert "- Task 1: a\n- Task 2: b" in text  # the a of "Task" is no counter


def test_a_line_break_inside_a_paragraph_is_a_space_and_none_between_japanese_lines():
    notes = (
        "\\section{セッション}\nセッション ID は\n\\texttt{HttpOnly} 属性を付けた Cookie に入れ、\n"
        "有効期限は\n30 分とする。\n\n次の段落。"
    )
    text = "\n".join(c.text for c in parse_material(notes.encode(), "s.tex").chunks)
    assert (
        "セッション ID は `HttpOnly` 属性を付けた Cookie に入れ、有効期限は 30 分とする。" in text
    )
    assert "\n\n次の段落。" in text


def test_a_boxed_diagram_in_a_figure_is_text_and_symbols_read_as_printed():
    notes = (
        "\\section{フロー}\n表~\\ref{tab:x}に示す。\n\\begin{figure}[htbp]\n\\centering\n"
        "\\fbox{\\parbox{0.85\\textwidth}{\\small\n"
        "ブラウザ $\\rightarrow$ 認可サーバ：\\texttt{/authorize}\\\\\n"
        "API サーバ $\\rightarrow$ 認可サーバ：\\texttt{/token}}}\n"
        "\\caption{認可コードフロー}\n\\end{figure}\n"
        "ホームは \\texttt{\\textasciitilde{}/lab} に置く。"
    )
    text = "\n".join(c.text for c in parse_material(notes.encode(), "f.tex").chunks)
    assert "表に示す。" in text  # a reference goes with the tie before it
    assert "ブラウザ $\\rightarrow$ 認可サーバ：`/authorize`\n\nAPI サーバ" in text
    assert "`/token`\n\n認可コードフロー" in text  # the box's lines, then the caption
    assert "`~/lab`" in text and "0.85" not in text


def test_siunitx_quantities_read_as_printed():
    text = (
        "\\section{共振}\n$L = 10\\,\\si{mH}$ と \\SI{100}{\\nano\\farad} で"
        " $f_0 \\approx \\qty{5.03}{\\kilo\\hertz}$、位相 \\ang{30}、"
        "範囲 \\SIrange{2}{5}{\\milli\\ampere}、速さ \\si{\\metre\\per\\second}。\n"
    )
    (chunk,) = parse_material(text.encode(), "resonance.tex").chunks
    assert chunk.text.split("\n\n")[1] == (
        "$L = 10\\,mH$ と 100 nF で $f_0 \\approx 5.03 kHz$、位相 30°、範囲 2–5 mA、速さ m/s。"
    )
