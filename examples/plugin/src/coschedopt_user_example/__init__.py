"""A user's own methods for coschedopt, registered through the entry point ``coschedopt.plugins``.

Importing this module registers them; coschedopt imports it on first use of its registry once the
package is installed (``pip install -e examples/plugin``), so ``coschedopt methods pack`` lists
``pairs-first`` and ``coschedopt solve --method sjf`` runs the batch policy.
"""

from . import batch_policy, pack_heuristic  # noqa: F401  (each registers its method)
