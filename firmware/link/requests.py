# The protocol's error replies and result handling, and `config` (all changes or none:
# Controller.config).


class BadRequest(Exception):
    """An error reply: code and message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def failed(error, exc):
    """The error reply (made by `error(code, message)`) for what answering a request raised:
    BadRequest's code, else `internal` (never expected; the board keeps running)."""
    if isinstance(exc, BadRequest):
        return error(exc.code, exc.message)
    return error("internal", repr(exc)[:80])


def with_id(reply, rid):
    """The reply with the request's id, if it had one (else without the None a reply made
    at its full size holds for it: report.state)."""
    if rid is not None:
        reply["id"] = rid
    elif "id" in reply:
        del reply["id"]
    return reply


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def merge(d, key=None):
    """A reply from a controller result: its dict's fields, or the value under `key`."""
    out = {"ok": True}
    if isinstance(d, dict):
        for k in d:
            out[k] = d[k]
    elif key is not None and d is not None:
        out[key] = d
    return out


def outcome(r, code="illegal"):
    """The result of a controller call returning (ok, error_or_result); BadRequest if not ok."""
    if not isinstance(r, tuple) or len(r) != 2:
        return r
    ok, x = r
    if ok:
        return x
    if isinstance(x, (tuple, list)) and len(x) == 2:
        raise BadRequest(str(x[0]), str(x[1]))
    if isinstance(x, dict):
        raise BadRequest(str(x.get("code", code)), str(x.get("message", "")))
    raise BadRequest(code, str(x))


def config(proto, req, now_ms):
    """`config`: the settings, after `set` (every change tried on a scratch copy first:
    all or none), and `next_terms`: match_length, cube and jacoby apply from the next
    match, which resets the score (control/configure.next_terms)."""
    changes = req.get("set")
    if changes is not None and (not isinstance(changes, dict) or not changes):
        raise BadRequest("bad_args", "set: {key: value, ...}")
    return merge(outcome(proto.ctl.config(changes, now_ms), "bad_args"))

