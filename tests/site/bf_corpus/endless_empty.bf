An empty loop on a nonzero cell spins to the instruction limit
+[]
