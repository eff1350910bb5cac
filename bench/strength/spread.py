"""Games spread over worker processes, each with its own players (a MicroPython agent, gnubg),
for bench/strength/run.py and its cube part: one place for the pool, its per-process players
and their closing, so that a run over several processes repeats the one in this process;
and their progress shown on a terminal."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from tqdm import tqdm

T = TypeVar("T")


class Closing(Protocol):
    def close(self) -> None: ...


_PLAYERS: Any = None


def _init(make: Callable[..., Closing], args: tuple[Any, ...]) -> None:
    global _PLAYERS
    _PLAYERS = make(*args)


def _call(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> Any:
    run, task = job
    assert _PLAYERS is not None
    return run(_PLAYERS, *task)


def spread(
    run: Callable[..., Any],
    tasks: Iterable[tuple[Any, ...]],
    jobs: int,
    make: Callable[..., Closing],
    args: tuple[Any, ...],
    chunksize: int = 1,
) -> Iterator[Any]:
    """run(players, *task) for each task, players = make(*args) made once a process: here in
    order when jobs <= 1, else over `jobs` processes in the order they finish."""
    if jobs <= 1:
        players = make(*args)
        try:
            for task in tasks:
                yield run(players, *task)
        finally:
            players.close()
        return
    work = [(run, task) for task in tasks]
    # Spawned, not forked: a fork copies gnubg's state (its threads and their locks, made by
    # whatever in this process used it before) into a child where those threads do not run,
    # and the child's first `hint` then waits for them for ever.
    with multiprocessing.get_context("spawn").Pool(jobs, _init, (make, args)) as pool:
        yield from pool.imap_unordered(_call, work, chunksize=chunksize)


def progress(items: Iterable[T], label: str, n: int, unit: str = "it") -> Iterator[T]:
    """`items` as they come, with tqdm's bar of `n` on stderr when it is a terminal (cleared
    at the end, the results' lines printed in its place), so a long run says how far it is."""
    yield from tqdm(items, desc=label, total=n, unit=unit, leave=False, disable=None)
