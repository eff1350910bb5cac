"""The kernels' plain-Python path with every intermediate value's range checked (CPython).

On a 32-bit MicroPython port small ints stop at +-2**30 (larger ones become heap-allocated
long ints) and viper's `int` is a 32-bit machine word (larger results wrap), while CPython
runs the same source with unbounded ints: a value out of range passes every other test
here and is wrong or slow only on the board. `checked_module` compiles a kernel's source
with every arithmetic result (BinOp, UnaryOp, AugAssign), every int literal and every value a
viper function returns wrapped in a check: inside @micropython.viper functions within a
signed 32-bit word, elsewhere (and for what a viper function returns: it becomes a Python
int) within a small int. `checked_kernels` puts such modules in place of the real ones while
the firmware's modules are imported afresh, so the engine, the opponent and the renderer
run on them; everything is put back afterwards.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import os
import sys
import types
from collections.abc import Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NATIVE = os.path.join(ROOT, "native")
SMALL = (-(1 << 30), (1 << 30) - 1)  # a small int on a 32-bit port
WORD = (-(1 << 31), (1 << 31) - 1)  # viper's int: a signed 32-bit machine word
KERNELS = tuple(  # every kernel module (compat is the stand-ins, not board code)
    "kernels." + f[:-3]
    for f in sorted(os.listdir(os.path.join(NATIVE, "kernels")))
    if f.endswith(".py") and f not in ("__init__.py", "compat.py")
)
PACKAGES = ("kernels", "gammon", "display", "control", "model", "hw", "link")


class OutOfRange(AssertionError):
    pass


def _checker(kind: str):  # type: ignore[no-untyped-def]
    """check(value, where) -> value; OutOfRange when an int is outside the `kind` range
    (bools and floats are not the board's ints: they pass)."""
    lo, hi = WORD if kind == "word" else SMALL

    def check(value, where):  # type: ignore[no-untyped-def]
        if type(value) is int and not lo <= value <= hi:
            raise OutOfRange("%s: %d is outside the %s range" % (where, value, kind))
        return value

    return check


CHECKS = {"word": _checker("word"), "small": _checker("small")}


def _is_viper(func: ast.FunctionDef) -> bool:
    for dec in func.decorator_list:
        if isinstance(dec, ast.Attribute) and dec.attr == "viper":
            return True
        if isinstance(dec, ast.Name) and dec.id == "viper":
            return True
    return False


def _load(node: ast.expr) -> ast.expr:
    """A copy of an assignment target that reads it."""
    out = copy.deepcopy(node)
    for sub in ast.walk(out):
        if hasattr(sub, "ctx"):
            sub.ctx = ast.Load()
    return out


class _Wrap(ast.NodeTransformer):
    def __init__(self, module: str) -> None:
        self.module = module
        self.modes = ["small"]
        self.literals: list[str] = []
        self.sites = 0  # checks put in

    def _check(self, node: ast.expr, kind: str | None = None) -> ast.expr:
        where = "%s:%d" % (self.module, getattr(node, "lineno", 0))
        self.sites += 1
        call = ast.Call(
            func=ast.Name(id="__range_%s__" % (kind or self.modes[-1]), ctx=ast.Load()),
            args=[node, ast.Constant(where)],
            keywords=[],
        )
        return ast.copy_location(call, node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.modes.append("word" if _is_viper(node) else "small")
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.body = [self.visit(s) for s in node.body]
        self.modes.pop()
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        if node.value is not None and self.modes[-1] == "word":
            node.value = self._check(node.value, "small")  # boxed: a Python int now
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        return self._check(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, (ast.USub, ast.Invert)):
            return self._check(node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        value = ast.copy_location(ast.BinOp(_load(node.target), node.op, node.value), node)
        out = ast.Assign(targets=[node.target], value=self._check(value))
        return ast.copy_location(out, node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        v = node.value
        if type(v) is int and not SMALL[0] <= v <= SMALL[1]:
            self.literals.append("%s:%d: literal %d" % (self.module, node.lineno, v))
        return node


def transform(source: str, name: str) -> tuple[ast.Module, int]:
    """The module's syntax tree with its checks, and how many there are."""
    wrap = _Wrap(name)
    tree = ast.fix_missing_locations(wrap.visit(ast.parse(source, name)))
    if wrap.literals:
        raise OutOfRange("int literals that are long ints on a 32-bit port: %s" % wrap.literals)
    return tree, wrap.sites


def run_checked(source: str, name: str = "t") -> dict:
    """Executes checked `source`; its globals (viper decorators as no-ops)."""
    tree, _ = transform(source, name)
    env = {"__range_word__": CHECKS["word"], "__range_small__": CHECKS["small"]}
    env["viper"] = lambda func: func
    exec(compile(tree, name, "exec"), env)
    return env


def checked_module(name: str) -> types.ModuleType:
    """Kernel module `name` (dotted) compiled from native/ with its range checks."""
    path = os.path.join(NATIVE, *name.split(".")) + ".py"
    with open(path) as f:
        tree, sites = transform(f.read(), name)
    mod = types.ModuleType(name)
    mod.__file__ = path
    mod.__dict__["__range_word__"] = CHECKS["word"]
    mod.__dict__["__range_small__"] = CHECKS["small"]
    mod.__dict__["__range_sites__"] = sites
    exec(compile(tree, path, "exec"), mod.__dict__)
    return mod


@contextlib.contextmanager
def checked_kernels() -> Iterator[dict[str, types.ModuleType]]:
    """The checked kernels in sys.modules, the firmware's modules imported afresh on them;
    the modules as they were once the block ends."""

    def ours(key: str) -> bool:
        return key.split(".")[0] in PACKAGES

    saved = {k: v for k, v in sys.modules.items() if ours(k)}
    for k in saved:
        del sys.modules[k]
    try:
        import kernels  # afresh: compat and the package

        mods = {}
        for name in KERNELS:
            mods[name] = checked_module(name)
            sys.modules[name] = mods[name]
            setattr(kernels, name.split(".")[1], mods[name])
        yield mods
    finally:
        for k in [k for k in sys.modules if ours(k)]:
            del sys.modules[k]
        sys.modules.update(saved)
