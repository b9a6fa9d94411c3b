"""The pure core: board geometry, move notation, play-step strings, the corner zone, local
positions and their keys, corner tables of a game, priority maths, categories and how verdicts
combine, conditions, influence, ladders and text diagrams.

No I/O and no third-party imports: modules here import only the standard library and
``joseki.core``. Every rule (the zone extent, the tenuki rule, the canonical form, the priority
formula) has its one definition here.
"""
