% aspml program, prolog dialect: target "income" = "<=50K"
% Input: row(X) for each row X (the rules that start from it hold for no row without it), and pred(X,Value) for each known value.
% aspml: {"aspml": 1, "dialect": "prolog", "target": {"name": "income", "pred": "income", "positive": "<=50K", "negative": null}, "features": [["marital_status", "marital_status", "categorical", null], ["education_num", "education_num", "numeric", 1], ["capital_gain", "capital_gain", "numeric", 1], ["occupation", "occupation", "categorical", null], ["workclass", "workclass", "categorical", null], ["age", "age", "numeric", 1], ["native_country", "native_country", "categorical", null], ["race", "race", "categorical", null], ["capital_loss", "capital_loss", "numeric", 1], ["education", "education", "categorical", null]], "provenance": []}
:- encoding(utf8).
:- dynamic marital_status/2, education_num/2, capital_gain/2, occupation/2, workclass/2, age/2, native_country/2, race/2, capital_loss/2, education/2, ab1/1, ab2/1, ab3/1, ab4/1, ab5/1, ab6/1, row/1.
:- discontiguous income/2, ab1/1, ab2/1, ab3/1, ab4/1, ab5/1, ab6/1, marital_status/2, education_num/2, capital_gain/2, occupation/2, workclass/2, age/2, native_country/2, race/2, capital_loss/2, education/2, row/1.

income(X,'<=50K') :-
    row(X),
    \+ marital_status(X,'Married-civ-spouse'),
    \+ ab3(X).
income(X,'<=50K') :-
    marital_status(X,'Married-civ-spouse'),
    education_num(X,N1), N1 =< 12,
    capital_gain(X,N2), N2 =< 5013,
    \+ ab5(X),
    \+ ab6(X).
income(X,'<=50K') :-
    occupation(X,'Farming-fishing'),
    workclass(X,'Self-emp-not-inc'),
    education_num(X,N1), N1 > 12,
    capital_gain(X,N2), N2 > 5013.
ab1(X) :-
    row(X),
    \+ workclass(X,'Local-gov'),
    capital_gain(X,N1), N1 =< 7978,
    education_num(X,N2), N2 =< 10.
ab2(X) :-
    capital_gain(X,N1), N1 > 27828,
    N1 =< 34095.
ab3(X) :-
    capital_gain(X,N1), N1 > 6849,
    age(X,N2), N2 > 20,
    \+ ab1(X),
    \+ ab2(X).
ab4(X) :-
    workclass(X,'Local-gov'),
    native_country(X,'United-States').
ab5(X) :-
    row(X),
    \+ race(X,'Amer-Indian-Eskimo'),
    education_num(X,N1), N1 =< 8,
    capital_loss(X,N2), N2 > 1735,
    N2 =< 1902,
    \+ ab4(X).
ab6(X) :-
    occupation(X,'Tech-support'),
    \+ education(X,'11th'),
    education_num(X,N1), N1 > 5,
    N1 =< 8,
    age(X,N2), N2 =< 36.
