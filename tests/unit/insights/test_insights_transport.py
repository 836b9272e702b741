"""The two decisions the transport makes about offsets it has not seen applied: when
recovery may take a changelog's tail as aborted (faust ends a recovery whose records stopped
coming once ``Consumer.position`` reaches the highwater, the last offset to read, and
``recovered_through`` is what that position says), and when a commit may go past an offset
whose message was not acknowledged (``after_reread``)."""

from __future__ import annotations

from services.insights.transport import after_reread, recovered_through

# A changelog partition: records 0-9 committed, 10 the commit marker, 11-12 records of an
# aborted transaction, 13 its abort marker. The last stable offset is 14; the highwater
# recovery reads to is 12 (ConsumerThread._highwaters less faust's own one).
HIGHWATER = 12


def done(position: int, fetched: int | None, applied: int | None) -> bool:
    return recovered_through(position, fetched, applied) >= HIGHWATER


def test_records_fetched_but_not_yet_applied_keep_recovery_going():
    # the whole partition fetched in one go (position past the abort marker) while the
    # records wait in faust's queue: ending now would skip records 4-9 as already seen
    assert not done(position=14, fetched=9, applied=3)
    assert not done(position=14, fetched=9, applied=None)
    assert recovered_through(14, 9, None) == -1


def test_an_aborted_tail_ends_recovery_once_every_fetched_record_is_applied():
    assert done(position=14, fetched=9, applied=9)
    assert recovered_through(14, 9, 9) == 13


def test_the_position_counts_as_the_next_offset_not_the_last_one_read():
    # records 0-11 fetched and applied, record 12 (the highwater) not fetched yet: faust's
    # own comparison (position 12 >= highwater 12) would end recovery without it
    assert not done(position=12, fetched=11, applied=11)
    assert done(position=13, fetched=12, applied=12)


def test_a_partition_of_aborted_records_only_is_done_once_the_position_passes_them():
    # records 0-1 aborted, 2 the abort marker: nothing is handed over, the position moves
    # past all of it (highwater 3 - 2 = 1; recovery starts with applied -1)
    assert recovered_through(0, None, -1) == -1
    assert recovered_through(3, None, -1) >= 1


def test_a_missing_offset_is_committed_past_only_once_a_re_read_began_after_it():
    # offset 9 committed, 10 acknowledged, 9 not: is 9 a message still to come or a marker?
    assert after_reread(None, 9, None) == "read again"
    assert after_reread(4, 9, 5) == "read again"  # an earlier re-read says nothing of 9
    assert after_reread(9, 9, None) == "wait"  # however long the re-read takes
    assert after_reread(9, 9, 9) == "read again"  # 9 came again and was dropped again
    assert after_reread(9, 9, 10) == "commit"  # nothing at 9 for a read_committed consumer
