"""Writes the text-shaped materials of course_comp: 02 (MkDocs Material page), 05 (org-mode
notes as .txt), 07 (Typora HTML export), 08 (TA notebook), faq.csv (UTF-16 LE, tab-free CSV).

Content is Python data below; run with the repository's .venv. Deterministic.
"""

from __future__ import annotations

import json
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

OUT = Path(__file__).parent / "materials"
NL = "\n"
_block = 0


def code(src: str, lang: str) -> str:
    """A fenced block as MkDocs Material (pymdownx.highlight, linenums) writes it."""
    global _block
    fmt = HtmlFormatter(
        linenos="table",
        linespans=f"__span-{_block}",
        anchorlinenos=True,
        lineanchors=f"__codelineno-{_block}",
        wrapcode=True,
    )
    _block += 1
    html = highlight(src, get_lexer_by_name(lang), fmt)
    return f'<div class="language-{lang} highlight">{html}</div>'


# ---------------------------------------------------------------- 02 MkDocs Material page
RD_PY = """def parse_E():
    parse_T()
    parse_Eprime()

def parse_Eprime():
    if tok.kind in ("PLUS", "MINUS"):   # E' -> + T E' | - T E'
        advance()
        parse_T()
        parse_Eprime()
    elif tok.kind in ("SEMI", "RPAREN"):  # FOLLOW(E'): choose E' -> epsilon
        return
    else:
        error(f"line {tok.line}: expected '+', '-', ';' or ')' but got {tok.text!r}")
"""

DANGLING = """Stmt -> if ( Cond ) Stmt
      | if ( Cond ) Stmt else Stmt
      | other
"""

GRAMMAR = """S  -> id = E ;  |  print E ;
E  -> T E'
E' -> + T E'  |  - T E'  |  ε
T  -> F T'
T' -> * F T'  |  ε
F  -> ( E )  |  id  |  num
"""

LEFTREC = """Expr -> Expr + Term | Expr - Term | Term      (left-recursive)

Expr  -> Term Expr'                            (after the rewrite)
Expr' -> + Term Expr' | - Term Expr' | ε
"""

