A multiply loop whose target is left of cell 0 faults in its first iteration
+++[<+>-]
