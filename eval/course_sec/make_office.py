"""Build the Office materials of the course_sec eval set from the hand-written content below.

    .venv/bin/python eval/course_sec/make_office.py      (from the repository root)

writes, under eval/course_sec/materials/:

- 02_public_key_ja.pptx             - Lectures 4-5 slide deck (bullets with levels, tables,
                                      plain-text formulas, speaker notes)
- 06_access_network_log_ja.docx     - Lectures 11-14 Word handout (Title / Heading 1 /
                                      Heading 2, bulleted and numbered lists, tables, code)

The content is data (lists and tuples) so that it reads like the documents it makes.
Core properties carry fixed dates and every ZIP entry gets a fixed timestamp, so two runs
write byte-identical files (python-docx 1.2.0, python-pptx 1.0.2).
"""

# ruff: noqa: E501  (the hand-written Japanese content: a wide character counts as two columns)

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import docx
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Pt
from pptx import Presentation
from pptx.util import Inches
from pptx.util import Pt as PptPt

OUT = Path(__file__).parent / "materials"
FIXED = dt.datetime(2026, 12, 14, 10, 0, 0)  # core properties: created = modified
ZIP_TIME = (2026, 12, 14, 10, 0, 0)  # every ZIP entry's timestamp
COURSE = "SEC-3150 情報セキュリティ"

