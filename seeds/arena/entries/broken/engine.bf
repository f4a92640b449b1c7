A broken engine: it prints a word instead of a move
++++++++[>++++++++<-]>+.+.+.
