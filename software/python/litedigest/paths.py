# SPDX-License-Identifier: BSD-2-Clause
"""Where the checkout and its build outputs are (an editable install of the repository).

The one definition is litedigest.buildcache's (the builds use it too)."""

from litedigest.buildcache import build_root, repo_root

__all__ = ["build_root", "repo_root"]
