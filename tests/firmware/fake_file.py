# A real file behind a test's stand-in for it (a full filesystem, a power cut mid-save).


class FileOver:
    """Wraps the open file `f`: write() passes through unless a subclass decides otherwise,
    and a `with` block closes it, as the Store's own files are used."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        return self.f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()
