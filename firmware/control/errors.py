# The error object every refused press or request returns: {"code", "message"}; and the
# error event of a failure the board goes on after.


def err(code, message):
    return {"code": code, "message": message}


def report(emit, code, exc):
    """An error event for `exc` through `emit`, if the heap has room for it: in a full heap
    the event itself may be what cannot be made, and the caller goes on regardless."""
    try:
        emit({"event": "error", "code": code, "message": repr(exc)})
    except MemoryError:
        pass
