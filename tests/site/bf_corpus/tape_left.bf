Walks off the left end at once
+<
