"""Shared helpers: the tool's binary (the Rust side every Python result is held to)."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def binary():
    """The tool: GPU_NOISE_BIN, else target/release/gpu-noise (`cargo build --release`)."""
    path = os.environ.get("GPU_NOISE_BIN", str(ROOT / "target" / "release" / "gpu-noise"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"no gpu-noise binary at {path}: run `cargo build --release` first")
    return path


@pytest.fixture(scope="session")
def cli(binary):
    """Runs `gpu-noise` with these arguments, asserting success; returns its stdout."""

    def run(*args, stdin=None):
        done = subprocess.run([binary, *args], input=stdin, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


@pytest.fixture()
def npy(tmp_path, cli):
    """Renders with the tool to a `.npy` file and loads it."""

    def render(*args):
        out = tmp_path / "out.npy"
        cli("render", "-q", *args, "-o", str(out))
        return np.load(out)

    return render
