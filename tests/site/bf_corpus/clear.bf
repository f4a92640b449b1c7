Clear loops with steps of 1 and 3 and 5 (odd steps reach 0 from any value)
+++++++[-].
-[+].
++[---].
+++++++++++++[-----]++++.
