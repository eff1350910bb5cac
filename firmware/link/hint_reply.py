# The `hint` request: thought out in slices as HINT held, its reply sent once it is found.
#
# Loaded only when a hint is asked for over the link. The hint is started through
# Controller.start_hint (control/hint.py), so the controller's tick thinks it a slice a frame
# and a press or a change of the game drops it, as with ROLL held; its reply goes into the
# Outbox at once, as a line whose pieces are empty ("not yet": link/outbox.py) while the
# writer thinks one more slice a send, then the reply. No step of the loop thinks it in one
# go; without an Outbox (tests writing each line at once) it is thought out at once.
from link.jsonout import encode
from link.requests import BadRequest, failed, merge, outcome, with_id


def hint(proto, req, now_ms):
    """The cube's advice at once (a reply), else None: the reply is queued now and sent
    once the play is found (the request's id kept for it)."""
    ctl = proto.ctl
    h = outcome(ctl.start_hint(now_ms))
    if h.result is not None:  # the cube's advice, known at once
        return merge(h.result)
    line = _line(proto, ctl, h, req.get("id"))
    if proto.outbox is None:
        for piece in line:
            if piece:
                proto.write(piece)
    else:
        proto.outbox.put_line(line, True)  # dropped (counted) when the host stops reading
    return None


def _line(proto, ctl, h, rid):
    """The reply's pieces: empty while the hint is thought out, a slice each, then the line."""
    try:
        while h.result is None:
            # the controller's tick thinks it too (a slice a frame), and drops it when a
            # press or a change of the game comes first
            if not ctl.hint_going(h) or h.step(ctl, proto.now):
                if h.result is None:
                    if getattr(h, "plan", 1) is None:  # its error event is out: it failed
                        raise BadRequest("no_player", "no hint: the board's player failed")
                    raise BadRequest("wrong_phase", "the hint was dropped: the play changed")
                break
            yield b""
        reply = merge(h.result)
    except Exception as exc:  # a dropped hint or a fault: an error reply
        reply = failed(proto.error, exc)
    out = encode(with_id(reply, rid))
    if isinstance(out, bytes):
        yield out
    else:
        yield from out
