# The error object every refused press or request returns: {"code", "message"}.


def err(code, message):
    return {"code": code, "message": message}
