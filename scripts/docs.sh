#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Build the documentation site (docs/conf.py, docs/index.md) into build/docs/html:
#   scripts/docs.sh              set up (scripts/setup.sh test: Doxygen, the docs extra), build
#   scripts/docs.sh --no-setup   build with the .venv as it is (tests/project/test_docs.py)
# Doxygen writes the C headers' XML into build/docs/doxygen, then Sphinx builds the site with
# every warning an error (-W -n: a broken link or reference fails). Builds from scratch each
# time (a warning of an unchanged page is not lost), so it is safe to run any number of times.
# Other arguments go to sphinx-build; LITEDIGEST_DOCS_OUT moves build/docs elsewhere.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${1:-}" = --no-setup ]; then
  shift
else
  "$ROOT/scripts/setup.sh" test
fi
cd "$ROOT"
OUT="${LITEDIGEST_DOCS_OUT:-$ROOT/build/docs}"
rm -rf "$OUT/doxygen" "$OUT/html" "$OUT/doctrees"
mkdir -p "$OUT/doxygen"
echo "docs: doxygen (C headers) -> $OUT/doxygen"
LITEDIGEST_DOXYGEN_OUT="$OUT/doxygen" LITEDIGEST_PYTHON="$ROOT/.venv/bin/python" doxygen docs/Doxyfile
echo "docs: sphinx -> $OUT/html"
LITEDIGEST_DOXYGEN_XML="$OUT/doxygen/xml" .venv/bin/sphinx-build -q -W --keep-going -n -E \
  -b html -c docs -d "$OUT/doctrees" "$@" . "$OUT/html"
# the site's front page at the top of the output (its root document is docs/index)
cat > "$OUT/html/index.html" <<'HTML'
<!DOCTYPE html>
<meta charset="utf-8">
<title>LiteDigest</title>
<meta http-equiv="refresh" content="0; url=docs/index.html">
<a href="docs/index.html">LiteDigest documentation</a>
HTML
echo "docs: ok, $OUT/html/index.html"
