"""The ``joseki`` command line: one module per command group, each command a thin shell over
the library function of the same name. Library modules are imported inside the commands
that need them, so the CLI starts at once.

The outermost layer: nothing in the library imports it.
"""
