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


def test_fill_imports_no_control_module():
    """display.fill reads the game and what the controller hands it."""
    bad = _outside(graph(), "display.fill", ("control", "link"))
    assert not bad, bad


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
