"""SVG drawings of the board drawn from board.json, so they cannot drift from the firmware."""

import math

import description as d
from svgkit import (
    BLACK,
    BLUE,
    DARK,
    FELT,
    GREEN,
    GREY,
    LIGHT,
    ORANGE,
    RED,
    WOOD,
    box,
    cap,
    diode_down,
    dot,
    ground,
    line,
    poly,
    svg,
    switch,
    text,
)


def led_layout(desc):
    """Top view: every LED, the chain's path, jumpers, the data input and the 5 V feeders."""
    g, p = desc["geometry"], d.pitch(desc)
    (bw, bh), (top, bottom) = g["board"], g["edges"]
    segs, pos = d.segments(desc), d.positions(desc)
    n, per_point = len(pos), desc["leds"]["per_point"]
    out = [
        text(
            20,
            24,
            "ledgammon LED layout: %d WS2812B (%d/m) in one chain, seen from player 0"
            % (n, desc["leds"]["leds_per_m"]),
            14,
        ),
        text(20, 42, "Millimetres. Chain indices by each segment; the green LED comes first.", 10),
        '<g transform="translate(20,70)">',
        box(0, 0, bw, bh, WOOD),
    ]
    for x0, x1 in g["playing_field"]:
        out.append(box(x0, top, x1 - x0, bottom - top, FELT))
    half = g["point_width"] / 2
    for k, name in enumerate(d.POINTS):
        (x, y), sign = g["segments"][name]["base"], -1 if g["segments"][name]["dir"] == "up" else 1
        tri = [(x - half, y), (x + half, y), (x, y + sign * per_point * p)]
        out.append(poly(tri, "none", 0, DARK if k % 2 else LIGHT, "polygon", opacity=0.55))
    for i in range(1, n):
        a, b = pos[i - 1], pos[i]
        if abs(math.dist(a, b) - p) < 0.01 * p:
            out.append(line(a, b, GREY, 2))
        else:
            out.append(line(a, b, ORANGE, 1.5, stroke_dasharray="4 3"))
    bus = g["bus"]
    for name in desc["leds"]["injection"]:
        q = pos[segs[name][0]]
        out.append(
            poly(
                [bus, (q[0] + 10, bus[1]), (q[0] + 10, q[1]), q], RED, 1.2, stroke_dasharray="6 3"
            )
        )
        out.append(text(q[0] + 4, q[1] + (12 if q[1] < bh / 2 else -8), "+5V", 8, fill=RED))
    out.append(poly([bus, (pos[0][0], bus[1] - 6), pos[0]], BLUE, 1.5))
    out.append(box(bus[0] - 45, bus[1] - 4, 90, 22, "#eef", BLUE))
    out.append(text(bus[0], bus[1] + 11, "controller + supply", 8, "middle"))
    out.append(text(pos[0][0] - 4, bus[1] - 8, "DIN", 9, "end", fill=BLUE))
    for name, (first, count, _) in segs.items():
        for i in range(first, first + count):
            out.append(
                dot(pos[i], 4 if i == first else 3, GREEN if i == first else "white", BLACK)
            )
        sg, last = g["segments"][name], first + count - 1
        rng = "%d" % first if count == 1 else "%d-%d" % (first, last)
        if sg.get("dir") in ("left", "right"):  # the cube's rows: labelled at their left
            x, y = sg["base"]
            out.append(text(x - 4, y + 3, "%s %s" % (name, rng), 8, "end"))
        elif "base" in sg:
            x, y = sg["base"]
            inner, outer = (y + 13, bh + 11) if y > bh / 2 else (y - 6, -5)
            out += [
                text(x, inner, name, 8, "middle", fill="white"),
                text(x, outer, rng, 7, "middle"),
            ]
        elif "center" in sg:
            x, y = sg["center"]
            out.append(text(x, y - 2 * p, "%s %s" % (name, rng), 8, "middle"))
        else:
            x, y = sg["at"]
            out.append(text(x - 8, y + 3, "%s %s" % (name, rng), 8, "end"))
    out.append("</g>")
    notes = [
        "Grey: strip. Orange dashed: jumper wires (5 V, data, GND). Blue: data in (DIN).",
        "Red dashed: 5 V and GND feeders from the bus to the injection points, under the board.",
        "Points p1-p6 bottom right, p7-p12 bottom left, p13-p18 top left, p19-p24 top right.",
        "Player 0 (bottom) bears off into off0; player 1 (home p19-p24) into off1.",
        "Points, bars, trays: step 1 = the index grows from the board edge, -1 = toward it.",
        "Dice: 3x3 pips, row-major from the top left; the rows are joined by jumpers.",
        "Cube: cube0 (player 0's side) and cube1, 6 LEDs each; its value 2^k lights k of them.",
    ]
    y0 = 70 + bus[1] + 50
    out += [text(20, y0 + 16 * i, s, 11) for i, s in enumerate(notes)]
    return svg(bw + 40, y0 + 16 * len(notes) + 10, out)