# =====================================================================================
# 02: slide deck, Lectures 4-5 (public-key cryptography)
# =====================================================================================
# Each slide: title, then any of
#   subtitle: str              - title slide only
#   bullets: [(level, text)]   - the body placeholder (levels 0-2)
#   text:    [str]             - a text box above the table
#   table:   [[cells]]         - first row is the header
#   notes:   str               - the speaker notes
DECK_TITLE = "第4–5回 公開鍵暗号: RSA・Diffie–Hellman・電子署名"
SLIDES: list[dict] = [
    {
        "title": DECK_TITLE,
        "subtitle": f"{COURSE}\n久保田 直人 ／ 2026年10月28日（水）・11月4日（水）",
        "notes": "第4回はスライド8（RSA をそのまま使ってはいけない理由）まで。第5回はスライド9の Diffie–Hellman から始める。"
        "11月4日は第1回の小テストを講義の最初の 10 分で行う。",
    },
    {
        "title": "共通鍵暗号だけでは困ること",
        "bullets": [
            (0, "暗号化の前に、相手と同じ鍵を安全に共有しておく必要がある（鍵配送問題）"),
            (0, "n 人が互いに秘密の通信をするには、鍵が n(n − 1)/2 個いる"),
            (1, "1,000 人なら 499,500 個"),
            (0, "公開鍵暗号: 暗号化用の公開鍵は誰に見せてもよい"),
            (1, "復号用の秘密鍵は本人だけが持つ"),
            (1, "必要な鍵の組は n 組で済む"),
        ],
        "notes": "この授業の受講者 48 人が全員ペアで共通鍵を持つとすると、48 × 47 / 2 = 1,128 個の鍵が必要になる。"
        "黒板でこの数を出してから、公開鍵の話に入る。",
    },
    {
        "title": "モジュラ演算の復習",
        "bullets": [
            (0, "a ≡ b (mod n): a と b を n で割った余りが等しい"),
            (0, "べき乗剰余 x^e mod n は「繰り返し二乗法」で速く計算できる"),
            (1, "e を2進数で見て、ビットごとに「二乗」し、ビットが 1 なら「掛ける」"),
            (1, "掛け算の回数は多くても 2 × (e のビット数) 程度"),
            (1, "途中で毎回 mod n を取るので、数は大きくならない"),
            (0, "逆元 e^(−1) mod φ(n) は拡張ユークリッドの互除法で求める"),
        ],
        "notes": "e = 65537 = 2^16 + 1 なら、16 回の二乗と 1 回の掛け算、合わせて 17 回の乗算で済む。"
        "これが公開指数に 65537 がよく使われる理由の一つ。演習2のノートブックで乗算回数を数えて確かめる。",
    },
    {
        "title": "RSA の鍵生成・暗号化・復号",
        "bullets": [
            (0, "鍵生成"),
            (1, "大きな素数 p, q を選び、n = p × q"),
            (1, "φ(n) = (p − 1)(q − 1)"),
            (1, "公開指数 e を選ぶ（gcd(e, φ(n)) = 1、通常は e = 65537）"),
            (1, "秘密指数 d = e^(−1) mod φ(n)"),
            (0, "公開鍵は (n, e)、秘密鍵は d"),
            (0, "暗号化: c = m^e mod n"),
            (0, "復号: m = c^d mod n"),
        ],
        "notes": "復号できる理由は、ed ≡ 1 (mod φ(n)) とオイラーの定理から m^(ed) ≡ m (mod n) となるため。"
        "証明は配布資料にはなく、板書のみ。試験では証明は問わない。",
    },
    {
        "title": "小さな数での RSA（例題）",
        "text": ["p = 83、q = 101、e = 17 として、平文 m = 1234 を暗号化する"],
        "table": [
            ["量", "計算", "値"],
            ["n", "83 × 101", "8383"],
            ["φ(n)", "82 × 100", "8200"],
            ["d", "17^(−1) mod 8200", "6753"],
            ["c", "1234^17 mod 8383", "2635"],
            ["復号", "2635^6753 mod 8383", "1234"],
        ],
        "notes": "17 × 6753 = 114,801 = 14 × 8200 + 1 なので、確かに d は e の逆元になっている。"
        "小テストでは p と q を変えた同じ形の問題を出す。",
    },
    {
        "title": "RSA の安全性",
        "bullets": [
            (0, "n から p と q を求める（素因数分解する）ことが難しい、という仮定に基づく"),
            (1, "分かっている最大の分解記録は RSA-250（829 ビット）"),
            (0, "現在の推奨は 2048 ビット以上、128 ビット強度が欲しければ 3072 ビット"),
            (0, "p と q は乱数で選び、鍵ごとに別のものを使う"),
            (1, "2 つの鍵が同じ素数を共有していると、gcd を取るだけで両方分解できる"),
        ],
        "notes": "2012 年の調査では、インターネット上の TLS の鍵のうち約 0.5% が、他の鍵と素数を共有していて簡単に分解できた。"
        "原因は、起動直後の組み込み機器が乱数の種を十分に集められなかったこと。",
    },
    {
        "title": "RSA の署名と検証",
        "bullets": [
            (0, "署名: s = H(M)^d mod n（秘密鍵で作る）"),
            (0, "検証: s^e mod n が H(M) と一致するか（公開鍵で確かめる）"),
            (0, "実際にはハッシュ値をそのまま使わず、パディング方式と組み合わせる"),
            (1, "RSASSA-PSS（推奨）"),
            (1, "RSASSA-PKCS1-v1_5（古いが、まだ広く使われている）"),
        ],
        "notes": "「署名は秘密鍵で暗号化すること」という説明は RSA でしか成り立たず、ECDSA や Ed25519 には当てはまらないので、レポートでは使わないこと。",
    },
    {
        "title": "RSA をそのまま使ってはいけない理由",
        "bullets": [
            (0, "教科書どおりの RSA（textbook RSA）は決定的"),
            (1, "同じ平文は必ず同じ暗号文になる → 候補が少なければ総当たりで平文が分かる"),
            (0, "準同型性（malleability）がある"),
            (1, "c × 2^e mod n を復号すると 2m mod n になる"),
            (0, "対策: 暗号化には OAEP、署名には PSS のパディングを使う"),
            (
                0,
                "PKCS#1 v1.5 の暗号化パディングは、Bleichenbacher の攻撃（1998 年）以来、新しい用途に使わない",
            ),
        ],
        "notes": "演習2では、準同型性を使って、復号オラクルから平文を取り出す小さな実験をする。",
    },
    {
        "title": "Diffie–Hellman 鍵共有",
        "bullets": [
            (0, "公開の値: 素数 p と生成元 g"),
            (0, "Alice は秘密の a を選び、A = g^a mod p を送る"),
            (0, "Bob は秘密の b を選び、B = g^b mod p を送る"),
            (0, "共有鍵: K = B^a mod p = A^b mod p = g^(ab) mod p"),
            (
                0,
                "盗聴者は A と B を見ても、a または b を求めない限り K が分からない（離散対数問題）",
            ),
        ],
        "notes": "例題: p = 2039、g = 7、a = 381、b = 1207 とすると、A = 1381、B = 760、共有鍵 K = 743 になる。"
        "2039 = 2 × 1019 + 1 は安全素数で、7 は位数 2038 の生成元。",
    },
    {
        "title": "中間者攻撃と認証",
        "bullets": [
            (0, "素の DH は、相手が本物かを確かめない"),
            (1, "Mallory が間に入り、Alice・Bob のそれぞれと別の鍵を共有できる"),
            (0, "対策: 鍵共有のメッセージに署名する（認証付き鍵共有）"),
            (1, "TLS 1.3 では CertificateVerify がこの役割を持つ（第6回）"),
            (0, "前方秘匿性（forward secrecy）"),
            (
                1,
                "通信ごとに使い捨ての a, b を作れば、後で長期の秘密鍵が漏れても過去の通信は読めない",
            ),
        ],
        "notes": "前方秘匿性の説明では、「今日の通信を録音しておき、10 年後に鍵を盗む」攻撃者を例にする。",
    },
    {
        "title": "楕円曲線暗号",
        "bullets": [
            (0, "楕円曲線上の点の足し算を使う。離散対数問題が有限体の場合より難しい"),
            (1, "同じ強度を、RSA よりずっと短い鍵で得られる"),
            (0, "よく使われる曲線"),
            (1, "P-256（NIST の曲線、ECDSA・ECDH）"),
            (1, "Curve25519（X25519 で鍵共有、Ed25519 で署名）"),
            (0, "ECDSA は署名ごとに使い捨ての乱数 k が必要"),
            (1, "k を再利用すると、2 つの署名から秘密鍵が計算できる"),
        ],
        "notes": "2010 年に、あるゲーム機の署名鍵が、ECDSA の k を毎回同じ値にしていたために公開されてしまった事例がある。"
        "Ed25519 は k をメッセージと秘密鍵から決定的に作るので、この失敗が起きない。",
    },
    {
        "title": "鍵と署名の大きさ・速度（hayate、1 コア）",
        "table": [
            ["方式", "公開鍵", "署名", "署名/秒", "検証/秒"],
            ["RSA-2048", "256 バイト", "256 バイト", "1,850", "62,000"],
            ["RSA-3072", "384 バイト", "384 バイト", "610", "28,500"],
            ["ECDSA P-256", "64 バイト", "約 64–72 バイト", "41,000", "14,200"],
            ["Ed25519", "32 バイト", "64 バイト", "30,500", "11,300"],
        ],
        "notes": "openssl speed rsa2048 rsa3072 ecdsap256 ed25519 の結果を丸めた値。"
        "RSA は検証が速く署名が遅い。楕円曲線はその逆で、署名のほうが速い。"
        "サーバが1秒に何千回もハンドシェイクするなら、署名が速い ECDSA のほうが有利。",
    },
    {
        "title": "量子計算機の影響",
        "bullets": [
            (0, "Shor のアルゴリズム: 素因数分解と離散対数を多項式時間で解く"),
            (1, "RSA、DH、楕円曲線暗号はすべて破られる"),
            (0, "Grover のアルゴリズム: 総当たりを平方根の回数に減らす"),
            (1, "AES-128 の強度は実質 64 ビット相当 → AES-256 を使えば十分"),
            (0, "耐量子計算機暗号（PQC）"),
            (1, "ML-KEM（鍵共有、FIPS 203）と ML-DSA（署名、FIPS 204）が 2024 年 8 月に標準化"),
        ],
        "notes": "ブラウザと大手のサーバでは、X25519 と ML-KEM-768 を組み合わせたハイブリッド鍵共有（X25519MLKEM768）がすでに使われ始めている。"
        "どちらか一方が破られても、もう一方が残れば安全という考え方。",
    },
    {
        "title": "演習2の予告",
        "bullets": [
            (0, "日時: 10月30日（金）4限、情報演習室3"),
            (0, "hayate の JupyterHub でノートブック lab2_rsa_dh.ipynb を開く"),
            (0, "内容"),
            (1, "繰り返し二乗法を実装し、乗算回数を数える"),
            (1, "小さな RSA と DH を手で動かす"),
            (1, "誕生日攻撃のシミュレーション"),
            (0, "提出: 11月5日（木）23:59、Kasumi LMS"),
        ],
        "notes": "ノートブックの乱数の種は 3150 に固定してある。種を変えると出力が資料と合わなくなるので、変えないこと。担当 TA は宮坂さん。",
    },
    {
        "title": "用語の対応（日本語 / English）",
        "table": [
            ["日本語", "English"],
            ["公開鍵暗号", "public-key cryptography"],
            ["鍵配送問題", "key distribution problem"],
            ["繰り返し二乗法", "square-and-multiply"],
            ["離散対数問題", "discrete logarithm problem"],
            ["中間者攻撃", "man-in-the-middle attack"],
            ["電子署名", "digital signature"],
        ],
    },
]


