"""No module of the branch-and-price package but its ``options.py`` holds a tunable of its
own: every tuning knob is a field of the frozen ``BnpOptions``.

An ast scan of the package's modules for module-level names bound to a numeric literal
(an int or float constant, or an expression, tuple or list of them only, e.g. ``2**31 - 1``
or ``-1``).  The only ones allowed are the true constants below, none of them a knob:"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from coschedopt.core import get_method

#: the package of ``branch-and-price`` (found through its registered options, wherever it lives)
PACKAGE = Path(sys.modules[get_method("pack", "branch-and-price").options.__module__].__file__).parent

#: (module, name) -> why it is a constant and not a tunable
CONSTANTS = {
    ("knapsack.py", "PI_EPS"): "float noise floor: duals at or below it are zero (HiGHS returns -0.0, 1e-17)",
    ("master.py", "DOMINANCE_LEVEL"): "a marker, the level of the dual-optimal-inequality columns",
    ("master.py", "NO_ITERATION_LIMIT"): "HiGHS' own value for no simplex iteration limit",
    ("mips.py", "EMPTY"): "a marker, the level of an empty pack in the profile-move MIP",
}


def _numeric(node: ast.AST) -> bool:
    """Whether ``node`` is built of int/float constants only (bools are not numbers here)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _numeric(node.operand)
    if isinstance(node, ast.BinOp):
        return _numeric(node.left) and _numeric(node.right)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_numeric(e) for e in node.elts)
    return False


def _module_level(body: list[ast.stmt]):
    """The statements run at import: the module body and the blocks of its if/try/with."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If | ast.With):
            yield from _module_level(stmt.body)
            yield from _module_level(getattr(stmt, "orelse", []))
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody, *(h.body for h in stmt.handlers)):
                yield from _module_level(block)


def _names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for e in target.elts for n in _names(e)]
    return [ast.unparse(target)]


def numeric_assignments(path: Path) -> list[tuple[str, int]]:
    """(name, line) of every module-level name of ``path`` bound to a numeric literal."""
    found = []
    for stmt in _module_level(ast.parse(path.read_text(), str(path)).body):
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        if isinstance(value, ast.Tuple) and all(isinstance(t, ast.Tuple) for t in targets):
            pairs = [(t, v) for tt in targets for t, v in zip(tt.elts, value.elts, strict=False)]
        else:
            pairs = [(t, value) for t in targets]
        found += [(name, stmt.lineno) for t, v in pairs if _numeric(v) for name in _names(t)]
    return found


def test_no_bnp_module_but_options_defines_a_numeric_tunable() -> None:
    modules = sorted(p for p in PACKAGE.glob("*.py") if p.name != "options.py")
    assert len(modules) >= 18
    offenders = [
        f"{p.name}:{line} {name}"
        for p in modules
        for name, line in numeric_assignments(p)
        if (p.name, name) not in CONSTANTS
    ]
    assert not offenders, f"module-level numeric tunables outside options.py (move them to BnpOptions): {offenders}"


def test_the_allowed_constants_exist() -> None:
    # a stale entry would let a new tunable of that name through unnoticed
    for module, name in CONSTANTS:
        assert name in dict(numeric_assignments(PACKAGE / module)), (module, name)


def test_the_scan_sees_what_it_must(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text(
        "import math\nA = 30_000_000\nB: float = 0.5\nC = -1\nD = 2**31 - 1\nE, F = 1, 'x'\nG = (1, 2.0)\n"
        "H = True\nI = 'text'\nJ = math.inf\nif True:\n    K = 3\n"
        "def f():\n    L = 4\n    return L\nclass X:\n    M = 5\n"
    )
    assert [n for n, _ in numeric_assignments(src)] == ["A", "B", "C", "D", "E", "G", "K"]
