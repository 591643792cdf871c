"""Re-execute every notebook under other floating-point configurations of this machine.

``make test`` runs this after the main test run:  ``python tests/portability.py``.

The stored outputs must reproduce on any CPU a student has, not only on the one that
executed them.  Two switches let one machine imitate others, each changing the last bits
of floating-point results the way another CPU would:

* ``NPY_DISABLE_CPU_FEATURES`` turns off numpy's SIMD dispatch (AVX2/AVX-512 on x86-64,
  the ASIMD extensions and SVE on ARM), so numpy's loops sum in another order;
* ``OPENBLAS_CORETYPE`` makes OpenBLAS (numpy's and SciPy's) use the kernels of an older
  CPU, so every matrix product rounds differently.

The run uses both switches at once and re-runs the notebooks with nbval against the same
stored outputs.  If a switch has no effect here (another architecture, a BLAS without
runtime kernel selection), the run is reported as skipped, loudly, and is not counted as
passed.  The exit status is non-zero if any run fails.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = r"""
import json
import numpy  # noqa: F401  (loads numpy's OpenBLAS)
import scipy.linalg  # noqa: F401  (loads SciPy's OpenBLAS)
import threadpoolctl
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
print(json.dumps({
    "dispatch_enabled": [f for f in __cpu_dispatch__ if __cpu_features__.get(f)],
    "blas": [info.get("architecture") for info in threadpoolctl.threadpool_info()
             if info.get("internal_api") == "openblas"],
}))
"""


def probe(env: dict[str, str] | None = None) -> dict:
    """What numpy dispatches to and which kernels OpenBLAS uses, under ``env``."""
    out = subprocess.run([sys.executable, "-c", _PROBE], env={**os.environ, **(env or {})},
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def old_blas_core() -> str | None:
    """The OpenBLAS core type of the oldest CPU of this architecture it has kernels for."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        return "Prescott"                            # SSE3 only: no AVX of any width
    if machine in ("aarch64", "arm64"):
        return "ARMV8"                               # generic ARMv8 kernels
    return None


def configurations(native: dict) -> list[tuple[str, dict[str, str], str | None]]:
    """``(name, environment, reason it does not apply or None)`` for every extra run.

    One run with both switches: numpy's loops at their baseline and OpenBLAS on the
    oldest kernels, the configuration furthest from this machine's.  (A second run, with
    OpenBLAS on Sandybridge's AVX kernels alone, was dropped to keep CI within its time.)"""
    dispatch = " ".join(native["dispatch_enabled"])
    core = old_blas_core()
    env = {"NPY_DISABLE_CPU_FEATURES": dispatch} if dispatch else {}
    if core:
        env["OPENBLAS_CORETYPE"] = core
    name = " and ".join(part for part in (
        "numpy SIMD dispatch at its baseline" if dispatch else "",
        f"OpenBLAS {core} kernels" if core else "") if part)
    reason = None if env else ("numpy dispatches to no SIMD extension and OpenBLAS has no older "
                               "kernels here")
    return [(name or "no switch applies", env, reason)]


def check_applies(env: dict[str, str], native: dict) -> str | None:
    """Why the switches in ``env`` change nothing here, or None if they take effect."""
    seen = probe(env)
    if "NPY_DISABLE_CPU_FEATURES" in env and seen["dispatch_enabled"]:
        return f"numpy still dispatches to {seen['dispatch_enabled']}"
    core = env.get("OPENBLAS_CORETYPE")
    if core:
        if not seen["blas"]:
            return "numpy and SciPy do not use OpenBLAS here"
        # OpenBLAS may name the kernels it picked otherwise (Prescott reports "Katmai");
        # what matters is that it left the native ones
        if any(arch == native_arch for arch, native_arch in zip(seen["blas"], native["blas"])):
            return f"OPENBLAS_CORETYPE={core} left OpenBLAS on its native kernels {seen['blas']}"
    return None


def main(argv: list[str] | None = None) -> int:
    """Run the portability configurations; arguments go to pytest.

    Notebook or directory paths among the arguments replace the default ``book``
    (``python tests/portability.py book/perceptron/convergence.ipynb`` checks one chapter).
    """
    pytest_args = list(argv if argv is not None else sys.argv[1:])
    targets = [a for a in pytest_args if not a.startswith("-") and (ROOT / a).exists()]
    pytest_args = [a for a in pytest_args if a not in targets]
    native = probe()
    print(f"\nPortability runs: the notebooks again under other floating-point configurations "
          f"(native: numpy dispatch {native['dispatch_enabled']}, OpenBLAS {native['blas']})",
          flush=True)
    failed, skipped = [], []
    runs = configurations(native)
    for name, env, reason in runs:
        reason = reason or check_applies(env, native)
        if reason:
            print(f"\n*** SKIPPED portability run '{name}': {reason}. The stored outputs are NOT "
                  f"checked under this configuration on this machine. ***\n", flush=True)
            skipped.append(name)
            continue
        settings = " ".join(f"{k}={v!r}" for k, v in env.items())
        print(f"\n=== portability run: {name} ({settings}) ===", flush=True)
        code = subprocess.run([sys.executable, "-m", "pytest", *(targets or ["book"]),
                               "-n", "2", "--dist", "loadscope",
                               "-p", "no:cacheprovider", "-q", *pytest_args],
                              env={**os.environ, **env}, cwd=ROOT).returncode
        if code != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed portability runs: {', '.join(failed)}")
    print(f"\nportability: {len(runs) - len(failed) - len(skipped)} passed, "
          f"{len(failed)} failed, {len(skipped)} skipped", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
