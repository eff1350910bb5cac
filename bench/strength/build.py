"""The board's code compiled from a git commit rather than the working tree, so that a long
strength run measures one known firmware while the checkout changes under it
(`python -m bench.strength --commit REV`); the agent itself (the harness) is this checkout's."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from mpytools import compile_mpy

from bench import ROOT
from bench.strength.board_agent import AGENT_SOURCES

SOURCES = ("firmware/gammon", "native/kernels")


def build_at(commit: str, dest: str) -> tuple[str, list[str]]:
    """Compiles firmware/gammon and native/kernels as of `commit`, and the agent, into `dest`
    (laid out as board_agent.build lays them); returns the full commit and the modules left
    as source because mpy-cross refused them."""
    full = subprocess.run(
        ["git", "rev-parse", "--verify", commit + "^{commit}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    shutil.rmtree(dest, ignore_errors=True)
    left = []
    with tempfile.TemporaryDirectory() as tree:
        archive = subprocess.run(
            ["git", "archive", full, *SOURCES], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
        for folder, into in (("firmware/gammon", "gammon"), ("native/kernels", "kernels")):
            for name in sorted(os.listdir(os.path.join(tree, folder))):
                src = os.path.join(tree, folder, name)
                out = os.path.join(dest, into, name)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                if name.endswith(".py"):
                    if compile_mpy(src, out[:-3] + ".mpy").returncode != 0:
                        shutil.copyfile(src, out)
                        left.append(os.path.join(folder, name))
                elif os.path.isfile(src):
                    shutil.copyfile(src, out)  # data beside the code (a table, say)
        for src in AGENT_SOURCES:
            name = os.path.basename(src)
            if compile_mpy(src, os.path.join(dest, name[:-3] + ".mpy")).returncode != 0:
                shutil.copyfile(src, os.path.join(dest, name))
                left.append(os.path.relpath(src, ROOT))
    return full, left
