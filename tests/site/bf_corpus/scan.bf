Scan loops over a run of nonzero cells both strides and directions
>+>+>+>+>+>>+[<]>.
+[>>]<<.
>>>>>>>>>>+<<[<<<]+.
