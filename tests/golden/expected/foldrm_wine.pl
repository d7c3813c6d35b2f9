% aspml program, prolog dialect: target "label", 3 classes, first rule that holds decides
% aspml: {"aspml": 1, "dialect": "prolog", "target": {"name": "label", "pred": "label", "positive": null, "negative": null, "classes": ["1", "2", "3"], "default": null}, "features": [["color_intensity", "color_intensity", "numeric", 10], ["flavanoids", "flavanoids", "numeric", 100], ["alcohol", "alcohol", "numeric", 100], ["proline", "proline", "numeric", 1], ["hue", "hue", "numeric", 100]], "provenance": []}
:- encoding(utf8).
:- dynamic color_intensity/2, flavanoids/2, alcohol/2, proline/2, hue/2, ab1/1, ab2/1, rule1/1, rule2/1, rule3/1, rule4/1, rule5/1.
:- discontiguous label/2, ab1/1, ab2/1, rule1/1, rule2/1, rule3/1, rule4/1, rule5/1, color_intensity/2, flavanoids/2, alcohol/2, proline/2, hue/2, row/1.

label(X,'2') :- rule1(X).
label(X,'1') :- rule2(X), \+ rule1(X).
label(X,'3') :- rule3(X), \+ rule1(X), \+ rule2(X).
label(X,'2') :- rule4(X), \+ rule2(X), \+ rule3(X).
label(X,'2') :- rule5(X), \+ rule2(X), \+ rule3(X).
rule1(X) :-
    color_intensity(X,N1), N1 =< 3.4.
rule2(X) :-
    flavanoids(X,N1), N1 > 2.03,
    \+ ab1(X).
rule3(X) :-
    flavanoids(X,N1), N1 =< 1.57,
    \+ ab2(X).
rule4(X) :-
    alcohol(X,N1), N1 > 11.56.
rule5(X) :-
    alcohol(X,N1), N1 =< 11.56.
ab1(X) :-
    proline(X,N1), N1 =< 678.
ab2(X) :-
    hue(X,N1), N1 > 0.96.
