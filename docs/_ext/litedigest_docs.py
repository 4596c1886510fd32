# SPDX-License-Identifier: BSD-2-Clause
"""The documentation site's own Sphinx extension (docs/conf.py).

- Links from a page to a file of the repository that is not a page of the site (a source
  file, `../soc/peripheral/core.py`, or a Markdown page left out of the build by
  exclude_patterns) become the file's repository path, in literal text (a link to it when
  conf.py sets `litedigest_repo_url`, the tree's web address), instead of a download or a
  broken reference. A link to a file that does not exist is a warning, so an error under
  `sphinx-build -W` (scripts/docs.sh).
- `toctree-if-exists`: a toctree whose entries that are not (yet) pages are left out
  silently, for a page that is being written elsewhere.
- `cli_parser()`: the command line's parser (litedigest.cli) for sphinx-argparse, its help
  text escaped for reStructuredText (sphinx-argparse reads it as markup; the help says
  `prints ' *'`).
"""

import argparse
import os
import re

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.directives.other import TocTree
from sphinx.transforms import SphinxTransform
from sphinx.util import docname_join, logging

logger = logging.getLogger(__name__)


class RepositoryLinks(SphinxTransform):
    """At read time, after MyST made its reference nodes (before they are resolved)."""

    default_priority = 100

    def apply(self):
        root = os.path.abspath(self.config.litedigest_repo_root)
        for node in list(self.document.findall(addnodes.download_reference)):
            if node.get("reftype") == "myst":
                self._file_link(node, root, node["reftarget"])
        for node in list(self.document.findall(addnodes.pending_xref)):
            if node.get("reftype") != "myst":
                continue
            if node.get("refdomain") == "doc":
                if node["reftarget"] in self.env.found_docs:
                    continue
                self._file_link(node, root, self._page_source(node["reftarget"]))
            elif node.get("refdomain") is None:
                target = node["reftarget"].split("#", 1)[0]
                if "/" in target or os.path.splitext(target)[1]:
                    self._file_link(node, root, target)

    def _page_source(self, docname):
        """The file of a page that is not part of the site (exclude_patterns), relative to the
        current page; the docname itself when there is no such file (warned as missing)."""
        for suffix in self.config.source_suffix:
            path = os.path.join(self.env.srcdir, docname + suffix)
            if os.path.exists(path):
                return os.path.relpath(path, os.path.dirname(self.env.doc2path(self.env.docname)))
        return docname

    def _file_link(self, node, root, target):
        target = target.split("#", 1)[0]
        here = os.path.dirname(self.env.doc2path(self.env.docname))
        path = os.path.normpath(os.path.join(here, target))
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        if rel.startswith("../") or not os.path.exists(path):
            logger.warning(
                "link to a repository file that does not exist: %s", target, location=node
            )
            node.replace_self(nodes.literal(target, target))
            return
        text = node.astext()
        literal = nodes.literal(rel, rel) if text in (target, "") or text == rel else None
        inner = literal if literal is not None else nodes.inline(text, text)
        url = self.config.litedigest_repo_url
        if url:
            new = nodes.reference("", "", inner, refuri=f"{url.rstrip('/')}/{rel}")
        else:
            new = nodes.inline("", "", inner, classes=["repository-file"])
            if literal is None:
                new += [nodes.Text(" ("), nodes.literal(rel, rel), nodes.Text(")")]
        node.replace_self(new)


class TocTreeIfExists(TocTree):
    def parse_content(self, toctree):
        here = self.env.docname
        keep = [
            (line, src, off)
            for line, (src, off) in zip(self.content, self.content.items)
            if not line.strip() or docname_join(here, line.strip()) in self.env.found_docs
        ]
        self.content = StringList([k[0] for k in keep], items=[(k[1], k[2]) for k in keep])
        return super().parse_content(toctree)


_RST_SPECIAL = re.compile(r"([\\*`|]|_(?!\w))")


def _escape(text):
    return _RST_SPECIAL.sub(r"\\\1", text) if isinstance(text, str) else text


def _escape_parser(parser):
    parser.description = _escape(parser.description)
    parser.epilog = _escape(parser.epilog)
    for action in parser._actions:
        action.help = _escape(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                choice.help = _escape(choice.help)
            for sub in action.choices.values():
                _escape_parser(sub)
    return parser


def cli_parser():
    from litedigest.cli.command import build_parser

    return _escape_parser(build_parser())


def setup(app):
    app.add_config_value("litedigest_repo_root", "..", "env")
    app.add_config_value("litedigest_repo_url", None, "env")
    app.add_transform(RepositoryLinks)
    app.add_directive("toctree-if-exists", TocTreeIfExists)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
