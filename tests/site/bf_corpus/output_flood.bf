Prints forever: the output cap stops it
+[.]
