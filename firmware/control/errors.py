# The error object every refused press or request returns: {"code", "message"}; and the
# error event of a failure the board goes on after.


def err(code, message):
    return {"code": code, "message": message}


def report(emit, code, message, button=None):
    """An error event through `emit` (`message` a str, or the exception to repr; `button`
    the press it refuses, if any), if the heap has room for it: in a full heap the event
    itself may be what cannot be made, and the caller goes on regardless."""
    try:
        ev = {"event": "error", "code": code}
        ev["message"] = message if type(message) is str else repr(message)
        if button is not None:
            ev["button"] = button
        emit(ev)
    except MemoryError:
        pass