def build_deck(path: Path) -> None:
    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(13.333), Inches(7.5)
    title_layout, content_layout, title_only = (deck.slide_layouts[i] for i in (0, 1, 5))
    for spec in SLIDES:
        if "subtitle" in spec:
            slide = deck.slides.add_slide(title_layout)
            slide.placeholders[1].text = spec["subtitle"]
        elif "bullets" in spec:
            slide = deck.slides.add_slide(content_layout)
            body = slide.placeholders[1].text_frame
            for n, (level, text) in enumerate(spec["bullets"]):
                paragraph = body.paragraphs[0] if n == 0 else body.add_paragraph()
                paragraph.text, paragraph.level = text, level
        else:
            slide = deck.slides.add_slide(title_only)
        slide.shapes.title.text = spec["title"]
        top = Inches(1.6)
        if "text" in spec:
            box = slide.shapes.add_textbox(Inches(0.8), top, Inches(11.5), Inches(0.9))
            for n, line in enumerate(spec["text"]):
                paragraph = (
                    box.text_frame.paragraphs[0] if n == 0 else box.text_frame.add_paragraph()
                )
                paragraph.text = line
                paragraph.font.size = PptPt(20)
            top = Inches(2.7)
        if "table" in spec:
            rows = spec["table"]
            frame = slide.shapes.add_table(
                len(rows), len(rows[0]), Inches(0.8), top, Inches(11.5), Inches(0.5) * len(rows)
            )
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    frame.table.cell(r, c).text = value
        if "notes" in spec:
            slide.notes_slide.notes_text_frame.text = spec["notes"]
    props = deck.core_properties
    props.title, props.author, props.last_modified_by = DECK_TITLE, "久保田 直人", "久保田 直人"
    props.created = props.modified = FIXED
    props.revision = 1
    _save_normalised(deck.save, path)