def wiring(desc, name):
    """Schematic: supply, bus, controller pins, level shifter, LED runs, both button layouts."""
    t, ele, btn = desc["targets"][name], desc["electrical"], desc["buttons"]
    segs, gp = d.segments(desc), "GP" if t["platform"] == "rp2" else "GPIO"
    out = [
        text(
            20,
            26,
            "ledgammon wiring: %s (target %s, default layout %s)"
            % (t["board"], name, t["layout"]),
            14,
        )
    ]
    v5, gnd = 70, 110
    out += [
        box(20, 52, 100, 72, "#fee"),
        text(
            70, 80, "%g V %g A" % (ele["supply_mv"] / 1000, ele["supply_ma"] / 1000), 11, "middle"
        ),
        text(70, 96, "supply", 10, "middle"),
        line((120, v5), (130, v5), RED, 2),
        box(130, v5 - 6, 40, 12, "white", RED),
        text(150, v5 - 10, "F1 " + ele["fuse"], 8),
        line((170, v5), (1080, v5), RED, 2),
        line((120, gnd), (1080, gnd), BLACK, 2),
        text(1080, v5 - 5, "+5 V bus", 10, "end", fill=RED),
        text(1080, gnd - 5, "GND bus", 10, "end"),
    ]
    out += cap(250, v5, gnd, "C1 %d uF across the supply" % ele["bulk_uf"])
    # Controller with its pins.
    pins = [("GND", None)] + [("%s%d" % (gp, g), use) for g, use in d.pins(t)]
    bottom = 240 + 22 * len(pins)
    out += [
        box(30, 170, 200, bottom - 170, "#eef", BLUE),
        text(130, 188, t["board"], 9, "middle"),
        text(170, 150, "D1", 9),
        text(130, 206, "5 V in: " + t["power_in"].split(";")[0], 8, "middle"),
        text(130, 218, "ground:" + t["power_in"].split(";")[1], 8, "middle"),
    ]
    out += diode_down(190, v5, 170) + [
        dot((190, v5)),
        line((150, gnd), (150, 170)),
        dot((150, gnd)),
    ]
    pin_y = {}
    for i, (label, use) in enumerate(pins):
        y = 240 + 22 * i
        pin_y[use] = y
        out += [
            text(222, y + 3, label, 9, "end"),
            line((230, y), (252, y), BLUE),
            text(40, y + 3, use or "ground (common with the bus)", 8),
        ]
    # Level shifter, series resistor, LED chain.
    y = pin_y["LED data"]
    out += (
        [
            poly([(252, y), (300, y), (300, 210), (340, 210)], BLUE, 1.5),
            box(340, 180, 120, 100, "#ffe"),
            text(400, 230, ele["level_shifter"], 10, "middle"),
            text(344, 206, "2 1A", 8),
            text(344, 254, "1 1OE", 8),
            text(456, 206, "1Y 3", 8, "end"),
            line((400, v5), (400, 180), RED),
            dot((400, v5)),
            text(404, 192, "14 VCC", 8),
            line((400, 280), (400, 300)),
            text(404, 276, "7 GND", 8),
            line((340, 250), (320, 250)),
            line((320, 250), (320, 300)),
        ]
        + ground(400, 300)
        + ground(320, 300)
    )
    out.append(text(340, 322, "unused 2OE-4OE to 5 V, 2A-4A to GND", 8))
    out += cap(490, v5, gnd, "C2 %d nF at U1" % ele["decoupling_nf"])
    out += [
        line((460, 210), (520, 210), BLUE, 1.5),
        box(520, 203, 50, 14, "white"),
        text(545, 198, "R1 %d ohm" % ele["series_ohm"], 9, "middle"),
        line((570, 210), (600, 210), BLUE, 1.5),
        text(585, 232, "DIN", 9, "middle", fill=BLUE),
    ]
    x0, width, total = 600, 480, d.led_count(desc)
    x = x0
    for run in d.runs(desc):
        first = segs[run[0]][0]
        count = sum(segs[s][1] for s in run)
        w = width * count / total
        out += [
            box(x, 180, w, 100, "#f4f4f4"),
            text(x + w / 2, 226, "%s..%s" % (run[0], run[-1]), 8, "middle"),
            text(x + w / 2, 240, "%d LEDs" % count, 8, "middle"),
            text(x + w / 2, 254, "%d-%d" % (first, first + count - 1), 8, "middle"),
            line((x + 8, v5), (x + 8, 180), RED, 2),
            dot((x + 8, v5)),
            line((x + 14, gnd), (x + 14, 180), BLACK, 2),
            dot((x + 14, gnd)),
        ]
        x += w
    out.append(
        text(
            600,
            300,
            "LED chain: 5 V feeders (%d AWG) and GND into the first LED of each"
            " run; data runs through all." % ele["wires"]["feeder"]["awg"],
            9,
        )
    )
    out.append(
        text(
            600,
            314,
            "R1 and C1 sit at the first LED (p1); run GND beside the data wire from U1.",
            9,
        )
    )
    # Full layout: key matrix.
    cols, rows = t["matrix_cols"], t["matrix_rows"]
    out.append(
        text(
            320,
            352,
            "Full layout: %d x %d key matrix, one %s per key, band toward the"
            " row; rows driven low one at a time, columns read with pull-ups."
            % (len(rows), len(cols), ele["matrix_diode"]),
            10,
        )
    )
    cx = [420 + 110 * c for c in range(len(cols))]
    ry = [440 + 70 * r for r in range(len(rows))]
    for c, gpio in enumerate(cols):
        out += [
            line((cx[c], 370), (cx[c], ry[-1])),
            text(cx[c], 366, "C%d %s%d" % (c, gp, gpio), 9, "middle"),
        ]
    for r, gpio in enumerate(rows):
        out += [
            line((360, ry[r]), (cx[-1] + 80, ry[r])),
            text(356, ry[r] + 3, "R%d %s%d" % (r, gp, gpio), 9, "end"),
        ]
        for c, key in enumerate(btn["keymap"][r]):
            if key is None:
                continue
            a = (cx[c], ry[r] - 40)
            out += [dot(a)] + switch(a, key) + [line((a[0] + 34, a[1]), (a[0] + 50, a[1]))]
            out += diode_down(a[0] + 50, a[1], ry[r]) + [dot((a[0] + 50, ry[r]))]
    # Minimal layout.
    y = bottom + 40
    out += [
        text(30, y, "Minimal layout: GPIO - button - GND", 10),
        text(30, y + 14, "(internal pull-up, active low)", 10),
    ]
    for i, key in enumerate(btn["minimal"]):
        yy = y + 42 + 28 * i
        out += (
            [
                text(70, yy + 3, "%s%d" % (gp, t["minimal_pins"][key]), 9, "end"),
                line((74, yy), (90, yy)),
            ]
            + switch((90, yy), key)
            + [line((124, yy), (140, yy)), line((140, yy), (140, yy + 4))]
            + ground(140, yy + 4)
        )
    return svg(1100, max(y + 28 * len(btn["minimal"]) + 54, ry[-1] + 40), out)
