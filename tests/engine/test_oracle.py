# The engine against GNU Backgammon's legal plays stored in oracle_data.py (MicroPython too).
#
# Each case gives a position, dice, gnubg's number of distinct plays and a fingerprint of
# their result IDs (an order-free checksum, so no list of results is held on a small
# heap); cases with few plays also list the result IDs. Regenerate: tests/gen_oracle.py.
from gammon import Position, legal_plays

MASK = 0x3FFFFFFF


def _hash(pid):
    """FNV-1a over the ID's characters, 30 bits (as gen_oracle.fingerprint)."""
    h = 0x811C9DC5 & MASK
    for ch in pid:
        h = ((h ^ ord(ch)) * 16777619) & MASK
    return h


def cases():
    """(position id, dice, count, fingerprint, result ids or None) for each stored line."""
    from oracle_data import CASES

    for chunk in CASES:
        start = 0
        while start < len(chunk):
            end = chunk.find("\n", start)
            if end < 0:
                end = len(chunk)
            f = chunk[start:end].split(" ")
            start = end + 1
            ids = None
            if len(f) > 4:
                ids = [f[4][i : i + 14] for i in range(0, len(f[4]), 14)]
            elif f[2] == "0":
                ids = []
            yield f[0], (int(f[1][0]), int(f[1][1])), int(f[2]), int(f[3]), ids


def check(pid, dice, count, fp, ids):
    """None when the engine agrees with the case, else what differs."""
    p = Position.from_id(pid)
    plays = legal_plays(p, dice)
    if len(plays) != count:
        return "%s %d-%d: %d plays, gnubg %d" % (pid, dice[0], dice[1], len(plays), count)
    total = 0
    for play in plays:
        total += _hash(play.result.position_id())
    if ids is not None:
        got = sorted(play.result.position_id() for play in plays)
        if got != ids:
            return "%s %d-%d: results %s, gnubg %s" % (pid, dice[0], dice[1], got, ids)
    if total & MASK != fp:
        return "%s %d-%d: the results differ from gnubg's (fingerprint)" % (pid, dice[0], dice[1])
    return None


def test_fingerprint():
    # gen_oracle.fingerprint(["4HPwATDgc/ABMA"]), and of the 16 results of 3-1 at the start
    assert _hash("4HPwATDgc/ABMA") == 841669087
    total = 0
    for play in legal_plays(Position.start(), (3, 1)):
        total += _hash(play.result.position_id())
    assert total & MASK == 168651548


def test_oracle_cases_are_complete():
    n = zero = listed = 0
    for pid, dice, count, _fp, ids in cases():
        assert len(pid) == 14 and 1 <= dice[0] <= 6 and 1 <= dice[1] <= 6
        assert ids is None or len(ids) == count
        assert Position.from_id(pid).position_id() == pid
        n += 1
        zero += count == 0
        listed += ids is not None
    assert n >= 300 and zero > 0 and listed > 0


def test_crafted_counts():
    found = 0
    for pid, dice, count, _fp, _ids in cases():
        if pid == "AAAA/3+UUkpJKQ" and dice == (1, 1):
            assert count == 2226
            found += 1
        if pid == "d7cNAABUqqqqAA" and dice == (1, 1):
            assert count == 1720
            found += 1
    assert found == 2


def test_engine_matches_gnubg():
    failures = []
    n = 0
    for case in cases():
        n += 1
        msg = check(*case)
        if msg:
            failures.append(msg)
            if len(failures) >= 10:
                break
    assert not failures, "\n".join(failures)
    assert n >= 300
