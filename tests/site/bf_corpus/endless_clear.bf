An even clear step on an odd value never reaches 0: it spins to the instruction limit
+++[--]
