"""Load a script of bench/ as a module, for the tests that check what it measures."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_bench(name: str):
    """bench/<name>.py as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_bench", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
