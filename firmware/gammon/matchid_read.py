# A Match ID (gnubg's 12 base64 characters) read back into its fields: the host's reading
# (export, the match's words); the board only writes them (gammon/matchid.py).
from binascii import a2b_base64


def decode(text, fields):
    """gammon.matchid.decode: the `fields` (gammon.matchid.FIELDS, passed in: this module
    imports none of the engine) of Match ID `text`; ValueError when it is not one."""
    if not isinstance(text, str) or len(text) != 12:
        raise ValueError("a Match ID is 12 base64 characters")
    try:
        raw = a2b_base64(text.encode())
    except Exception:
        raise ValueError("not base64: %r" % text) from None
    out = {}
    at = 0
    for name, width in fields:
        v = 0
        for i in range(width):
            if (raw[at >> 3] >> (at & 7)) & 1:
                v |= 1 << i
            at += 1
        out[name] = v
    if out["cube"] > 6 or out["owner"] == 2 or out["state"] > 4 or out["die1"] > 6:
        raise ValueError("not a Match ID gnubg writes: %r" % text)
    out["cube"] = 1 << out["cube"]
    if out["owner"] == 3:
        out["owner"] = -1
    return out