# =====================================================================================
# 06: Word handout, Lectures 11-14 (authentication, access control, network defence,
#     logging, incident response)
# =====================================================================================
# Each item: (kind, content)
#   title / h1 / h2 / p: a paragraph in that style
#   bullet / bullet2 / number: list paragraphs (List Bullet, List Bullet 2, List Number)
#   code: lines in the "Code" paragraph style
#   table: rows, the first is the header
HANDOUT_TITLE = "第11–14回 認証・アクセス制御・ネットワーク防御・ログとインシデント対応（配布資料）"
HANDOUT: list[tuple[str, object]] = [
    ("title", HANDOUT_TITLE),
    (
        "p",
        f"{COURSE} ／ 2026年12月16日・12月23日・2027年1月13日・1月20日（いずれも水曜3限） ／ 担当: 久保田 直人",
    ),
    (
        "p",
        "この資料は第11回から第14回までの4回分をまとめたものである。演習6（1月15日）の手順は第5節にある。",
    ),
    ("h1", "1. 認証"),
    (
        "p",
        "認証（authentication）は「相手が名乗ったとおりの人か」を確かめること、認可（authorization）は「その人に何を許すか」を決めることである。"
        "ログイン画面が認証、ファイルの読み書きの許可が認可にあたる。両者を混同しないこと。",
    ),
    ("h2", "1.1 認証の三要素"),
    ("bullet", "知識: 本人だけが知っているもの（パスワード、PIN）"),
    ("bullet", "所持: 本人だけが持っているもの（スマートフォン、IC カード、ハードウェアトークン）"),
    ("bullet", "生体: 本人の身体的な特徴（指紋、顔）"),
    (
        "p",
        "異なる要素を2つ以上組み合わせるのが多要素認証（MFA）である。パスワードを2つ聞くのは、同じ知識要素なので多要素認証ではない。",
    ),
    ("h2", "1.2 TOTP"),
    (
        "p",
        "TOTP（RFC 6238）は、利用者の端末とサーバが共有する秘密鍵 K と現在時刻から、短い数字のコードを作る方式である。"
        "時刻を 30 秒ごとに区切ったカウンタ T = floor(現在の UNIX 時刻 ÷ 30) を HMAC-SHA1 に入れ、その結果から 6 桁の数字を取り出す。",
    ),
    (
        "p",
        "KiriAuth では、端末の時計のずれを考えて、前後 1 ステップ（±30 秒）のコードまで受け付ける。"
        "同じコードは一度しか使えない。また、コードを 5 回続けて間違えると、そのアカウントの2要素認証は 15 分間ロックされる。",
    ),
    (
        "p",
        "TOTP は、偽のログインページに入力させるフィッシングには弱い（攻撃者が 30 秒以内に本物のサイトへ中継すればよい）。"
        "フィッシングに強いのは、ログイン先のオリジンに結び付いた公開鍵で署名する FIDO2 / パスキーである。",
    ),
    ("h1", "2. アクセス制御"),
    ("h2", "2.1 アクセス制御のモデル"),
    (
        "table",
        [
            ["モデル", "誰が許可を決めるか", "例"],
            [
                "DAC（任意アクセス制御）",
                "資源の所有者が自由に決める",
                "Unix のパーミッション、共有フォルダの共有設定",
            ],
            [
                "MAC（強制アクセス制御）",
                "システム全体のポリシーが決め、所有者も変えられない",
                "SELinux、機密区分（極秘・秘・部外秘）",
            ],
            [
                "RBAC（ロールベース）",
                "利用者に役割を割り当て、役割に権限を付ける",
                "KBX の admin / seller / buyer",
            ],
            [
                "ABAC（属性ベース）",
                "利用者・資源・環境の属性を使った規則で決める",
                "「学内ネットワークから、平日 9–18 時だけ」",
            ],
        ],
    ),
    (
        "p",
        "どのモデルでも、最小権限の原則（仕事に必要な最小限の権限だけを与える）と、既定で拒否する（明示的に許可されたものだけを通す）ことが基本になる。",
    ),
    ("h2", "2.2 Unix のパーミッション"),
    (
        "p",
        "ファイルごとに、所有者（u）・グループ（g）・その他（o）の3者について、読み（r = 4）・書き（w = 2）・実行（x = 1）の許可を持つ。"
        "数字の合計で表すと、640 は「所有者は読み書き、グループは読みだけ、その他は何もできない」を意味する。",
    ),
    (
        "code",
        [
            "$ ls -l /etc/kbx/",
            "-rw-r----- 1 root kbx  412 Dec 14 09:12 app.conf",
            "-rw------- 1 root root  64 Dec 14 09:12 pepper.key",
            "$ sudo chmod 640 /etc/kbx/app.conf",
            "$ sudo chown root:kbx /etc/kbx/app.conf",
            "$ find / -perm -4000 -type f 2>/dev/null    # setuid ビットの付いたファイルを探す",
        ],
    ),
    (
        "p",
        "setuid ビットが付いた実行ファイルは、実行した人ではなくファイルの所有者の権限で動く。root 所有の setuid プログラムに脆弱性があると、一般利用者が root になれてしまうので、数を最小限にする。"
        "KBX のペッパー（第8回）を入れた pepper.key は、Web アプリのグループ kbx にも読ませず、起動時に root が読み込んでから権限を落とす。",
    ),
    ("h1", "3. ネットワーク防御"),
    ("h2", "3.1 ファイアウォールの種類"),
    (
        "bullet",
        "パケットフィルタ: IP アドレス・ポート番号・プロトコルだけを見て、1パケットずつ判定する",
    ),
    (
        "bullet",
        "ステートフルインスペクション: 接続の状態を覚えておき、確立済みの接続の戻りのパケットを自動で通す",
    ),
    ("bullet2", "Linux の nftables や iptables の conntrack がこれにあたる"),
    ("bullet", "アプリケーションゲートウェイ / WAF: HTTP などの中身まで見て判定する"),
    (
        "bullet2",
        "WAF は SQL インジェクションの典型的な文字列を止められるが、アプリの修正の代わりにはならない",
    ),
    (
        "p",
        "外部に公開するサーバは、内部のネットワークとも外部とも別のセグメント（DMZ）に置く。公開サーバが乗っ取られても、そこから内部に直接入れないようにするためである。",
    ),
    ("h2", "3.2 hayate の nftables の設定"),
    (
        "p",
        "hayate では、入ってくる通信を既定で捨て（policy drop）、必要なものだけを許可している。",
    ),
    (
        "code",
        [
            "table inet filter {",
            "    chain input {",
            "        type filter hook input priority 0; policy drop;",
            "        iif lo accept",
            "        ct state established,related accept",
            "        ct state invalid drop",
            "        ip saddr 10.77.0.0/16 tcp dport 22 accept",
            "        ip saddr 10.77.0.0/16 tcp dport 443 accept",
            "        ip protocol icmp icmp type echo-request limit rate 10/second accept",
            '        log prefix "nft-drop: " limit rate 5/minute drop',
            "    }",
            "    chain output {",
            "        type filter hook output priority 0; policy accept;",
            "    }",
            "}",
        ],
    ),
    (
        "bullet",
        "ssh（22番）と HTTPS（443番、JupyterHub）は、演習ネットワーク 10.77.0.0/16 からだけ受け付ける",
    ),
    ("bullet", "ping は 1 秒に 10 回までに制限する"),
    ("bullet", "捨てたパケットは、1 分に 5 件までログに残す（ログが溢れないように）"),
    (
        "p",
        "規則は上から順に評価され、最初に一致したものが使われる。established,related の行を先頭近くに置くのは、大部分のパケットをそこで判定して処理を軽くするためである。",
    ),
    ("h2", "3.3 IDS と IPS"),
    (
        "p",
        "IDS（侵入検知システム）は通信を監視して攻撃らしいものを見つけたら警告する。IPS（侵入防止システム）は通信の経路上に置かれ、見つけた攻撃をその場で止める。"
        "検知の方法には、既知の攻撃のパターンと照合するシグネチャ型と、普段と違う振る舞いを見つけるアノマリ型がある。"
        "シグネチャ型は誤検知が少ないが未知の攻撃を見逃し、アノマリ型は未知の攻撃も見つけうるが誤検知が多い。",
    ),
    ("h2", "3.4 fail2ban"),
    (
        "p",
        "hayate では、ssh のパスワード推測を止めるために fail2ban を動かしている。設定は次のとおり。",
    ),
    (
        "code",
        [
            "[sshd]",
            "enabled  = true",
            "maxretry = 5",
            "findtime = 10m",
            "bantime  = 1h",
            "ignoreip = 127.0.0.1/8 10.77.1.0/24",
        ],
    ),
    (
        "p",
        "10 分の間に 5 回ログインに失敗したアドレスを、1 時間遮断する。サーバ群のある 10.77.1.0/24 は遮断の対象から外してある。",
    ),
    ("h1", "4. ログと監視"),
    ("h2", "4.1 何を記録するか"),
    ("bullet", "認証の成功と失敗（利用者名、送信元アドレス、時刻）"),
    ("bullet", "権限の変更、管理者操作"),
    ("bullet", "入力の検証エラー、アクセス拒否"),
    ("bullet", "設定の変更、サービスの起動と停止"),
    (
        "p",
        "逆に、パスワード、セッション ID、クレジットカード番号などはログに書かない。ログが漏れたときに二次被害になるからである。",
    ),
    ("h2", "4.2 ログの集約と時刻"),
    (
        "p",
        "演習ネットワークのサーバは、ログを rsyslog で kagero（10.77.1.30）に転送している。"
        "攻撃者はまず侵入したサーバのログを消そうとするので、ログを別のサーバに即座に送っておくことが重要である。"
        "kagero ではログを 180 日保存し、その後は圧縮して 1 年間テープに保管する。",
    ),
    (
        "p",
        "複数のサーバのログを突き合わせるには、時刻が揃っている必要がある。全サーバは chrony で学内の NTP サーバ ntp.kirigaoka-u.example に同期し、ログの時刻は UTC ではなく日本時間（+09:00）付きの ISO 8601 形式で記録する。",
    ),
    ("h2", "4.3 ログ解析の例"),
    ("p", "ssh のログイン失敗を、送信元アドレスごとに数える。"),
    (
        "code",
        [
            "$ grep 'Failed password' /var/log/auth.log \\",
            "    | awk '{for (i = 1; i <= NF; i++) if ($i == \"from\") print $(i + 1)}' \\",
            "    | sort | uniq -c | sort -rn | head -5",
            "   3412 203.0.113.45",
            "     41 198.51.100.7",
            "      6 10.77.4.23",
            "      2 10.77.4.9",
        ],
    ),
    (
        "p",
        'systemd の journal から読む場合は、journalctl -u ssh --since "2027-01-12 00:00" のように期間とユニットで絞り込む。',
    ),
    ("h1", "5. 演習6の手順（1月15日）"),
    (
        "number",
        "自分の VM（sec-vm-XX）に hayate と同じ nftables の設定を入れ、nft list ruleset で確かめる",
    ),
    (
        "number",
        "隣の人の VM から nmap -sS -p 1-1024 で自分の VM を調べ、開いているポートが 22 と 443 だけであることを確認する",
    ),
    (
        "number",
        "kagero から配布する auth.log の写し（lab6-auth.log）を解析し、攻撃元のアドレスと攻撃の始まった時刻を特定する",
    ),
    ("number", "fail2ban がその攻撃を何分で止めたかを、ログの時刻から計算してレポートに書く"),
    (
        "p",
        "nmap は演習ネットワークの中、しかも自分と隣の人の VM に対してだけ使うこと（シラバスの倫理規定を参照）。",
    ),
    ("h1", "6. インシデント対応"),
    (
        "p",
        "インシデント対応の流れは、NIST SP 800-61 の4段階で整理するとよい。",
    ),
    ("number", "準備: 連絡体制、手順書、ログの収集、訓練"),
    (
        "number",
        "検知と分析: 警告やログから事象を見つけ、本当にインシデントか、影響範囲はどこまでかを判断する",
    ),
    ("number", "封じ込め・根絶・復旧: 被害の拡大を止め、原因を取り除き、正常な状態に戻す"),
    ("number", "事後の活動: 振り返り（誰も責めない形で）を行い、再発防止策を準備の段階に反映する"),
    (
        "p",
        "封じ込めの段階でいきなりサーバの電源を切ると、メモリ上の証拠（実行中のプロセス、ネットワーク接続、メモリだけに置かれたマルウェア）が失われる。"
        "まずネットワークから切り離し、メモリとディスクの内容を保全してから調べる。証拠を扱った人と時刻は、保管の記録（chain of custody）として残す。",
    ),
    ("h2", "6.1 事例: 2025年度の演習サーバへのパスワード推測"),
    (
        "p",
        "昨年度、演習サーバの ssh が学外に誤って公開されていた期間に起きた事例を、時系列で示す（時刻は日本時間）。",
    ),
    (
        "table",
        [
            ["時刻", "出来事"],
            ["2025-11-08 02:14", "203.0.113.45 から ssh のパスワード推測が始まる"],
            ["2025-11-08 02:34", "20 分間で 3,412 回の失敗。fail2ban が未導入で止まらない"],
            [
                "2025-11-08 02:51",
                "パスワードが「kiri2025」だった演習用アカウント guest7 へのログインに成功",
            ],
            ["2025-11-08 09:05", "出勤した TA が kagero の警告メールに気づき、教員に連絡"],
            ["2025-11-08 09:20", "ネットワークから切り離し（封じ込め）、メモリとディスクを保全"],
            [
                "2025-11-08 15:40",
                "仮想通貨の採掘プログラムが見つかる。root 権限は取られていなかった",
            ],
            ["2025-11-10 12:00", "サーバを作り直して再開。ssh は鍵認証のみ、fail2ban を導入"],
        ],
    ),
    (
        "p",
        "侵入から検知までに約 6 時間 14 分かかった。振り返りの結果、(1) ssh のパスワード認証を止めて公開鍵認証だけにする、(2) fail2ban を全サーバに入れる、(3) 夜間の警告を当番の教員の携帯電話にも送る、の3点を決めた。",
    ),
    ("h2", "6.2 報告と連絡"),
    (
        "p",
        "学内でインシデントを見つけたら、自分で調べ続ける前に、まず霧ヶ丘情報大学の CSIRT（内線 4410、csirt@kirigaoka-u.example）に連絡する。"
        "演習の範囲内の出来事なら、先に TA か教員に知らせればよい。個人情報の漏えいが疑われる場合は、大学が個人情報保護委員会への報告を判断する。",
    ),
]

