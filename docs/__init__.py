"""Player and operator documents drawn from the games' content packs.

`python -m docs.generate` writes them; tests/docs checks they match the packs, so an edit
of the data that is not followed by a regeneration fails the suite.
"""
