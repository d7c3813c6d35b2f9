"""Rule learners with the scikit-learn contract; each emits an aspml Program."""

from .fold import FoldRpp, FoldSE
from .libre import Libre
from .mrs import MultiValueRuleSet

__all__ = ["FoldRpp", "FoldSE", "Libre", "MultiValueRuleSet"]
