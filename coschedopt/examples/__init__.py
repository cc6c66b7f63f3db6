"""Example families: small, complete, and not loaded by ``import coschedopt``.

``coschedopt.examples.toy`` is the template every family copies
(``docs/adding-a-family.md``); import it (or name it in a suite's ``plugins``)
to register it.
"""