BODY_02 = f"""
<h1 id="lectures-4-5-context-free-grammars-and-ll1-parsing">Lectures 4–5: Context-free grammars and LL(1) parsing<a class="headerlink" href="#lectures-4-5-context-free-grammars-and-ll1-parsing" title="Permanent link">&para;</a></h1>
<p><em>Dr Aoife Brennan · CC-2270 Compiler Construction · 27 October and 10 November 2026</em></p>
<div class="admonition info">
<p class="admonition-title">How to use these notes</p>
<p>These notes follow the slides of Lectures 4 and 5 but add the worked examples in full. Exercise answers are in the collapsed boxes; try the exercise before opening them.</p>
</div>
<h2 id="1-grammars-and-derivations">1. Grammars and derivations<a class="headerlink" href="#1-grammars-and-derivations" title="Permanent link">&para;</a></h2>
<p>A context-free grammar is a four-tuple <span class="arithmatex">\\(G = (N, T, P, S)\\)</span>: non-terminals, terminals (the token kinds from the lexer), productions of the form <span class="arithmatex">\\(A \\to \\alpha\\)</span> with <span class="arithmatex">\\(\\alpha \\in (N \\cup T)^*\\)</span>, and a start symbol. A <strong>leftmost derivation</strong> always rewrites the leftmost non-terminal; a <strong>rightmost derivation</strong> always rewrites the rightmost one. Top-down parsers trace a leftmost derivation; LR parsers (Lecture 6 onwards) trace a rightmost derivation in reverse.</p>
<p>A grammar is <strong>ambiguous</strong> if some sentence has two different parse trees (equivalently, two different leftmost derivations). The textbook case in MiniC-S is the dangling <code>else</code>:</p>
{code(DANGLING, "text")}
<p>In <code>if (a) if (b) s1; else s2;</code> the <code>else</code> can belong to either <code>if</code>. MiniC-S follows C: <strong>an <code>else</code> matches the nearest unmatched <code>if</code></strong>. You can encode this in the grammar (matched / unmatched statements) or, with umiyacc, resolve the shift/reduce conflict in favour of shift.</p>
<h2 id="2-making-a-grammar-fit-for-top-down-parsing">2. Making a grammar fit for top-down parsing<a class="headerlink" href="#2-making-a-grammar-fit-for-top-down-parsing" title="Permanent link">&para;</a></h2>
<h3 id="21-left-recursion">2.1 Left recursion<a class="headerlink" href="#21-left-recursion" title="Permanent link">&para;</a></h3>
<p>A recursive-descent procedure for <span class="arithmatex">\\(A \\to A\\alpha \\mid \\beta\\)</span> would call itself before consuming any input and never stop. Immediate left recursion is removed by the rewrite</p>
<div class="arithmatex">\\[A \\to \\beta A' \\qquad A' \\to \\alpha A' \\mid \\varepsilon\\]</div>
<p>Applied to the expression rules of MiniC-S:</p>
{code(LEFTREC, "text")}
<p>The rewrite keeps the language but changes the shape of the parse tree: the tree now leans to the right. To keep <code>a - b - c</code> left-associative, build the AST in the loop or pass the left operand down as an inherited attribute.</p>
<h3 id="22-left-factoring">2.2 Left factoring<a class="headerlink" href="#22-left-factoring" title="Permanent link">&para;</a></h3>
<p>When two alternatives start with the same prefix, e.g. <span class="arithmatex">\\(A \\to \\alpha \\beta_1 \\mid \\alpha \\beta_2\\)</span>, a one-token look-ahead cannot choose. Factor the prefix out: <span class="arithmatex">\\(A \\to \\alpha A''\\)</span>, <span class="arithmatex">\\(A'' \\to \\beta_1 \\mid \\beta_2\\)</span>.</p>
<h2 id="3-first-and-follow">3. FIRST and FOLLOW<a class="headerlink" href="#3-first-and-follow" title="Permanent link">&para;</a></h2>
<p>Our running example for both lectures is grammar <strong>G1</strong>, a fragment of MiniC-S statements with the left recursion already removed:</p>
{code(GRAMMAR, "text")}
<p><span class="arithmatex">\\(\\mathrm{{FIRST}}(\\alpha)\\)</span> is the set of terminals that can begin a string derived from <span class="arithmatex">\\(\\alpha\\)</span>, plus <span class="arithmatex">\\(\\varepsilon\\)</span> if <span class="arithmatex">\\(\\alpha \\Rightarrow^* \\varepsilon\\)</span>. <span class="arithmatex">\\(\\mathrm{{FOLLOW}}(A)\\)</span> is the set of terminals that can appear immediately to the right of <span class="arithmatex">\\(A\\)</span> in some sentential form; <code>$</code> (end of input) is in FOLLOW of the start symbol.</p>
<p>Rules for FOLLOW, applied until nothing changes:</p>
<ol>
<li>Put <code>$</code> in FOLLOW(<em>S</em>).</li>
<li>For a production <span class="arithmatex">\\(A \\to \\alpha B \\beta\\)</span>, add FIRST(<span class="arithmatex">\\(\\beta\\)</span>) minus <span class="arithmatex">\\(\\varepsilon\\)</span> to FOLLOW(<em>B</em>).</li>
<li>For <span class="arithmatex">\\(A \\to \\alpha B\\)</span>, or <span class="arithmatex">\\(A \\to \\alpha B \\beta\\)</span> with <span class="arithmatex">\\(\\varepsilon \\in \\mathrm{{FIRST}}(\\beta)\\)</span>, add all of FOLLOW(<em>A</em>) to FOLLOW(<em>B</em>).</li>
</ol>
<p>For G1 this gives:</p>
<table>
<thead>
<tr><th>Non-terminal</th><th>FIRST</th><th>FOLLOW</th></tr>
</thead>
<tbody>
<tr><td>S</td><td>{{ id, print }}</td><td>{{ $ }}</td></tr>
<tr><td>E</td><td>{{ (, id, num }}</td><td>{{ ;, ) }}</td></tr>
<tr><td>E'</td><td>{{ +, -, ε }}</td><td>{{ ;, ) }}</td></tr>
<tr><td>T</td><td>{{ (, id, num }}</td><td>{{ +, -, ;, ) }}</td></tr>
<tr><td>T'</td><td>{{ *, ε }}</td><td>{{ +, -, ;, ) }}</td></tr>
<tr><td>F</td><td>{{ (, id, num }}</td><td>{{ *, +, -, ;, ) }}</td></tr>
</tbody>
</table>
<div class="admonition warning">
<p class="admonition-title">Common mistake</p>
<p>FOLLOW sets never contain <span class="arithmatex">\\(\\varepsilon\\)</span>. If your FOLLOW set has an epsilon in it, you copied a FIRST set without removing it.</p>
</div>
<h2 id="4-the-ll1-parsing-table">4. The LL(1) parsing table<a class="headerlink" href="#4-the-ll1-parsing-table" title="Permanent link">&para;</a></h2>
<p>For each production <span class="arithmatex">\\(A \\to \\alpha\\)</span>: for every terminal <em>a</em> in FIRST(<span class="arithmatex">\\(\\alpha\\)</span>), put the production in <em>M</em>[<em>A</em>, <em>a</em>]; if <span class="arithmatex">\\(\\varepsilon \\in \\mathrm{{FIRST}}(\\alpha)\\)</span>, also put it in <em>M</em>[<em>A</em>, <em>b</em>] for every <em>b</em> in FOLLOW(<em>A</em>). A grammar is <strong>LL(1)</strong> exactly when no cell receives two productions. Equivalently, for every pair of alternatives <span class="arithmatex">\\(A \\to \\alpha \\mid \\beta\\)</span>:</p>
<div class="arithmatex">\\[\\mathrm{{FIRST}}(\\alpha) \\cap \\mathrm{{FIRST}}(\\beta) = \\emptyset, \\quad \\text{{and if }} \\beta \\Rightarrow^* \\varepsilon \\text{{ then }} \\mathrm{{FIRST}}(\\alpha) \\cap \\mathrm{{FOLLOW}}(A) = \\emptyset\\]</div>
<p>The rows of the table for E' and T' (empty cells are errors):</p>
<table>
<thead>
<tr><th></th><th>+</th><th>-</th><th>*</th><th>;</th><th>)</th></tr>
</thead>
<tbody>
<tr><td><strong>E'</strong></td><td>E' → + T E'</td><td>E' → - T E'</td><td></td><td>E' → ε</td><td>E' → ε</td></tr>
<tr><td><strong>T'</strong></td><td>T' → ε</td><td>T' → ε</td><td>T' → * F T'</td><td>T' → ε</td><td>T' → ε</td></tr>
</tbody>
</table>
<h2 id="5-recursive-descent">5. From the table to recursive descent<a class="headerlink" href="#5-recursive-descent" title="Permanent link">&para;</a></h2>
<p>Each non-terminal becomes one procedure; each row of the table becomes an <code>if</code> on the current token. This is the shape expected in the optional bonus part of Assignment 2 (a hand-written parser instead of umiyacc):</p>
{code(RD_PY, "python")}
<p>A table-driven LL(1) parser does the same with an explicit stack: push <code>$</code> and the start symbol; if the top is a terminal, match it against the input; if it is a non-terminal <em>A</em>, pop it and push the right-hand side of <em>M</em>[<em>A</em>, <em>a</em>] <strong>in reverse order</strong>.</p>
<h2 id="6-exercises">6. Exercises<a class="headerlink" href="#6-exercises" title="Permanent link">&para;</a></h2>
<ol>
<li>Is <code>A -&gt; a A b | a b</code> LL(1)? If not, left-factor it.</li>
<li>Add <code>F -&gt; - F</code> (unary minus) to G1. Which cells of the table change?</li>
</ol>
<details class="success">
<summary>Answers</summary>
<ol>
<li>No: both alternatives start with <code>a</code>. After factoring, <code>A -&gt; a A''</code> and <code>A'' -&gt; A b | b</code>, which is LL(1).</li>
<li>FIRST(F), FIRST(T) and FIRST(E) gain <code>-</code>, so the new production goes in M[F, -] and the productions E → T E' and T → F T' also go into the <code>-</code> column. No cell gets two entries: in the E' row, <code>-</code> still means the binary minus.</li>
</ol>
</details>
<div class="admonition note">
<p class="admonition-title">Quiz on 1 December</p>
<p>The mid-term quiz covers Lectures 2–7. Expect one FIRST/FOLLOW question on a grammar of about this size; you will not be asked to draw a full LR(1) automaton.</p>
</div>
"""

