Only comments and commands hidden in prose: a+b>c costs 3 commands, words cost nothing.
Read, then print. Repeat [until] done.
