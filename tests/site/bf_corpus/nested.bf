Nested general loops with output inside (no folding of the outer ones)
++[>+++[>++[>+.<-]<-]<-]
>>>[-]<<<+++[>++[.>+<-]<-]>>.