PAGE_02 = """<!doctype html>
<html lang="en" class="no-js">
  <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width,initial-scale=1">
      <meta name="description" content="Course notes for CC-2270 Compiler Construction (English-taught lectures)">
      <link rel="prev" href="../lexer/">
      <link rel="next" href="../types/">
      <link rel="icon" href="../assets/images/favicon.png">
      <meta name="generator" content="mkdocs-1.6.1, mkdocs-material-9.5.44">
    <title>Grammars and LL(1) - CC-2270 English notes</title>
      <link rel="stylesheet" href="../assets/stylesheets/main.0253249f.min.css">
      <link rel="stylesheet" href="../assets/stylesheets/palette.06af60db.min.css">
    <script>__md_scope=new URL("..",location),__md_hash=e=>[...e].reduce(((e,_)=>(e<<5)-e+_.charCodeAt(0)),0),__md_get=(e,_=localStorage,t=__md_scope)=>JSON.parse(_.getItem(t.pathname+"."+e)),__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{_.setItem(a.pathname+"."+e,JSON.stringify(_))}catch(e){}}</script>
  </head>
  <body dir="ltr" data-md-color-scheme="default" data-md-color-primary="teal" data-md-color-accent="amber">
    <input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer" autocomplete="off">
    <input class="md-toggle" data-md-toggle="search" type="checkbox" id="__search" autocomplete="off">
    <label class="md-overlay" for="__drawer"></label>
    <div data-md-component="skip">
        <a href="#lectures-4-5-context-free-grammars-and-ll1-parsing" class="md-skip">Skip to content</a>
    </div>
    <div data-md-component="announce"></div>
<header class="md-header md-header--shadow" data-md-component="header">
  <nav class="md-header__inner md-grid" aria-label="Header">
    <a href=".." title="CC-2270 English notes" class="md-header__button md-logo" aria-label="CC-2270 English notes" data-md-component="logo">
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 8a3 3 0 0 0 3-3 3 3 0 0 0-3-3 3 3 0 0 0-3 3 3 3 0 0 0 3 3m0 3.54C9.64 9.35 6.5 8 3 8v11c3.5 0 6.64 1.35 9 3.54 2.36-2.19 5.5-3.54 9-3.54V8c-3.5 0-6.64 1.35-9 3.54Z"/></svg>
    </a>
    <div class="md-header__title" data-md-component="header-title">
      <div class="md-header__ellipsis">
        <div class="md-header__topic"><span class="md-ellipsis">CC-2270 English notes</span></div>
        <div class="md-header__topic" data-md-component="header-topic"><span class="md-ellipsis">Grammars and LL(1)</span></div>
      </div>
    </div>
    <label class="md-header__button md-icon" for="__search"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 9.5 12 5 9.5 5Z"/></svg></label>
    <div class="md-search" data-md-component="search" role="dialog">
      <label class="md-search__overlay" for="__search"></label>
      <div class="md-search__inner" role="search">
        <form class="md-search__form" name="search">
          <input type="text" class="md-search__input" name="query" aria-label="Search" placeholder="Search" autocapitalize="off" autocorrect="off" autocomplete="off" spellcheck="false" data-md-component="search-query" required>
        </form>
        <div class="md-search__output"><div class="md-search-result" data-md-component="search-result"><div class="md-search-result__meta">Initializing search</div></div></div>
      </div>
    </div>
  </nav>
</header>
    <div class="md-container" data-md-component="container">
      <main class="md-main" data-md-component="main">
        <div class="md-main__inner md-grid">
            <div class="md-sidebar md-sidebar--primary" data-md-component="sidebar" data-md-type="navigation">
              <div class="md-sidebar__scrollwrap"><div class="md-sidebar__inner">
<nav class="md-nav md-nav--primary" aria-label="Navigation" data-md-level="0">
  <label class="md-nav__title" for="__drawer">CC-2270 English notes</label>
  <ul class="md-nav__list" data-md-scrollfix>
    <li class="md-nav__item"><a href=".." class="md-nav__link"><span class="md-ellipsis">Home</span></a></li>
    <li class="md-nav__item md-nav__item--active"><a href="./" class="md-nav__link md-nav__link--active"><span class="md-ellipsis">Grammars and LL(1)</span></a></li>
    <li class="md-nav__item"><a href="../types/" class="md-nav__link"><span class="md-ellipsis">Semantics and types</span></a></li>
    <li class="md-nav__item"><a href="../ir/" class="md-nav__link"><span class="md-ellipsis">IR and SSA</span></a></li>
  </ul>
</nav>
              </div></div>
            </div>
            <div class="md-sidebar md-sidebar--secondary" data-md-component="sidebar" data-md-type="toc">
              <div class="md-sidebar__scrollwrap"><div class="md-sidebar__inner">
<nav class="md-nav md-nav--secondary" aria-label="Table of contents">
  <label class="md-nav__title" for="__toc">Table of contents</label>
  <ul class="md-nav__list" data-md-component="toc" data-md-scrollfix>
    <li class="md-nav__item"><a href="#1-grammars-and-derivations" class="md-nav__link"><span class="md-ellipsis">1. Grammars and derivations</span></a></li>
    <li class="md-nav__item"><a href="#2-making-a-grammar-fit-for-top-down-parsing" class="md-nav__link"><span class="md-ellipsis">2. Making a grammar fit for top-down parsing</span></a></li>
    <li class="md-nav__item"><a href="#3-first-and-follow" class="md-nav__link"><span class="md-ellipsis">3. FIRST and FOLLOW</span></a></li>
    <li class="md-nav__item"><a href="#4-the-ll1-parsing-table" class="md-nav__link"><span class="md-ellipsis">4. The LL(1) parsing table</span></a></li>
    <li class="md-nav__item"><a href="#5-recursive-descent" class="md-nav__link"><span class="md-ellipsis">5. From the table to recursive descent</span></a></li>
    <li class="md-nav__item"><a href="#6-exercises" class="md-nav__link"><span class="md-ellipsis">6. Exercises</span></a></li>
  </ul>
</nav>
              </div></div>
            </div>
          <div class="md-content" data-md-component="content">
            <article class="md-content__inner md-typeset">
              <a href="https://git.shiomi-tech.example/cc2270/notes/edit/main/docs/grammars.md" title="Edit this page" class="md-content__button md-icon"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M10 20H6V4h7v5h5v3.1l2-2V8l-6-6H6c-1.1 0-2 .9-2 2v16c0 1.1.9 2 2 2h4v-2m10.2-7c.1 0 .3.1.4.2l1.3 1.3c.2.2.2.6 0 .8l-1 1-2.1-2.1 1-1c.1-.1.2-.2.4-.2m0 3.9L14.1 23H12v-2.1l6.1-6.1 2.1 2.1Z"/></svg></a>
%BODY%
  <aside class="md-source-file">
      <span class="md-source-file__fact">
        <span class="md-icon" title="Last update"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M21 13.1c-.1 0-.3.1-.4.2l-1 1 2.1 2.1 1-1c.2-.2.2-.6 0-.8l-1.3-1.3c-.1-.1-.2-.2-.4-.2m-1.9 1.8-6.1 6V23h2.1l6.1-6.1-2.1-2M12.5 7v5.2l4 2.4-1 1L11 13V7h1.5M11 21.9c-5.1-.5-9-4.8-9-9.9C2 6.5 6.5 2 12 2c5.3 0 9.6 4.1 10 9.3-.3-.1-.6-.2-1-.2s-.7.1-1 .2C19.6 7.2 16.2 4 12 4c-4.4 0-8 3.6-8 8 0 4.1 3.1 7.5 7.1 7.9l-.1.2v1.8Z"/></svg></span>
        <span class="git-revision-date-localized-plugin git-revision-date-localized-plugin-date">November 9, 2026</span>
      </span>
  </aside>
            </article>
          </div>
<script>var target=document.getElementById(location.hash.slice(1));target&&target.name&&(target.checked=target.name.startsWith("__tabbed_"))</script>
        </div>
        <button type="button" class="md-top md-icon" data-md-component="top" hidden><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M13 20h-2V8l-5.5 5.5-1.42-1.42L12 4.16l7.92 7.92-1.42 1.42L13 8v12Z"/></svg> Back to top</button>
      </main>
<footer class="md-footer">
    <nav class="md-footer__inner md-grid" aria-label="Footer">
        <a href="../lexer/" class="md-footer__link md-footer__link--prev" aria-label="Previous: Lexical analysis (JA)"><div class="md-footer__title"><span class="md-footer__direction">Previous</span><div class="md-ellipsis">Lexical analysis (JA)</div></div></a>
        <a href="../types/" class="md-footer__link md-footer__link--next" aria-label="Next: Semantics and types"><div class="md-footer__title"><span class="md-footer__direction">Next</span><div class="md-ellipsis">Semantics and types</div></div></a>
    </nav>
  <div class="md-footer-meta md-typeset">
    <div class="md-footer-meta__inner md-grid">
      <div class="md-copyright">
  <div class="md-copyright__highlight">Copyright &copy; 2026 Aoife Brennan, Shiomi Institute of Technology</div>
  Made with <a href="https://squidfunk.github.io/mkdocs-material/" target="_blank" rel="noopener">Material for MkDocs</a>
</div>
    </div>
  </div>
</footer>
    </div>
    <div class="md-dialog" data-md-component="dialog"><div class="md-dialog__inner md-typeset"></div></div>
    <script id="__config" type="application/json">{"base": "..", "features": ["content.code.copy", "navigation.footer"], "search": "../assets/javascripts/workers/search.6ce7567c.min.js", "translations": {"clipboard.copied": "Copied to clipboard", "clipboard.copy": "Copy to clipboard"}}</script>
      <script src="../assets/javascripts/bundle.83f73b43.min.js"></script>
      <script src="../javascripts/mathjax.js"></script>
      <script src="https://unpkg.com/mathjax@3/es5/tex-mml-chtml.js"></script>
  </body>
</html>
"""


