"""Snake: NARCADE rules 0.4.0 (easy 8x8, medium 12x12, hard 16x16) over one numba engine."""
