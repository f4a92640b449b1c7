first empty square engine: prints row space col newline of the first dot

cells: running  char  flag  row  col  tmp
+>>>--<<<[
read a byte and set the case flag
>,>+<[----------[------------------------------------[
occupied square: next column
[-]>>>+<<-<]>[
empty square: print row and col and stop
>++++++++++++++++++++++++++++++++++++++++++++++++.>>++++++++++++++++++++++++++++++++.[-]<++++++++++++++++++++++++++++++++++++++++++++++++.>++++++++++.<<<<<->>-]<]>[
newline: next row and back to column 0
>+>[-]<<-]<]>[<<->>-]<<]
