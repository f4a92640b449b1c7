"""`prefetch_write(array, row, col)`: ask the CPU to bring `array[row, col]`'s cache line in for
writing, from inside a numba kernel (LLVM's `llvm.prefetch`; it never faults and changes nothing).

Why: a vector env's kernel that writes a few scattered cells of each game's large observation
row (Snake-v0 at 4,096 games: 2.9 KB a game, 12 MB a buffer, beyond the caches) waits on a
cache miss per cell, one game after another. Prefetching the cells of a game a few games ahead
overlaps those misses with the work on the current game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _prefetch_write(typingctx: Any, array: Any, row: Any, col: Any) -> Any:
    """Prefetch `array[row, col]` (2-D, in bounds) for writing, kept in every cache level."""
    sig = types.void(array, row, col)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(
            context, builder, array_type, data, [args[1], args[2]], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        prefetch = cgutils.get_or_insert_function(
            builder.module, function_type, "llvm.prefetch.p0i8"
        )
        # (address, 1 = for writing, 3 = keep in every cache level, 1 = data, not instructions)
        builder.call(prefetch, [builder.bitcast(pointer, byte_pointer), i32(1), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


prefetch_write = cast(Callable[[Any, int, int], None], _prefetch_write)
"""`prefetch_write(array, row, col)` in a numba kernel (the intrinsic, typed for its callers)."""
