Comments with accents: café naïve ✓, then an unmatched
  [[ ] bracket