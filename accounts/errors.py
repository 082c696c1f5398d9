class DemoUserConflict(Exception):
    """The demo account's e-mail address already belongs to another account."""
