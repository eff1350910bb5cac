"""make bench's figures: one flat JSON object of numbers, made of what each bench prints as
its last line."""

from __future__ import annotations

import json
import subprocess


def flat(prefix: str, obj: object, out: dict[str, float]) -> None:
    """The numbers of a nested figure dict as flat keys: prefix_key_subkey."""
    if isinstance(obj, bool):
        return
    if isinstance(obj, (int, float)):
        out[prefix] = float(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            name = "".join(c if c.isalnum() else "_" for c in str(k)).strip("_")
            flat(prefix + "_" + name if prefix else name, v, out)


def last_json(proc: subprocess.CompletedProcess[str]) -> dict:
    """The JSON object a finished bench printed last; raises when it failed."""
    proc.check_returncode()
    return json.loads(proc.stdout.strip().splitlines()[-1])
