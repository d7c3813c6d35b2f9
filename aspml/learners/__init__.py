"""Rule learners with the scikit-learn contract; each emits an aspml Program."""

from .fold import FoldRpp, FoldSE

__all__ = ["FoldRpp", "FoldSE"]
