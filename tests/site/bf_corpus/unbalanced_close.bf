An unmatched closing bracket after a balanced loop
+[-]]
