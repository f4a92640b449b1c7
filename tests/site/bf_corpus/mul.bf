Multiply and copy loops with several targets negative offsets odd and even origin steps
>>>>+++++[>+++>+++++<<-]>.>.
<[>>+>+<<<-]>>.>.
+++++++[<<++>-->>+++<-]<.>.>.
>++++++[--<+>]<.
