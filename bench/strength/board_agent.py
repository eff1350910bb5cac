"""The board's side of a match: the firmware's Opponent in a MicroPython subprocess.

The unix port runs the real firmware code (gammon.opponent over kernels.net, viper and all),
precompiled with mpy-cross as the board loads it; CPython's stand-ins for the viper code
would be far too slow for the strong level's look-ahead. bench/strength/agent_mp.py is the
other end.
"""

from __future__ import annotations

import os
import shutil
import subprocess

from gammon import Play, Position, legal_plays
from mpytools import MICROPYTHON, compile_mpy, require

from bench import FIRMWARE, NATIVE, ROOT
from bench.strength.players import IllegalPlay

# The agent's own modules, compiled beside gammon/ and kernels/ (chance.py: opponent_bench's too)
AGENT_SOURCES = (
    os.path.join(ROOT, "bench", "strength", "agent_mp.py"),
    os.path.join(ROOT, "bench", "opponent", "chance.py"),
)
HEAP = "1M"  # roomy: the heap the opponent needs is bench/opponent/opponent_bench.py's business


def build(dest: str) -> list[str]:
    """firmware/gammon and the agent compiled into `dest`; returns the modules left as source.

    A module mpy-cross rejects is copied as source (MicroPython then compiles it at load,
    which costs heap but not speed), so the bench still runs; the caller warns about it.
    """
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(os.path.join(dest, "gammon"))
    package = os.path.join(FIRMWARE, "gammon")
    jobs = [
        (os.path.join(package, f), os.path.join(dest, "gammon", f)) for f in os.listdir(package)
    ]
    kernels = os.path.join(NATIVE, "kernels")  # the viper code, as deployed beside gammon/
    os.makedirs(os.path.join(dest, "kernels"))
    jobs += [
        (os.path.join(kernels, f), os.path.join(dest, "kernels", f)) for f in os.listdir(kernels)
    ]
    jobs += [(src, os.path.join(dest, os.path.basename(src))) for src in AGENT_SOURCES]
    as_source = []
    for src, out in jobs:
        if not src.endswith(".py"):
            continue
        proc = compile_mpy(src, out[:-3] + ".mpy")
        if proc.returncode != 0:
            shutil.copyfile(src, out)
            as_source.append("%s (%s)" % (os.path.relpath(src, ROOT), proc.stderr.strip()))
    return as_source


class Agent:
    """One MicroPython process serving the board's choices, one request line at a time."""

    def __init__(self, weights: str, path: str, heap: str = HEAP) -> None:
        env = dict(os.environ, MICROPYPATH=path)
        cmd = [require(MICROPYTHON), "-X", "heapsize=" + heap, "-m", "agent_mp", weights]
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )

    def ask(
        self, position: Position, dice: tuple[int, int], level: str, seed: int, mid: str = ""
    ) -> str:
        """The agent's reply line to a request for its play (see bench/strength/agent_mp.py);
        `mid`, a Match ID, has it play at that match's score."""
        text = "%s %d %d %s %d" % (position.position_id(), dice[0], dice[1], level, seed)
        return self.request(text + " " + mid if mid else text)

    def request(self, text: str) -> str:
        """The agent's reply line to any one request line (`text`, without its newline)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # the agent died: reported below with what it printed
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError("the MicroPython agent stopped: %s" % err.strip()[-2000:])
        return line.strip()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class BoardPlayer:
    """A level of the board's Opponent; keeps the agent's thinking time of each move and its
    evaluations."""

    def __init__(self, agent: Agent, level: str) -> None:
        self.agent, self.level, self.name = agent, level, level
        self.took_us: list[int] = []  # one a move
        self.evaluations = 0

    @property
    def moves(self) -> int:
        return len(self.took_us)

    @property
    def think_us(self) -> int:
        return sum(self.took_us)

    @property
    def slowest_us(self) -> int:
        return max(self.took_us, default=0)

    def choose(
        self, position: Position, dice: tuple[int, int], seed: int, mid: str = ""
    ) -> Play | None:
        """The agent's play (at the score of the Match ID `mid` if given), found among the
        engine's legal plays by its result."""
        reply = self.agent.ask(position, dice, self.level, seed, mid).split()
        if len(reply) != 3 or reply[0] == "!":
            raise IllegalPlay("agent: %s" % " ".join(reply))
        self.took_us.append(int(reply[2]))
        self.evaluations += int(reply[1])
        plays = legal_plays(position, dice)
        if reply[0] == "-":
            if plays:
                raise IllegalPlay("%s %r: no move, with %d legal" % (position, dice, len(plays)))
            return None
        for play in plays:
            if play.result.position_id() == reply[0]:
                return play
        raise IllegalPlay("%s %r: %s is not a legal result" % (position, dice, reply[0]))
