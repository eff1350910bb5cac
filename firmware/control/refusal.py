# A refused press (or a bug caught while pressing): its error event and the red flash where
# it was pressed, for every module that takes presses (buttons, menu, dice_entry, cube_page,
# the controller). It writes the View's flash only, nothing of the controller.
from display.view import FLASH_MS, TARGET_DICE
from hw.ticks import ticks_add

from control.errors import report


def fail(ctl, code, message, button, target, now):
    """A refused press (or a bug while pressing): a red flash where it was pressed (the dice
    for ROLL and UNDO) and an error event. Writes the view only, not the controller. In a
    heap with no room left for the event the flash is all there is: nothing raised."""
    report(ctl.emit, code, message, button)
    v = ctl.view
    v.flash_target = target if target >= 0 else TARGET_DICE
    v.flash_until = ticks_add(now, FLASH_MS) or 1  # ticks wrap; 0 is 'none'
    v.changed += 1