def write_02() -> None:
    (OUT / "02_grammars_ll1_en.html").write_text(
        PAGE_02.replace("%BODY%", BODY_02), encoding="utf-8"
    )


# ---------------------------------------------------------------- 05 org-mode notes (.txt)
ORG_05 = """#+TITLE: Lecture 11 -- Intermediate representation: three-address code, basic blocks, CFG, SSA
#+AUTHOR: Aoife Brennan
#+DATE: <2026-12-22 Tue>
#+OPTIONS: toc:nil num:t ^:{}
#+STARTUP: overview

These are my org-mode notes for Lecture 11, exported as plain text for the course page. Org
markup is left as it is: *bold*, /italic/, =verbatim=, ~code~.

* Why an intermediate representation
  - The front end (lexer, parser, type checker) produces an AST; the back end wants something
    close to machine code. An IR sits between them.
  - With an IR, M source languages and N targets need M + N translators instead of M * N.
  - Optimisations are written once, on the IR, not once per target.
  - MiniC-S uses a *linear* IR: three-address code (TAC). LLVM IR is also a linear, SSA-based IR.

* Three-address code
  Each instruction has at most one operator on the right-hand side, so at most three
  addresses (two operands, one result). Compiler-made temporaries are named t1, t2, ...

** Instruction forms used in this course
   | form               | example            | meaning                            |
   |--------------------+--------------------+------------------------------------|
   | x = y op z         | t1 = a * b         | binary operation                   |
   | x = op y           | t2 = - t1          | unary operation                    |
   | x = y              | c = t2             | copy                               |
   | goto L             | goto L3            | unconditional jump                 |
   | if x relop y goto L| if i < n goto L1   | conditional jump                   |
   | x = a[i], a[i] = x | t3 = a[t2]         | indexed load / store               |
   | param x; call f, n | call print, 1      | call f with n parameters           |
   | x = i2f y          | t4 = i2f i         | int to float (inserted by checker) |

** Translating an expression
   Source: ~x = (a + b) * (a + b) - c;~

   #+BEGIN_SRC text
   t1 = a + b
   t2 = a + b
   t3 = t1 * t2
   t4 = t3 - c
   x = t4
   #+END_SRC

   A naive translator emits t2 even though it recomputes t1; removing it is the job of
   common-subexpression elimination (Lecture 14), not of the translator.

** Quadruples and triples
   - /Quadruples/ store (op, arg1, arg2, result); instructions can be moved freely.
   - /Triples/ store (op, arg1, arg2) and refer to earlier results by position, so moving an
     instruction means renumbering every reference to it.
   - Our reference compiler uses quadruples.

* Basic blocks
  A basic block is a maximal sequence of instructions that is entered only at the first
  instruction and left only at the last one.

** Finding the leaders
   1. The first instruction of the function is a leader.
   2. Any instruction that is the target of a jump is a leader.
   3. Any instruction that immediately follows a jump (conditional or not) is a leader.
   Each block runs from one leader up to, but not including, the next leader.

** Example: summing an array
   #+BEGIN_SRC c
   s = 0;
   for (i = 0; i < n; i++)
       s = s + a[i];
   return s;
   #+END_SRC

   #+BEGIN_SRC text
   (1)  s = 0
   (2)  i = 0
   (3)  L1: if i >= n goto L2
   (4)  t1 = i * 4
   (5)  t2 = a[t1]
   (6)  s = s + t2
   (7)  i = i + 1
   (8)  goto L1
   (9)  L2: return s
   #+END_SRC

   Leaders are (1), (3), (4) and (9), which gives four blocks:
   B1 = (1)-(2), B2 = (3), B3 = (4)-(8), B4 = (9).

* Control-flow graph
  - Nodes are basic blocks; there is an edge B -> C if C can run right after B (a jump from B to
    C, or C follows B and B does not end in an unconditional jump).
  - Edges of the example: B1 -> B2, B2 -> B3, B2 -> B4, B3 -> B2.
  - A /back edge/ B3 -> B2 whose target dominates its source marks a loop; B2 is the loop header.
  - Node D *dominates* node N if every path from the entry to N goes through D.

* Static single assignment (SSA)
  In SSA form every variable is assigned exactly once in the program text. Each assignment
  to a variable gets a new version: s0, s1, s2, ...

  Where control flow merges, a \u03c6-function picks the version that arrived along the edge the
  program came from:

  #+BEGIN_SRC text
  B2:  s1 = \u03c6(s0, s2)      ; s0 from B1, s2 from B3
       i1 = \u03c6(i0, i2)
       if i1 >= n goto L2
  B3:  t1 = i1 * 4
       t2 = a[t1]
       s2 = s1 + t2
       i2 = i1 + 1
       goto L1
  #+END_SRC

** Where to put \u03c6-functions
   - A \u03c6 for x is needed at a block where two different definitions of x meet.
   - The /minimal/ placement uses the *dominance frontier*: DF(B) is the set of blocks where
     B's dominance ends, i.e. blocks C such that B dominates a predecessor of C but does not
     strictly dominate C.
   - For the example, DF(B3) = {B2}, so the definitions of s and i in B3 put \u03c6s in B2.
   - /Pruned/ SSA also drops \u03c6s for variables that are dead at the block entry.

** Leaving SSA
   Real machines have no \u03c6. Before register allocation each \u03c6 is replaced by copies at the
   end of the predecessor blocks (s2 -> s1 is a copy "s1 = s2" at the end of B3). Many of
   those copies disappear again when the allocator gives both names the same register.

* Why SSA helps
  - Each use has exactly one definition, so reaching definitions become trivial (use-def
    chains are just pointers).
  - Constant propagation and dead-code elimination get simpler and faster.
  - The price: \u03c6-functions, and about 1.5 to 3 times as many variable names after renaming
    (in the MiniC-S test suite the reference compiler measured 2.1 times on average).

* Exam hints                                                      :noexport:
  The final exam asks for leaders / basic blocks of a short program and one SSA conversion with
  \u03c6-functions. You will not need to compute dominance frontiers by hand.

* Reading
  - Dr Sakakibara's handout 06 continues with data-flow analysis on these CFGs.
  - The lab notebook (Lab 3) builds the CFG for program P from handout 06.
"""


