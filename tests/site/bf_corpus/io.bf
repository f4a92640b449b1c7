Reads past EOF (0) and echoes bytes with arithmetic
,.,.,.,.,+.,[-]+.
