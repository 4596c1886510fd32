"""Where the checkout and its build outputs are (an editable install of the repository)."""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def repo_root():
    """The repository: software/python/litedigest -> <repo>."""
    return os.path.abspath(os.path.join(_HERE, "..", "..", ".."))


def build_root():
    """Build outputs (git-ignored): $LITEDIGEST_BUILD, else <repo>/build."""
    return os.environ.get("LITEDIGEST_BUILD") or os.path.join(repo_root(), "build")