def write_05() -> None:
    (OUT / "05_ir_ssa_cfg_en.txt").write_text(ORG_05, encoding="utf-8")


# ---------------------------------------------------------------- 07 Typora HTML export (lab handout)
TYPORA_CSS = """:root { --side-bar-bg-color: #fafafa; --control-text-color: #777; }
html { font-size: 16px; -webkit-font-smoothing: antialiased; }
body { margin: 0px; padding: 0px; height: auto; inset: 0px; font-size: 1rem; line-height: 1.42857; overflow-x: hidden; background: inherit; }
#write { max-width: 860px; margin: 0px auto; padding: 30px 30px 100px; }
.md-fences { font-family: var(--monospace); font-size: 0.9em; background: #f8f8f8; border: 1px solid #e7eaed; }
.CodeMirror-line { padding: 0 4px; }
@media print { .typora-export * { -webkit-print-color-adjust: exact; } }
"""

YACC_SPEC = """%{
#include "ast.h"
extern int lineno;
void yyerror(const char *msg);
%}
%union { int ival; char *name; Node *node; }
%token <ival> NUM
%token <name> ID
%token IF ELSE WHILE RETURN INT LE
%type  <node> stmt expr
%nonassoc LOWER_THAN_ELSE
%nonassoc ELSE
%left '<' LE
%left '+' '-'
%left '*' '/'
%%
stmt : ID '=' expr ';'                       { $$ = mk_assign($1, $3, lineno); }
     | IF '(' expr ')' stmt %prec LOWER_THAN_ELSE { $$ = mk_if($3, $5, NULL, lineno); }
     | IF '(' expr ')' stmt ELSE stmt        { $$ = mk_if($3, $5, $7, lineno); }
     | WHILE '(' expr ')' stmt               { $$ = mk_while($3, $5, lineno); }
     | error ';'                             { yyerrok; $$ = mk_empty(lineno); }
     ;
expr : expr '+' expr   { $$ = mk_bin('+', $1, $3, lineno); }
     | expr '*' expr   { $$ = mk_bin('*', $1, $3, lineno); }
     | expr '<' expr   { $$ = mk_bin('<', $1, $3, lineno); }
     | '(' expr ')'    { $$ = $2; }
     | NUM             { $$ = mk_num($1, lineno); }
     | ID              { $$ = mk_id($1, lineno); }
     ;
%%
"""

RUN = """$ umilex minic.l            # lex.umi.c ができる
$ umiyacc -d -v minic.y     # parse.umi.c, parse.umi.h, parse.umi.output
$ cc -std=c11 -Wall -o minicc parse.umi.c lex.umi.c ast.c main.c
$ ./minicc --dump-ast tests/t07_if_else.mc
(If (Lt (Id x) (Num 10)) (Assign y (Num 1)) (Assign y (Num 2)))
"""


