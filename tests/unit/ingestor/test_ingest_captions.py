"""A recorded lecture's captions: what was said, a paragraph a minute, each with its time."""

from services.ingestor.formats import Format
from services.ingestor.stages import parse_material

VTT = """WEBVTT - 第6回 キャッシュ

NOTE 自動生成の字幕を TA が直した

1
00:00:01.000 --> 00:00:04.500
<v 佐藤>今日はキャッシュの
置換方式を扱います。

2
00:00:04.500 --> 00:00:08.000
置換方式を扱います。
LRU が基本です。

3
00:01:02.000 --> 00:01:06.000 align:start
<i>Write-back</i> では dirty ビットを使います。
"""

SRT = """1
00:59:58,000 --> 01:00:01,000
We will stop here.

2
01:01:00,500 --> 01:01:03,000
{\\an8}Questions?

3
01:01:04,000 --> 01:01:06,000
AUDIENCE: Is the exam
open book this year?

4
01:01:07,000 --> 01:01:09,000
<i>[Prof. Lind]</i> No, one page of notes.
"""


def test_each_minute_of_captions_is_a_paragraph_headed_by_its_time():
    material = parse_material(VTT.encode(), "lecture06.vtt")
    assert material.format is Format.CAPTIONS and material.title == "第6回 キャッシュ"
    text = "\n".join(c.text for c in material.chunks)
    # the repeated rolling line once, Japanese lines joined without a space, tags gone
    assert "[0:01] 佐藤: 今日はキャッシュの置換方式を扱います。 LRU が基本です。" in text
    assert "[1:02] Write-back では dirty ビットを使います。" in text
    assert "自動生成" not in text and "-->" not in text and "<v" not in text


def test_subrip_captions_keep_the_hour_of_a_long_recording():
    material = parse_material(SRT.encode(), "recording.srt")
    assert material.title == "recording"
    (chunk,) = material.chunks
    assert "[59:58] We will stop here." in chunk.text
    assert "[1:01:00] Questions?" in chunk.text and "an8" not in chunk.text
    # each speaker who is named opens a paragraph of their own
    assert "[1:01:04] AUDIENCE: Is the exam open book this year?" in chunk.text
    assert "[1:01:07] Prof. Lind: No, one page of notes." in chunk.text
