# A refused press (or a bug caught while pressing): its error event and the red flash where
# it was pressed, for every module that takes presses (buttons, menu, dice_entry, cube_page,
# the controller). The flash is the presenter's (present.flash); nothing of the controller.
from control.errors import report
from control.present import flash


def fail(ctl, code, message, button, target, now):
    """A refused press (or a bug while pressing): a red flash where it was pressed (the dice
    for ROLL and UNDO) and an error event. Writes the view only, not the controller. In a
    heap with no room left for the event the flash is all there is: nothing raised."""
    report(ctl.emit, code, message, button)
    flash(ctl.view, target, now)
