% aspml program, prolog dialect: target "risk level" = "high"
% aspml: {"aspml": 1, "dialect": "prolog", "target": {"name": "risk level", "pred": "risk_level", "positive": "high", "negative": "low"}, "features": [["age", "age", "numeric", 1], ["Blood Type", "blood_type", "categorical", null], ["bmi", "bmi", "numeric", 10], ["smoker", "smoker", "boolean", null], ["pressure", "pressure", "numeric", 1], ["score", "score", "numeric", 100]], "provenance": []}
:- encoding(utf8).
:- dynamic age/2, blood_type/2, bmi/2, smoker/1, pressure/2, score/2, ab1/1.
:- discontiguous risk_level/2, ab1/1, age/2, blood_type/2, bmi/2, smoker/1, pressure/2, score/2, row/1.

risk_level(X,'high') :-
    age(X,N1), (N1 >= 30, N1 < 50),
    blood_type(X,N2), memberchk(N2,['A','AB']),
    \+ (bmi(X,M1), M1 =< 24.5),
    \+ ab1(X).
risk_level(X,'high') :-
    smoker(X),
    pressure(X,N1), N1 > 140.
ab1(X) :-
    blood_type(X,'O'),
    score(X,N1), N1 >= -2.25.
