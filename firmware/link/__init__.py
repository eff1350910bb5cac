# The serial link: line framing, the JSON-lines protocol, the serial task.
