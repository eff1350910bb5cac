"""The board's modules (firmware/ and native/) import one way: no import cycle, counting
imports inside functions and __import__/import_module calls with a literal name; the kernels
import only kernels; the model (game, settings, their save format) imports no control,
display, link or hardware module, hw.ticks included: the model takes no time, the
controller passes it in. Importing a.b also runs a/__init__, so it counts as an import of
a too. And no module but the controller assigns the controller's fields. Built from the
source with ast; needs nothing outside this checkout."""

from __future__ import annotations

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPS = ("firmware", "native")


def modules(root: str = ROOT) -> dict[str, str]:
    """Module name -> path of every .py file under firmware/ and native/ (packages by
    their __init__.py)."""
    out = {}
    for top in TOPS:
        base = os.path.join(root, top)
        for folder, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
            for name in files:
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, name), base)[:-3]
                    mod = rel.replace(os.sep, ".")
                    out[mod[: -len(".__init__")] if mod.endswith(".__init__") else mod] = (
                        os.path.join(folder, name)
                    )
    return out


def imported(tree: ast.AST, package: str) -> set[str]:
    """Every dotted name module `tree` imports, anywhere in it (functions included);
    `from p import m` gives p and p.m (m may be a module); `package` resolves relative
    imports."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)]
                mod = ".".join(parts + ([mod] if mod else []))
            names.add(mod)
            names.update(mod + "." + a.name for a in node.names)
        elif isinstance(node, ast.Call) and node.args:
            fn = node.func
            fname = fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", "")
            arg = node.args[0]
            if fname in ("__import__", "import_module") and isinstance(arg, ast.Constant):
                if isinstance(arg.value, str):
                    names.add(arg.value)
    return names


def graph(root: str = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules importing it runs (a.b runs a, then a.b)."""
    mods = modules(root)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        package = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for name in imported(tree, package):
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                target = ".".join(parts[:i])
                if target in mods and target != mod:
                    edges[mod].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def _outside(edges: dict[str, set[str]], inside: str, banned: tuple[str, ...]) -> list[str]:
    """`module -> import` lines for modules of package `inside` importing a banned package."""
    return sorted(
        "%s -> %s" % (m, t)
        for m in edges
        if m == inside or m.startswith(inside + ".")
        for t in edges[m]
        if t.split(".")[0] in banned
    )


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_kernels_import_only_kernels():
    edges = graph()
    assert "kernels.compat" in edges and "kernels.movegen" in edges
    bad = sorted(
        "%s -> %s" % (m, t)
        for m in edges
        if m.split(".")[0] == "kernels"
        for t in edges[m]
        if t.split(".")[0] != "kernels"
    )
    assert not bad, bad


def test_model_imports_no_control_display_link_or_hardware():
    edges = graph()
    assert "model.game" in edges and "model.settings" in edges
    bad = _outside(edges, "model", ("control", "display", "link", "hw", "app", "main"))
    assert not bad, bad


# The layers of docs/architecture.md and what each may import besides itself: a package
# name allows all of it, a dotted name that module alone (and its package, which importing
# it runs). The entry points (app, main, sim_main, sim_timing, manifest) build everything
# and may import any layer; no layer imports them.
LAYERS = {
    "kernels": (),
    "gammon": ("kernels",),
    "model": ("gammon", "kernels"),
    "hw": ("kernels",),
    "display": ("kernels", "hw.ticks"),
    "control": ("model", "gammon", "kernels", "display.view", "hw.ticks", "hw.storage"),
    "link": ("kernels", "hw"),
}


def _allowed(layer: str, target: str) -> bool:
    top = target.split(".")[0]
    if top == layer:
        return True
    for ok in LAYERS[layer]:
        if top == ok or target == ok or (target == top and ok.startswith(top + ".")):
            return True
    return False


def layer_breaks(edges: dict[str, set[str]]) -> list[str]:
    """`module -> import` for every import that goes against LAYERS (an entry point, a
    module outside every layer, counts as a break when a layer imports it)."""
    out = []
    for m in sorted(edges):
        layer = m.split(".")[0]
        if layer not in LAYERS:
            continue
        out.extend("%s -> %s" % (m, t) for t in sorted(edges[m]) if not _allowed(layer, t))
    return out


def test_every_layer_imports_only_the_layers_below_it():
    edges = graph()
    for layer in LAYERS:
        assert any(m.split(".")[0] == layer for m in edges), layer
    bad = layer_breaks(edges)
    assert not bad, bad