def _fence(src: str, lang: str) -> str:
    from html import escape

    empty = '<span cm-text="">&#8203;</span>'
    lines = "".join(
        f'<pre class=" CodeMirror-line " role="presentation"><span role="presentation" style="padding-right: 0.1px;">{escape(line) or empty}</span></pre>'
        for line in src.rstrip(NL).split(NL)
    )
    return (
        f'<pre spellcheck="false" class="md-fences md-end-block ty-contain-cm modeLoaded" lang="{lang}">'
        f'<div class="CodeMirror cm-s-inner cm-s-null-scroll CodeMirror-wrap" lang="{lang}"><div style="overflow: hidden; position: relative; width: 3px; height: 0px;"><textarea autocorrect="off" autocapitalize="off" spellcheck="false" tabindex="0" style="position: absolute; bottom: -1em; padding: 0px; width: 1000px; height: 1em; outline: none;"></textarea></div>'
        f'<div class="CodeMirror-scrollbar-filler" cm-not-content="true"></div><div class="CodeMirror-gutter-filler" cm-not-content="true"></div>'
        f'<div class="CodeMirror-scroll" tabindex="-1"><div class="CodeMirror-sizer" style="margin-left: 0px; margin-bottom: 0px; border-right-width: 0px; padding-right: 0px; padding-bottom: 0px;"><div style="position: relative; top: 0px;"><div class="CodeMirror-lines" role="presentation"><div role="presentation" style="position: relative; outline: none;"><div class="CodeMirror-measure"><pre><span>xxxxxxxxxx</span></pre></div><div class="CodeMirror-measure"></div><div style="position: relative; z-index: 1;"></div>'
        f'<div class="CodeMirror-code" role="presentation">{lines}</div></div></div></div></div><div style="position: absolute; height: 0px; width: 1px; border-bottom: 0px solid transparent; top: 0px;"></div><div class="CodeMirror-gutters" style="display: none; height: 100%;"></div></div></div></pre>'
    )


BODY_07 = f"""<h1 id='演習2umiyacc-による-minic-s-の構文解析器'><span>演習2　umiyacc による MiniC-S の構文解析器</span></h1>
<p><span>コンパイラ構成論（CC-2270）　第7回〜第8回の演習　作成：榊原 諒・TA 三宅 悠斗</span></p>
<blockquote><p><strong><span>締切：12月7日（月）23:59</span></strong><span>（Shiomi Learn の「課題2」から提出）。自動採点サーバ kanade で、テスト 40 個（うち非公開 10 個）を使って採点します。</span></p></blockquote>
<h2 id='1-目標'><span>1. 目標</span></h2>
<p><span>課題1 で作った字句解析器（umilex）に、umiyacc で書いた構文解析器をつなぎ、MiniC-S のプログラムから AST を作って S 式の形で出力します。意味解析（第9〜10回）はこの課題には含みません。</span></p>
<h2 id='2-準備'><span>2. 準備</span></h2>
<ol start='' >
<li><p><span>演習室の PC にログインし、</span><code>~cc2270/lab2/</code><span> を自分のホームにコピーする（</span><code>cp -r ~cc2270/lab2 ~/</code><span>）。</span></p></li>
<li><p><span>課題1 の </span><code>minic.l</code><span> を </span><code>lab2/</code><span> に置く。トークン名は </span><code>parse.umi.h</code><span> のものに合わせること。</span></p></li>
<li><p><code>make test</code><span> で公開テスト 30 個を実行できることを確かめる。</span></p></li>
</ol>
<h2 id='3-仕様ファイルのひな形'><span>3. 仕様ファイルのひな形</span></h2>
<p><span>配布する </span><code>minic.y</code><span> の抜粋です。関数定義や配列は自分で追加します。</span></p>
{_fence(YACC_SPEC, "c")}
<ul>
<li><p><code>%nonassoc LOWER_THAN_ELSE</code><span> と </span><code>%prec</code><span> で dangling else のシフト／還元衝突を解消しています。これを消すと umiyacc は衝突を 1 個報告します。</span></p></li>
<li><p><code>error ';'</code><span> の規則は、構文エラーのあと次の </span><code>;</code><span> まで読み飛ばして解析を続けるためのものです。エラー回復のテスト（6 個）はこれがないと通りません。</span></p></li>
<li><p><code>yyerror</code><span> は </span><code>line 行番号: syntax error near 'トークン'</code><span> の形式で標準エラー出力に出すこと。</span></p></li>
</ul>
<h2 id='4-ビルドと実行'><span>4. ビルドと実行</span></h2>
{_fence(RUN, "bash")}
<h2 id='5-課題'><span>5. 課題</span></h2>
<ol start='' >
<li><p><span>ひな形に、関数定義・関数呼び出し・</span><code>return</code><span> 文・配列参照を追加する。</span></p></li>
<li><p><span>単項マイナスを </span><code>%prec UMINUS</code><span> で追加し、</span><code>-a * b</code><span> が </span><code>(Mul (Neg (Id a)) (Id b))</code><span> になることを確かめる。</span></p></li>
<li><p><code>umiyacc -v</code><span> の出力で衝突が 0 個であることを確かめ、状態数をレポートに書く。</span></p></li>
<li><p><span>レポート（PDF、A4 で 2 ページ以内）に、追加した規則と、衝突をどう解消したかを書く。</span></p></li>
</ol>
<h2 id='6-採点基準'><span>6. 採点基準</span></h2>
<figure><table>
<thead>
<tr><th><span>項目</span></th><th style='text-align:center;' ><span>配点</span></th><th><span>内容</span></th></tr></thead>
<tbody><tr><td><span>公開テスト</span></td><td style='text-align:center;' ><span>40</span></td><td><span>30 個、各 4/3 点</span></td></tr><tr><td><span>非公開テスト</span></td><td style='text-align:center;' ><span>30</span></td><td><span>10 個、各 3 点</span></td></tr><tr><td><span>衝突 0 個</span></td><td style='text-align:center;' ><span>10</span></td><td><span>シフト／還元・還元／還元とも</span></td></tr><tr><td><span>レポート</span></td><td style='text-align:center;' ><span>20</span></td><td><span>規則の説明と衝突の解消方法</span></td></tr></tbody>
</table></figure>
<p><span>合計 100 点を成績の 15% に換算します。手書きの再帰下降構文解析器（英語ノート 02 の §5）で出した場合は、公開テストの点に 5 点を加えます（上限 100 点）。</span></p>
<h2 id='7-よくあるトラブル'><span>7. よくあるトラブル</span></h2>
<ul>
<li><p><code>yylval</code><span> の型が合わないと言われる → </span><code>%union</code><span> のメンバ名と </span><code>%token &lt;…&gt;</code><span> の指定を確認。</span></p></li>
<li><p><code>undefined reference to yywrap</code><span> → </span><code>minic.l</code><span> に </span><code>int yywrap(void) {{ return 1; }}</code><span> を書くか、</span><code>%option noyywrap</code><span> を使う。</span></p></li>
<li><p><span>自宅の Mac で動かない → umiyacc は演習室と cc-build にしか入っていません。</span><code>ssh cc-build.shiomi-tech.example</code><span> で作業してください。</span></p></li>
</ul>
"""

