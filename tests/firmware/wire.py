# Test helpers for the protocol: a controller behind a Protocol, its lines taken back as JSON.
import fakes
from jsonwire import INFO, Wire, ask, one  # noqa: F401 (the protocol tests take them from here)
from link.protocol import Protocol


def make(seed=3):
    """(protocol, controller, wire) on a fresh folder."""
    ctl, rec = fakes.make(seed=seed)
    wire = Wire()
    proto = Protocol(ctl, INFO, wire, 0)
    ctl.emit = proto.event
    return proto, ctl, wire


def snap(ctl):
    """Everything a request could change: the game and the settings."""
    return ctl.game.to_json() + ctl.settings.to_json()
