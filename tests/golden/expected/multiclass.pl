% aspml program, prolog dialect: target "label", 3 classes, first rule that holds decides
% Input: row(X) for each row X (the rules that start from it hold for no row without it), and pred(X,Value) for each known value.
% aspml: {"aspml": 1, "dialect": "prolog", "target": {"name": "label", "pred": "label", "positive": null, "negative": null, "classes": ["setosa", "it's \"q\" \\ back\nnew :- fail. % \u00e9\u65e5\u672c ok", "virginica"], "default": "virginica"}, "features": [["petal length", "petal_length", "numeric", 10], ["petal_width", "petal_width", "numeric", 10], ["colour", "colour", "mixed", 1]], "provenance": []}
:- encoding(utf8).
:- dynamic petal_length/2, petal_width/2, colour/2, ab1/1, row/1, rule1/1, rule2/1, rule3/1, rule4/1.
:- discontiguous label/2, ab1/1, rule1/1, rule2/1, rule3/1, rule4/1, petal_length/2, petal_width/2, colour/2, row/1.

label(X,'setosa') :- rule1(X).
label(X,'it\'s "q" \\ back\nnew :- fail. % é日本 ok') :- rule2(X), \+ rule1(X).
label(X,'setosa') :- rule3(X), \+ rule2(X).
label(X,'it\'s "q" \\ back\nnew :- fail. % é日本 ok') :- rule4(X), \+ rule1(X), \+ rule3(X).
label(X,'virginica') :- row(X), \+ rule1(X), \+ rule2(X), \+ rule3(X), \+ rule4(X).
rule1(X) :-
    petal_length(X,N1), N1 =< 2.5.
rule2(X) :-
    petal_width(X,N1), N1 =< 1.7,
    \+ ab1(X).
rule3(X) :-
    petal_length(X,N1), N1 > 6.
rule4(X) :-
    colour(X,N1), memberchk(N1,[3,'red']).
ab1(X) :-
    colour(X,'blue'),
    petal_length(X,N1), (N1 >= 4.5, N1 < 5).
