"""`arcade-eval serve`: the results site and live benchmark runs in the browser, on 127.0.0.1."""
