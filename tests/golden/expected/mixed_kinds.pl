% aspml program, prolog dialect: target "label" = "present"
% aspml: {"aspml": 1, "dialect": "prolog", "target": {"name": "label", "pred": "label", "positive": "present", "negative": "absent"}, "features": [["ca", "ca", "mixed", 10], ["thal", "thal", "categorical", null]], "provenance": [["learner", "hand-written"], ["note", "mixed column: numbers and strings"]]}
:- encoding(utf8).
:- dynamic ca/2, thal/2, ab1/1.
:- discontiguous label/2, ab1/1, ca/2, thal/2, row/1.

label(X,'present') :-
    ca(X,N1), number(N1), N1 > 0.5,
    memberchk(N1,[1,2,'?x']),
    \+ ab1(X).
ab1(X) :-
    thal(X,'7'),
    \+ (ca(X,M1), number(M1), M1 > 2).
