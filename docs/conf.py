# SPDX-License-Identifier: BSD-2-Clause
"""Sphinx configuration of the documentation site: scripts/docs.sh builds it.

The source directory is the repository's root (`sphinx-build -c docs . build/docs/html`), so
that the Markdown pages keep the relative links they have on GitHub: docs/*.md, the
register map soc/REGISTERS.md, the C library's README and CHANGELOG.md are pages of the site
as they are. include_patterns names the pages; the site's own pages are in docs/ (index.md).
"""

import os
import sys

DOCS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOCS)
sys.path.insert(0, os.path.join(DOCS, "_ext"))


def _version():
    with open(os.path.join(ROOT, "software", "firmware", "lib", "VERSION")) as f:
        return f.read().strip()


project = "LiteDigest"
author = "the LiteDigest authors"
copyright = "the LiteDigest authors, BSD-2-Clause"
release = version = _version()

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinxarg.ext",
    "breathe",
    "litedigest_docs",
]

root_doc = "docs/index"
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# the pages of the site; everything else in the repository is source (linked as files)
include_patterns = [
    "docs/**",
    "soc/REGISTERS.md",
    "software/firmware/lib/README.md",
    "CHANGELOG.md",
    "README.md",
]
exclude_patterns = [
    "docs/_ext",
    # not searched for pages (include_patterns does not prune the walk)
    ".venv",
    "build",
    ".git",
    "ip",
    "soc/peripheral",
    "soc/targets",
    "soc/sim",
    "soc/flows",
    "soc/formal",
    "soc/cores",
    "software/firmware/apps",
    "software/firmware/tests",
    "software/python",
    "bitstreams",
    "notebooks",
    "tests",
]

# MyST: the GitHub-style heading anchors the pages link to (`TESTING.md#what-is-proven`)
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

# every reference must resolve (scripts/docs.sh builds with -W -n); the C standard types are
# not declared by the headers
nitpicky = True
nitpick_ignore = [
    ("c:identifier", name)
    for name in ("uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t", "uintptr_t", "int64_t")
]
# a struct's anonymous union member (ld_md_ctx's state) has no name to refer to
nitpick_ignore_regex = [("c:identifier", r".*\.@\d+")]

# autodoc: the package's docstrings, in the order of the source
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}
# the docstrings' `name` is code, as in the Markdown pages
default_role = "code"

# the C library's reference: Doxygen's XML of the public headers (scripts/docs.sh runs it)
breathe_projects = {
    "litedigest": os.environ.get(
        "LITEDIGEST_DOXYGEN_XML", os.path.join(ROOT, "build", "docs", "doxygen", "xml")
    )
}
breathe_default_project = "litedigest"
breathe_domain_by_extension = {"h": "c"}

litedigest_repo_root = ROOT
# a web address of the source tree (".../blob/main"): links to repository files point there
litedigest_repo_url = os.environ.get("LITEDIGEST_REPO_URL") or None

html_theme = "furo"
html_title = f"LiteDigest {release}"
autodoc_mock_imports = ["pynq"]
# no "#include" lines: they link to file pages the site does not have
breathe_show_include = False
smartquotes = False  # the docstrings quote code ("sha256"), which must stay straight
