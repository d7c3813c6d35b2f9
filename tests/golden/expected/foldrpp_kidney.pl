% aspml program, prolog dialect: target "label" = "ckd"
% Input: row(X) for each row X (the rules that start from it hold for no row without it), and pred(X,Value) for each known value.
% aspml: {"aspml": 1, "dialect": "prolog", "target": {"name": "label", "pred": "label", "positive": "ckd", "negative": null}, "features": [["sc", "sc", "numeric", 10], ["al", "al", "categorical", null], ["htn", "htn", "categorical", null], ["hemo", "hemo", "numeric", 1], ["sg", "sg", "numeric", 1000]], "provenance": []}
:- encoding(utf8).
:- dynamic sc/2, al/2, htn/2, hemo/2, sg/2, ab1/1, row/1.
:- discontiguous label/2, ab1/1, sc/2, al/2, htn/2, hemo/2, sg/2, row/1.

label(X,'ckd') :-
    sc(X,N1), N1 > 1.2.
label(X,'ckd') :-
    row(X),
    \+ al(X,'0'),
    \+ ab1(X).
label(X,'ckd') :-
    htn(X,'yes').
ab1(X) :-
    hemo(X,N1), N1 > 13,
    sg(X,N2), N2 > 1.015.