def test_the_layer_check_sees_a_break(tmp_path):
    """A link module importing the controller's package, a control module importing the
    renderer (display.view is allowed), and hw making dice all fail."""
    fw = tmp_path / "firmware"
    for pkg in ("link", "control", "display", "hw", "gammon"):
        (fw / pkg).mkdir(parents=True)
        (fw / pkg / "__init__.py").write_text("")
    (tmp_path / "native").mkdir()
    (fw / "link" / "commands.py").write_text("def f():\n    from control import cube\n")
    (fw / "control" / "cube.py").write_text("from display.view import View\n")
    (fw / "control" / "turns.py").write_text("from display import renderer\n")
    (fw / "display" / "view.py").write_text("")
    (fw / "display" / "renderer.py").write_text("from hw.ticks import ticks_diff\n")
    (fw / "hw" / "ticks.py").write_text("")
    (fw / "hw" / "setup.py").write_text("from gammon.dice import Dice\n")
    (fw / "gammon" / "dice.py").write_text("")
    assert layer_breaks(graph(str(tmp_path))) == [
        "control.turns -> display.renderer",
        "hw.setup -> gammon",
        "hw.setup -> gammon.dice",
        "link.commands -> control",
        "link.commands -> control.cube",
    ]


def controller_methods(root: str = ROOT) -> set[str]:
    """The names the Controller class defines (its methods and properties)."""
    path = os.path.join(root, "firmware", "control", "controller.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Controller":
            return {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return set()


def _is_ctl(node: ast.AST) -> bool:
    """`ctl`, `controller`, or `something.ctl`: the controller as the modules name it."""
    if isinstance(node, ast.Name):
        return node.id in ("ctl", "controller")
    return isinstance(node, ast.Attribute) and node.attr in ("ctl", "controller")


def controller_reads(root: str = ROOT) -> list[str]:
    """What the layers beside the controller see of it: a link module may only call the
    Controller's methods (no field read: `ctl.game`, `ctl.settings`), and display and hw
    modules never see the controller at all (the presenter hands the View its state)."""
    methods = controller_methods(root)
    found = []
    for mod, path in sorted(modules(root).items()):
        layer = mod.split(".")[0]
        if layer not in ("link", "display", "hw"):
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        called = {
            id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not _is_ctl(node.value):
                continue
            if layer != "link":
                found.append("%s:%d ctl.%s" % (mod, node.lineno, node.attr))
            elif id(node) not in called or node.attr not in methods:
                found.append("%s:%d ctl.%s" % (mod, node.lineno, node.attr))
    return sorted(found)


def test_link_calls_the_controllers_methods_and_display_never_sees_it():
    assert not controller_reads(), controller_reads()


def test_the_read_check_sees_field_reads(tmp_path):
    fw = tmp_path / "firmware"
    for pkg in ("link", "control", "display"):
        (fw / pkg).mkdir(parents=True)
    (tmp_path / "native").mkdir()
    (fw / "control" / "controller.py").write_text(
        "class Controller:\n    def state(self):\n        pass\n"
    )
    (fw / "link" / "protocol.py").write_text(
        "def f(proto, ctl):\n    proto.ctl.state()\n    g = proto.ctl.game\n"
        "    ctl.settings.as_dict()\n    x = ctl.state\n"
    )
    (fw / "display" / "fill.py").write_text("def fill(ctl, v):\n    v.turn = ctl.turn\n")
    assert controller_reads(str(tmp_path)) == [
        "display.fill:2 ctl.turn",
        "link.protocol:3 ctl.game",
        "link.protocol:4 ctl.settings",
        "link.protocol:5 ctl.state",
    ]


def test_the_graph_sees_cycles_and_hidden_imports(tmp_path):
    """The checks above can fail: a cycle closed inside a function or through __import__,
    a relative import, and a package's __init__ all count."""
    fw = tmp_path / "firmware"
    (fw / "pkg").mkdir(parents=True)
    (tmp_path / "native").mkdir()
    (fw / "pkg" / "__init__.py").write_text("from .a import x\n")
    (fw / "pkg" / "a.py").write_text("x = 1\n\ndef f():\n    from pkg import b\n")
    (fw / "pkg" / "b.py").write_text("y = 2\n")
    (fw / "c.py").write_text("def g():\n    return __import__('d')\n")
    (fw / "d.py").write_text("import c\n")
    (fw / "e.py").write_text("from pkg.b import y\n")
    edges = graph(str(tmp_path))
    assert edges["pkg.a"] == {"pkg", "pkg.b"} and edges["pkg"] == {"pkg.a"}
    assert edges["e"] == {"pkg", "pkg.b"} and edges["c"] == {"d"}
    assert cycles(edges) == [["c", "d"], ["pkg", "pkg.a"]]


def controller_writes(root: str = ROOT) -> list[str]:
    """Every place outside control/controller.py that assigns a field of the controller
    (`ctl.x = ...`, `ctl.x += ...`, `ctl.x[k] = ...`, `del ctl.x`): `ctl` is the name every
    module gives the Controller it is handed."""
    found = []
    for mod, path in sorted(modules(root).items()):
        if mod == "control.controller":
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.Delete)):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            else:
                continue
            for t in targets:
                # the controller's own fields (ctl.view.x is the View's, display/view.py)
                for part in t.elts if isinstance(t, ast.Tuple) else [t]:
                    if isinstance(part, ast.Subscript):
                        part = part.value
                    if (
                        isinstance(part, ast.Attribute)
                        and isinstance(part.value, ast.Name)
                        and part.value.id == "ctl"
                    ):
                        found.append("%s:%d ctl.%s" % (mod, node.lineno, part.attr))
    return sorted(set(found))


def test_only_the_controller_writes_its_fields():
    """Other modules ask the controller or return values it keeps (issue 10)."""
    assert not controller_writes(), controller_writes()


def test_the_field_check_sees_writes(tmp_path):
    fw = tmp_path / "firmware" / "control"
    fw.mkdir(parents=True)
    (tmp_path / "native").mkdir()
    (fw / "controller.py").write_text("def f(ctl):\n    ctl.a = 1\n")
    (fw / "menu.py").write_text(
        "def f(ctl):\n    ctl.sel = 1\n    ctl.dests[3] = 2\n    ctl.n += 1\n"
        "    x = ctl.sel\n    ctl.view.error = 2\n    a, ctl.b = 1, 2\n"
    )
    assert controller_writes(str(tmp_path)) == [
        "control.menu:2 ctl.sel",
        "control.menu:3 ctl.dests",
        "control.menu:4 ctl.n",
        "control.menu:7 ctl.b",
    ]


def view_fields(root: str = ROOT) -> set[str]:
    """The View's fields: what display/view.py's View.__init__ assigns to self."""
    path = os.path.join(root, "firmware", "display", "view.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "View":
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                    if isinstance(sub.value, ast.Name) and sub.value.id == "self":
                        out.add(sub.attr)
    return out


def view_writes(root: str = ROOT) -> list[str]:
    """Every assignment to a View field outside the presenter (control/present.py) and the
    View itself: `v.x = ...`, `view.x = ...`, `ctl.view.x = ...` (and +=, subscripts)."""
    fields = view_fields(root)
    found = []
    for mod, path in sorted(modules(root).items()):
        if mod in ("control.present", "display.view"):
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.Delete)):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            else:
                continue
            for t in targets:
                for part in t.elts if isinstance(t, ast.Tuple) else [t]:
                    if isinstance(part, ast.Subscript):
                        part = part.value
                    if not isinstance(part, ast.Attribute) or part.attr not in fields:
                        continue
                    owner = part.value
                    if (isinstance(owner, ast.Name) and owner.id in ("v", "view")) or (
                        isinstance(owner, ast.Attribute) and owner.attr == "view"
                    ):
                        found.append("%s:%d view.%s" % (mod, node.lineno, part.attr))
    return sorted(set(found))


def test_the_presenter_is_the_views_one_writer():
    assert "movable" in view_fields() and "flash_until" in view_fields()
    assert not view_writes(), view_writes()


def test_the_view_check_sees_writes(tmp_path):
    fw = tmp_path / "firmware"
    for pkg in ("control", "display"):
        (fw / pkg).mkdir(parents=True)
    (tmp_path / "native").mkdir()
    (fw / "display" / "view.py").write_text(
        "class View:\n    def __init__(self):\n        self.error = 0\n        self.pts0 = []\n"
    )
    (fw / "control" / "present.py").write_text("def f(v):\n    v.error = 1\n")
    (fw / "control" / "sides.py").write_text(
        "def f(ctl, v):\n    ctl.view.error = 2\n    v.pts0[3] = 1\n    v.other = 1\n"
        "    self.view.error += 1\n"
    )
    assert view_writes(str(tmp_path)) == [
        "control.sides:2 view.error",
        "control.sides:3 view.pts0",
        "control.sides:5 view.error",
    ]
