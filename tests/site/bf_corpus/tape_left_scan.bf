Marks cells then scans left past cell 0
+>+>+>+[<]
