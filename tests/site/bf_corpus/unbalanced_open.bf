An unmatched opening bracket on the second line
+[
[-]
