"""SVG primitives and schematic symbols for the drawings (plain text, no dependencies)."""

from xml.sax.saxutils import escape

WOOD, FELT, DARK, LIGHT = "#7a5632", "#efe4c8", "#2f5d50", "#b8643a"
RED, BLACK, BLUE, GREEN, ORANGE, GREY = "#c0392b", "#222", "#1f5fbf", "#2e9e44", "#e08a00", "#888"


def _num(v):
    s = "%.1f" % v
    s = s[:-2] if s.endswith(".0") else s
    return "0" if s == "-0" else s


def el(tag, text=None, **a):
    attrs = "".join(
        ' %s="%s"'
        % (
            k.rstrip("_").replace("_", "-"),
            _num(v) if isinstance(v, float | int) else escape(str(v), {'"': "&quot;"}),
        )
        for k, v in a.items()
    )
    if text is None:
        return "<%s%s/>" % (tag, attrs)
    return "<%s%s>%s</%s>" % (tag, attrs, escape(text), tag)


def line(a, b, color=BLACK, width=1.0, **kw):
    return el("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], stroke=color, stroke_width=width, **kw)


def poly(points, color=BLACK, width=1.0, fill="none", tag="polyline", **kw):
    pts = " ".join("%s,%s" % (_num(x), _num(y)) for x, y in points)
    return el(tag, points=pts, fill=fill, stroke=color, stroke_width=width, **kw)


def text(x, y, s, size=10, anchor="start", **kw):
    return el("text", s, x=x, y=y, font_size=size, text_anchor=anchor, **kw)


def box(x, y, w, h, fill="none", color=BLACK, **kw):
    return el("rect", x=x, y=y, width=w, height=h, fill=fill, stroke=color, **kw)


def dot(p, r=2.5, fill=BLACK, color="none"):
    return el("circle", cx=p[0], cy=p[1], r=r, fill=fill, stroke=color)


def svg(w, h, parts):
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d"'
        ' font-family="sans-serif">' % (w, h, w, h)
    )
    return "\n".join(
        [head, el("rect", x=0, y=0, width=w, height=h, fill="white")] + parts + ["</svg>\n"]
    )


def switch(a, label):
    """A push button from a to the right (34 wide), its name above."""
    x, y = a
    return [
        dot((x + 4, y), 2),
        dot((x + 30, y), 2),
        line((x + 4, y), (x + 28, y - 8)),
        line(a, (x + 2, y)),
        line((x + 32, y), (x + 34, y)),
        text(x + 17, y - 11, label, 8, "middle"),
    ]


def diode_down(x, y0, y1):
    """A diode from y0 down to y1, cathode (band) at the bottom."""
    m = (y0 + y1) / 2
    return [
        line((x, y0), (x, m - 6)),
        poly([(x - 6, m - 6), (x + 6, m - 6), (x, m + 5)], BLACK, 1, BLACK, "polygon"),
        line((x - 6, m + 5), (x + 6, m + 5), BLACK, 2),
        line((x, m + 5), (x, y1)),
    ]


def ground(x, y):
    return [
        line((x - 7, y), (x + 7, y), BLACK, 1.5),
        line((x - 4, y + 3), (x + 4, y + 3)),
        line((x - 1.5, y + 6), (x + 1.5, y + 6)),
    ]


def cap(x, y0, y1, label):
    m = (y0 + y1) / 2
    return [
        line((x, y0), (x, m - 3)),
        line((x - 9, m - 3), (x + 9, m - 3), BLACK, 2),
        line((x - 9, m + 3), (x + 9, m + 3), BLACK, 2),
        line((x, m + 3), (x, y1)),
        dot((x, y0)),
        dot((x, y1)),
        text(x + 13, m + 3, label, 9),
    ]
