# A long session over the link on either interpreter (tests/test_long_sessions.py): the board
# plays both sides at a level, with the cube, game after game of money play or a whole match;
# after every game `history` and `state` are asked through the Protocol and the board's
# Outbox, as a host asks, and each line written is checked here (valid UTF-8, JSON) and
# handed to `out(kind, game, line)` for the host's own checks (strict JSON, export).
#
#   micropython long_session.py ROOT SEED LENGTH GAMES [LEVEL]  (LENGTH 0: money play, GAMES
#       games, else the match to its end; LEVEL easy, strong, or people: run_people)
# prints each line as "<kind> <game> <line>" and ends with "done <games> <seconds>".
import json

from control.boot import boot
from gammon.dice import Dice, SeededBytes
from hw.storage import Store
from jsonspec import Port
from kernels.text import bad_at
from link.outbox import Outbox
from link.protocol import Protocol
from model.game import OVER

FRAME = 20  # ms between ticks, as the render task
INFO = {"board": "pico", "layout": "full", "leds": 440, "order": "GRB"}


class Session:
    """The board on its protocol, in `root`, its player playing both sides."""

    def __init__(self, root, seed, length, level="easy"):
        self.port = Port()
        self.box = Outbox(self.port)
        ctl = boot(Store(root), Dice(SeededBytes(seed)), "full", None, 0)
        self.proto = Protocol(ctl, INFO, self.box, 0)
        ctl.emit = self.proto.event
        ctl.pace_ms = 1  # the board's steps as fast as the ticks go
        self.ctl = ctl
        self.now = 1000
        self.asked = 0
        terms = {"players": ["board", "board"], "level": level, "cube": True,
                 "jacoby": True, "match_length": length}
        self.ask({"cmd": "config", "set": terms})
        self.ask({"cmd": "new"})

    def lines(self):
        """The lines written since the last call, each checked: valid UTF-8 JSON."""
        box = self.box
        while box.pending():
            box.send()
        out = bytes(self.port.out)
        self.port.out = bytearray()
        assert out.endswith(b"\n") or not out, out[-80:]
        got = []
        for line in out.split(b"\n")[:-1]:
            assert bad_at(line, 0, len(line)) < 0, line[:200]
            obj = json.loads(line)
            assert obj.get("event") != "dropped" and "truncated" not in obj, line[:200]
            got.append((line, obj))
        return got

    def ask(self, req):
        """The reply line to a request (the events before it checked, then left)."""
        self.asked += 1
        req["id"] = self.asked
        self.proto.feed((json.dumps(req) + "\n").encode(), self.now)
        replies = [x for x in self.lines() if "event" not in x[1]]
        assert len(replies) == 1 and replies[0][1]["id"] == self.asked, replies
        line, obj = replies[0]
        assert obj["ok"], obj
        return line, obj

    def play_game(self, limit=200000):
        """Ticks until the game is over."""
        g = self.ctl.game
        for _ in range(limit):
            if g.phase == OVER:
                return
            self.now += FRAME
            self.ctl.tick(self.now)
            self.lines()
        raise AssertionError("the game did not end")


def run(root, seed, length, games, out, level="easy"):
    """Money play (length 0) for `games` games, or a `length`-point match to its end; after
    each game out("history" / "state", its number, the reply's line). Returns the games."""
    s = Session(root, seed, length, level)
    n = 0
    while True:
        s.play_game()
        n += 1
        out("history", n, s.ask({"cmd": "history"})[0])
        line, st = s.ask({"cmd": "state"})
        out("state", n, line)
        if st["match_over"] or (not length and n >= games):
            return n
        s.ask({"cmd": "new"})


class _Lcg:
    """Choices the same on both interpreters (small ints only)."""

    def __init__(self, seed):
        self.x = seed & 0xFFFF

    def below(self, n):
        self.x = (self.x * 25173 + 13849) & 0xFFFF
        return self.x * n >> 16


def _person_game(s, rng, turns):
    """Two people through requests: a play chosen by `rng` each turn, a double taken now and
    then; after `turns` throws the player on roll who leads (or is level) resigns a single
    game and the other accepts, unless the game ended first."""
    thrown = 0
    while True:
        st = s.ask({"cmd": "state"})[1]
        phase = st["phase"]
        if phase == "over":
            return
        if st["offer"]:
            answer = "accept" if st["offer"]["kind"] == "resign" else "take"
            s.ask({"cmd": answer})
        elif phase == "move":
            plays = st["plays"]
            s.ask({"cmd": "move", "play": plays[rng.below(len(plays))]})
        elif phase in ("roll", "done") or phase == "opening":
            t = st["turn"]
            score = st["score"]
            if thrown >= turns and phase == "roll" and score[t] >= score[1 - t]:
                s.ask({"cmd": "resign", "value": 1})
                continue
            if phase == "roll" and st["may_double"] and rng.below(48) == 0:
                s.ask({"cmd": "double"})
                continue
            s.ask({"cmd": "roll"})
            thrown += 1
        else:
            raise AssertionError("phase %r" % phase)


def run_people(root, seed, length, out, games=99):
    """A `length`-point match of two people through requests (_person_game), each game ended
    after 12-35 throws; after each game out() as run() does. Returns the games."""
    s = Session(root, seed, length)
    s.ask({"cmd": "config", "set": {"players": ["human", "human"]}})
    rng = _Lcg(seed)
    n = 0
    while True:
        _person_game(s, rng, 12 + rng.below(24))
        n += 1
        out("history", n, s.ask({"cmd": "history"})[0])
        line, st = s.ask({"cmd": "state"})
        out("state", n, line)
        if st["match_over"] or n >= games:
            return n
        s.ask({"cmd": "new"})


def _main(argv):
    import sys
    import time

    def out(kind, n, line):
        sys.stdout.write("%s %d " % (kind, n))
        sys.stdout.write(str(line, "utf-8"))
        sys.stdout.write("\n")

    start = time.time()
    level = argv[5] if len(argv) > 5 else "easy"
    if level == "people":
        n = run_people(argv[1], int(argv[2]), int(argv[3]), out)
    else:
        n = run(argv[1], int(argv[2]), int(argv[3]), int(argv[4]), out, level)
    print("done %d %d" % (n, time.time() - start))


if __name__ == "__main__":
    import sys

    _main(sys.argv)
