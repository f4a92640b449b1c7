A general loop (a clear inside) that never ends: only the instruction limit stops it
+[>[-]<]
