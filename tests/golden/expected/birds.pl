% aspml program, prolog dialect: target "flies"
% aspml: {"aspml": 1, "dialect": "prolog", "target": {"name": "flies", "pred": "flies", "positive": null, "negative": null}, "features": [["bird", "bird", "boolean", null], ["penguin", "penguin", "boolean", null], ["superpenguin", "superpenguin", "boolean", null]], "provenance": []}
:- encoding(utf8).
:- dynamic bird/1, penguin/1, superpenguin/1, abnormal_bird/1, abnormal_penguin/1.
:- discontiguous flies/1, abnormal_bird/1, abnormal_penguin/1, bird/1, penguin/1, superpenguin/1, row/1.

flies(X) :-
    bird(X),
    \+ abnormal_bird(X).
abnormal_bird(X) :-
    penguin(X),
    \+ abnormal_penguin(X).
abnormal_penguin(X) :-
    superpenguin(X).
