"""The error code of an API answer, whichever envelope it uses (the usual one, or seed 001's under /api/v1/memory/)."""


def error_code(response) -> str:
    error = response.json()["error"]
    return error["code"] if isinstance(error, dict) else error