PAGE_07 = """<!doctype html>
<html>
<head>
<meta charset='UTF-8'><meta name='viewport' content='width=device-width initial-scale=1'>
<link href='https://fonts.googleapis.com/css?family=Open+Sans:400italic,700italic,700,400&subset=latin,latin-ext' rel='stylesheet' type='text/css' /><style type='text/css'>%CSS%</style><title>演習2_umiyacc</title>
</head>
<body class='typora-export os-windows'><div class='typora-export-content'>
<div id='write'  class=''>%BODY%</div></div>
</body>
</html>"""


def write_07() -> None:
    html = PAGE_07.replace("%CSS%", TYPORA_CSS).replace("%BODY%", BODY_07)
    (OUT / "07_lab2_umiyacc_ja.html").write_text(html, encoding="utf-8")


# ---------------------------------------------------------------- 08 TA notebook (executed here)
NB_CELLS = [
    (
        "md",
        "# 演習3 の準備：生存変数解析とグラフ彩色（TA ノートブック）\n\n"
        "TA 三宅です。配布資料06 の例題プログラム P について、生存変数解析・干渉グラフ・彩色を Python で確かめます。"
        "課題3 のひな形 `regalloc.py` と同じデータ構造を使っています。\n\n"
        "> 実行環境：cc-build の JupyterHub（Python 3.12）。セルは上から順に実行してください。",
    ),
    (
        "code",
        """# 例題プログラム P（配布資料06 §1.3）
blocks = {
    "B1": [("a", []), ("b", [])],
    "B2": [("c", ["a", "b"]), ("d", ["c"]), (None, ["c"])],
    "B3": [("a", ["b"]), ("b", ["d"])],
    "B4": [(None, ["d"])],
}
succ = {"B1": ["B2"], "B2": ["B3", "B4"], "B3": ["B2"], "B4": []}

def use_def(instrs):
    use, defs = set(), set()
    for dst, srcs in instrs:
        use |= {s for s in srcs if s not in defs}
        if dst:
            defs.add(dst)
    return use, defs

for b, ins in blocks.items():
    u, d = use_def(ins)
    print(b, "use =", sorted(u), "def =", sorted(d))""",
    ),
    (
        "md",
        "## 1. 反復による IN / OUT の計算\n\n後ろ向きの解析なので、ブロックを逆順（B4, B3, B2, B1）に回すと早く収束します。",
    ),
    (
        "code",
        """def liveness(blocks, succ, order):
    IN = {b: set() for b in blocks}
    OUT = {b: set() for b in blocks}
    rounds = 0
    changed = True
    while changed:
        changed = False
        rounds += 1
        for b in order:
            use, defs = use_def(blocks[b])
            out = set().union(*(IN[s] for s in succ[b]))
            new_in = use | (out - defs)
            if new_in != IN[b] or out != OUT[b]:
                IN[b], OUT[b] = new_in, out
                changed = True
    return IN, OUT, rounds

IN, OUT, rounds = liveness(blocks, succ, ["B4", "B3", "B2", "B1"])
print("反復回数:", rounds)
for b in blocks:
    print(f"{b}: IN = {sorted(IN[b])}, OUT = {sorted(OUT[b])}")
_, _, rounds_fwd = liveness(blocks, succ, ["B1", "B2", "B3", "B4"])
print("前から回したときの反復回数:", rounds_fwd)""",
    ),
    (
        "md",
        "## 2. 干渉グラフ\n\n命令ごとに後ろから生存集合を更新し、定義された変数と、その直後に生きている変数の間に辺を張ります。",
    ),
    (
        "code",
        """def interference(blocks, OUT):
    edges = set()
    for b, ins in blocks.items():
        live = set(OUT[b])
        for dst, srcs in reversed(ins):
            if dst:
                for v in live - {dst}:
                    edges.add(tuple(sorted((dst, v))))
                live.discard(dst)
            live |= set(srcs)
    return edges

edges = interference(blocks, OUT)
print(sorted(edges))
deg = {v: sum(v in e for e in edges) for v in "abcd"}
print("次数:", deg)""",
    ),
    (
        "code",
        """def colour(nodes, edges, k):
    adj = {v: set() for v in nodes}
    for x, y in edges:
        adj[x].add(y)
        adj[y].add(x)
    work, stack = set(nodes), []
    while work:
        cand = sorted(v for v in work if len(adj[v] & work) < k)
        v = cand[0] if cand else sorted(work)[0]   # 候補がなければスピル候補（ここでは名前順）
        stack.append(v)
        work.remove(v)
    regs = {}
    for v in reversed(stack):
        used = {regs[w] for w in adj[v] if w in regs}
        free = [r for r in range(1, k + 1) if f"r{r}" not in used]
        regs[v] = f"r{free[0]}" if free else "SPILL"
    return stack, regs

for k in (3, 2):
    stack, regs = colour("abcd", edges, k)
    print(f"k={k}: 積んだ順 {stack} -> {regs}")""",
    ),
    (
        "md",
        "## メモ\n\n- k = 3 なら a と c が同じレジスタ r2 を共有できる。\n- k = 2 では b, c, d の三角形のため、どこかでスピルが必要（上の出力で b が SPILL になる）。\n"
        "- 課題3 の自動採点では、この例の正解を `k=3` で確認しています。",
    ),
]


SHOW_TABLE = """# 表で確認（あとから追加したセル）
class LiveTable:
    def __init__(self, IN, OUT):
        self.IN, self.OUT = IN, OUT

    @staticmethod
    def fmt(s):
        return "{" + ", ".join(sorted(s)) + "}"

    def __repr__(self):
        return "\\n".join(f"{b}  IN={self.fmt(self.IN[b])}  OUT={self.fmt(self.OUT[b])}" for b in self.IN)

    def _repr_html_(self):
        rows = "".join(f"<tr><th>{b}</th><td>{self.fmt(self.IN[b])}</td><td>{self.fmt(self.OUT[b])}</td></tr>" for b in self.IN)
        return ('<table border="1" class="dataframe">\\n<thead><tr><th>block</th><th>IN</th><th>OUT</th></tr></thead>\\n'
                f"<tbody>{rows}</tbody>\\n</table>")

LiveTable(IN, OUT)"""