_STYLE = {"title": "Title", "h1": "Heading 1", "h2": "Heading 2", "p": None}
_LIST_STYLE = {"bullet": "List Bullet", "bullet2": "List Bullet 2", "number": "List Number"}


def build_handout(path: Path) -> None:
    document = docx.Document()
    code = document.styles.add_style("Code", WD_STYLE_TYPE.PARAGRAPH)
    code.base_style = document.styles["Normal"]
    code.font.name, code.font.size = "Consolas", Pt(9)
    code.paragraph_format.space_after = Pt(0)
    for kind, content in HANDOUT:
        if kind in _STYLE:
            document.add_paragraph(content, style=_STYLE[kind])
        elif kind in _LIST_STYLE:
            document.add_paragraph(content, style=_LIST_STYLE[kind])
        elif kind == "code":
            for line in content:
                document.add_paragraph(line, style="Code")
        elif kind == "table":
            table = document.add_table(rows=len(content), cols=len(content[0]), style="Table Grid")
            for r, row in enumerate(content):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
                    if r == 0:
                        table.cell(r, c).paragraphs[0].runs[0].bold = True
        else:
            raise ValueError(kind)
    props = document.core_properties
    props.title, props.author, props.last_modified_by = HANDOUT_TITLE, "久保田 直人", "久保田 直人"
    props.created = props.modified = FIXED
    props.revision = 1
    _save_normalised(document.save, path)


# =====================================================================================


def _save_normalised(save, path: Path) -> None:
    """Save through ``save(file)``, then rewrite the ZIP with fixed entry timestamps."""
    buffer = io.BytesIO()
    save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            entry = zipfile.ZipInfo(item.filename, date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            out.writestr(entry, source.read(item.filename))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    build_deck(OUT / "02_public_key_ja.pptx")
    build_handout(OUT / "06_access_network_log_ja.docx")
    for name in ("02_public_key_ja.pptx", "06_access_network_log_ja.docx"):
        print(f"{name}: {(OUT / name).stat().st_size:,d} bytes")


if __name__ == "__main__":
    main()
