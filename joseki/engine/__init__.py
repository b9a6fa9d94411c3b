"""Playing engines: a GTP client, the book's move policy, the GTP proxy that answers from the
book in front of another engine, and automatic matches between engines.

May import every layer but the CLI.
"""
