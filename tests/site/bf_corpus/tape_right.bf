Walks off the right end marking every cell
+[>+]
