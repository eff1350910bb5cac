"""GNU Backgammon's 0-ply cube analyses as test cases; writes tests/engine/cube_data.py.

Positions come from games of gnubg 0-ply against itself with noise (tests/gnubg_cube.py);
each is analysed at several terms (money with and without the Jacoby rule, owned cubes,
match scores with live and dead cubes, post-Crawford). A case keeps gnubg's cubeless
probabilities (out of 4096, as the board's network gives them), the terms, and gnubg's no
double / double-take / double-pass equities (normalized, 1e-5) and proper action.

--fit instead measures Janowski's cube efficiency x behind gnubg's cubeful equities: for
each position, money play without the Jacoby rule, x = (ND - dead) / (live - dead), by
gnubg's position class (contact, crashed, race by the roller's pips, bear-off), which is
where gammon/cube.py's X_* constants come from.

Usage: python tests/gen_cube.py [N_POSITIONS] [SEED] | --fit [N_POSITIONS] [SEED]
"""

import os
import sys

import gnubg
import gnubg_cube as gc  # tests/: the script's own folder

# (cube, owner, length, away me, away opp, crawford, jacoby): owner as gammon/cube.Terms
TERMS = [
    (1, -1, 0, 0, 0, False, True),
    (1, -1, 0, 0, 0, False, False),
    (2, 0, 0, 0, 0, False, True),
    (1, -1, 7, 7, 7, False, False),
    (1, -1, 7, 4, 5, False, False),
    (2, 0, 7, 6, 3, False, False),
    (2, 0, 7, 4, 4, False, False),
    (1, -1, 5, 3, 1, False, False),  # post-Crawford: the trailer 3 away
    (1, -1, 5, 2, 1, False, False),  # post-Crawford, 2 away: the free drop
    (1, -1, 5, 2, 2, False, False),  # both 2 away: gnubg's cube is dead
    (1, -1, 9, 2, 5, False, False),
    (2, 0, 9, 7, 3, False, False),  # a redouble to 4 kills the cube for the opponent
    (1, -1, 25, 25, 20, False, False),
]


def _class_name(pid):
    c = gnubg.classify(gnubg.positionfromid(pid))
    return {4: "bearoff2", 5: "bearoff_ts", 6: "bearoff1", 7: "bearoff_os", 8: "race",
            9: "crashed", 10: "contact"}.get(c, str(c))


def _code(proper):
    """gnubg's proper action in two letters: N(o double), D(ouble), G (too good) or
    O(ptional double), then T(ake; a beaver too) or P(ass)."""
    first = "G" if proper.startswith("Too good") else "O" if proper.startswith("Optional") \
        else "N" if proper.startswith("No") else "D"
    return first + ("P" if proper.endswith("pass") else "T")


def fit(n, seed):
    gc.init(0)
    rows = {}
    for pid in gc.positions(n, seed):
        p = gc.probabilities(pid)
        if not 0.03 < p[0] < 0.97:
            continue
        nd = gc.analyse(pid, 1, -1, 0, (0, 0), False, False)[0]
        w, wg, wbg, lg, lbg = p
        dead = 2 * w - 1 + wg - lg + wbg - lbg
        big_w, big_l = 1 + (wg + wbg) / w, 1 + (lg + lbg) / (1 - w)
        tp = (big_l - 0.5) / (big_w + big_l + 0.5)
        cp = (big_l + 1) / (big_w + big_l + 0.5)
        if w < tp:
            live = -big_l + (big_l - 1) * w / tp
        elif w < cp:
            live = -1 + 2 * (w - tp) / (cp - tp)
        else:
            live = 1 + (big_w - 1) * (w - cp) / (1 - cp)
        if abs(live - dead) < 0.03:
            continue
        pips = sum(i * c for i, c in enumerate(gnubg.positionfromid(pid)[1], 1))
        rows.setdefault(_class_name(pid), []).append((pips, (nd - dead) / (live - dead)))
    for name, xs in sorted(rows.items()):
        vals = [x for _, x in xs]
        print("%-10s %4d positions: x mean %.4f, min %.4f, max %.4f" % (
            name, len(xs), sum(vals) / len(vals), min(vals), max(vals)))
        if name == "race":
            inner = [(pp, x) for pp, x in xs if 0.601 < x < 0.799]
            if len(inner) > 2:
                import numpy as np

                a = np.array(inner)
                b, c = np.polyfit(a[:, 0], a[:, 1], 1)
                worst = np.abs(np.polyval((b, c), a[:, 0]) - a[:, 1]).max()
                print("  race: x = %.5f + %.6f * pips of the roller (inside 0.6-0.8), worst "
                      "residual %.6f" % (c, b, worst))


def cases(n, seed):
    gc.init(0)
    out = []
    pids = gc.positions(n * 8, seed)[::8]
    for k, pid in enumerate(pids):
        p = gc.probabilities(pid)
        q = [int(round(v * 4096)) for v in p]
        for cube, owner, length, am, ao, crawford, jacoby in TERMS[k % 3 :: 3]:
            score = (length - am, length - ao) if length else (0, 0)
            r = gc.analyse(pid, cube, owner, length, score, crawford, jacoby)
            if r is None:
                continue
            nd, dt, dp, proper = r
            out.append("%s %s %d %d %d %d %d %d %d %d %d %d %s" % (
                pid, ",".join(map(str, q)), cube, owner, length, am, ao, int(crawford),
                int(jacoby), round(nd * 1e5), round(dt * 1e5), round(dp * 1e5),
                _code(proper)))
    return out


def main(argv):
    if argv and argv[0] == "--fit":
        fit(int(argv[1]) if len(argv) > 1 else 6000, int(argv[2]) if len(argv) > 2 else 3)
        return 0
    n = int(argv[0]) if argv else 40
    seed = int(argv[1]) if len(argv) > 1 else 7
    lines = cases(n, seed)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine", "cube_data.py")
    with open(path, "w") as f:
        f.write('"""GNU Backgammon 0-ply cube analyses, for test_cube.py; made by tests/'
                'gen_cube.py."""\n\n')
        f.write("# %d cases, one a line: position ID, gnubg's cubeless win, wg, wbg, lg, lbg\n"
                "# (out of 4096), cube, owner (-1 centred, 0 the roller's, 1 the other's),\n"
                "# length, away (roller, other), Crawford, Jacoby, then gnubg's no double,\n"
                "# double/take and double/pass (normalized equity, 1e-5) and its proper\n"
                "# action: N(o double), D(ouble), G (too good), O(ptional); T(ake) or P(ass).\n"
                % len(lines))
        f.write("CASES = (\n")
        for k in range(0, len(lines), 20):  # chunks of 20 lines: no one long string
            chunk = lines[k : k + 20]
            for i, line in enumerate(chunk):
                end = "," if i == len(chunk) - 1 else ""
                f.write('    "%s%s"%s\n' % (line, "\\n" if end == "" else "", end))
        f.write(")\n")
    print("wrote %d cases to %s" % (len(lines), path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