def _run_cells() -> list[dict]:
    import contextlib
    import io

    ns: dict = {}
    cells, count = [], 0
    for n, (kind, src) in enumerate(NB_CELLS):
        cid = f"c{n:02d}-{abs(hash(kind)) % 1:04d}"
        if kind == "md":
            cells.append(
                {
                    "cell_type": "markdown",
                    "id": f"md{n:02d}",
                    "metadata": {},
                    "source": src.splitlines(keepends=True),
                }
            )
            continue
        count += 1
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(src, ns)  # noqa: S102 - our own cells
        outs = [
            {
                "name": "stdout",
                "output_type": "stream",
                "text": buf.getvalue().splitlines(keepends=True),
            }
        ]
        del cid
        cells.append(
            {
                "cell_type": "code",
                "execution_count": count,
                "id": f"code{n:02d}",
                "metadata": {},
                "outputs": outs,
                "source": src.splitlines(keepends=True),
            }
        )
    # a rich display: run the LiveTable cell and keep both representations
    shown = eval(
        compile(SHOW_TABLE.rsplit(NL, 1)[1], "<cell>", "eval"),
        (exec(SHOW_TABLE.rsplit(NL, 1)[0], ns), ns)[1],
    )  # noqa: S307
    html, plain = shown._repr_html_(), repr(shown)
    count += 1
    cells.insert(
        4,
        {
            "cell_type": "code",
            "execution_count": count,
            "id": "code03b",
            "metadata": {},
            "outputs": [
                {
                    "data": {
                        "text/html": html.splitlines(keepends=True),
                        "text/plain": plain.splitlines(keepends=True),
                    },
                    "execution_count": count,
                    "metadata": {},
                    "output_type": "execute_result",
                }
            ],
            "source": SHOW_TABLE.splitlines(keepends=True),
        },
    )
    return cells


def write_08() -> None:
    nb = {
        "cells": _run_cells(),
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {"name": "python", "version": "3.12.7"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (OUT / "08_lab3_liveness_ja.ipynb").write_text(
        json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


# ---------------------------------------------------------------- faq.csv (UTF-16 LE with BOM, as Excel "Unicode text" renamed)
FAQ = [
    ("question", "answer"),
    (
        "課題1 で、キーワードが ID として認識されてしまいます。",
        'umilex は同じ長さで一致したら先に書いた規則を選びます。"if" などの規則を ID の規則より前に書いてください。',
    ),
    (
        "How many times can I submit an assignment to kanade?",
        "As many times as you like before the deadline; only the last submission is graded. The server accepts at most one submission per 60 seconds from the same student.",
    ),
    ("中間小テストに電卓は持ち込めますか？", "持ち込めません。計算が必要な問題は出しません。"),
    (
        "Can I write the Assignment 2 parser in Python instead of C?",
        "No. Assignment 2 must use umiyacc and C. Python is used only in Assignment 3.",
    ),
    (
        "umiyacc で「conflicts: 1 shift/reduce」と出ます。減点されますか？",
        "dangling else の 1 個だけなら、%nonassoc LOWER_THAN_ELSE と %prec で解消してください。衝突が残っていると採点基準の「衝突 0 個」（10 点）が付きません。",
    ),
    (
        "Is the final exam open book?",
        "No. You may bring one A4 sheet of hand-written notes (both sides).",
    ),
    (
        "期末試験の過去問はありますか？",
        "2025年度の期末試験の問題だけ Shiomi Learn の「資料」に置いてあります。解答は配布しません。",
    ),
    (
        "I missed the mid-term quiz because of a cold. Can I take it later?",
        "Only with a medical certificate. Send a scan to Dr Sakakibara within one week of the quiz; the make-up quiz is held in his office E-507.",
    ),
    (
        "演習室 PC のホームディレクトリの容量はどれくらいですか？",
        "1人 2 GB です。コアダンプ（core ファイル）で埋まることが多いので、ulimit -c 0 を .bashrc に書いておくとよいです。",
    ),
    (
        "What does 'E212' mean in the checker output?",
        "You assigned a float expression to an int variable without a cast. Write an explicit (int) cast.",
    ),
    (
        "レジスタ割付の課題で、スピルした変数はどこに置けばいいですか？",
        "スタックフレーム上に置きます。r14（スタックポインタ）からのオフセットで lw / sw してください。オフセットは 4 の倍数です。",
    ),
    (
        "Do I need to implement SSA in Assignment 3?",
        "No. Assignment 3 works on ordinary three-address code. SSA is only on the exam.",
    ),
    (
        "課題の締切を過ぎてしまいました。",
        "1日ごとに 20% 減点で、3日以内なら受け付けます。Shiomi Learn の提出ボタンはそのまま使えます。",
    ),
    (
        "Where is room E-512?",
        "It is on the 5th floor of Building E, at the end of the corridor past Dr Sakakibara's office E-507.",
    ),
    (
        "kanade のテスト結果で TIMEOUT と出ます。",
        "1 テストあたり 2 秒の制限があります。無限ループ（特にエラー回復で同じトークンを読み続けるもの）を疑ってください。",
    ),
    (
        "第10回の録画がありません。",
        "冒頭20分はマイクの不具合で録画できていません。スライドを見てください（Brennan 先生のスライド04 に全部書いてあります）。",
    ),
    (
        "Are the slides of the English lectures translated into Japanese?",
        "No. Only the English versions exist, but the Japanese handouts 06 and the syllabus use the same terms with English in brackets.",
    ),
    (
        "cc-build に学外から入れません。",
        "学外からは Shiomi VPN に接続してから ssh してください。VPN の設定は情報基盤センターのページにあります。",
    ),
]


def write_faq() -> None:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    for row in FAQ:
        w.writerow(row)
    (OUT / "faq.csv").write_bytes(b"\xff\xfe" + buf.getvalue().encode("utf-16-le"))


if __name__ == "__main__":
    write_02()
    write_05()
    write_07()
    write_08()
    write_faq()
