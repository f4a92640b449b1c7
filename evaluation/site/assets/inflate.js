/* A raw DEFLATE decoder (RFC 1951: stored, fixed and dynamic Huffman blocks), synchronous, so the
 * replay player (assets/replay.js) can unpack a page's replay before it draws the first frame. The
 * site writes the data with Python's zlib (evaluation/core/replay_compact.py); this reads it back.
 * window.ArcadeInflate.inflate(bytes, limit) -> Uint8Array; throws on data that is not DEFLATE or
 * that unpacks to more than `limit` bytes. window.ArcadeInflate.base64(text) -> Uint8Array.
 * Plain ES2019 script, no modules, no network. */
(function () {
  "use strict";

  var LENGTH_BITS = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  var LENGTH_BASE = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258
  ];
  var DIST_BITS = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
  ];
  var DIST_BASE = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
    3073, 4097, 6145, 8193, 12289, 16385, 24577
  ];
  var CODE_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

  /* A canonical Huffman code: how many codes of each length, and the symbols in code order. */
  function tree(lengths, offset, count) {
    var counts = new Uint16Array(16);
    var symbols = new Uint16Array(count);
    var starts = new Uint16Array(16);
    var i;
    for (i = 0; i < count; i += 1) {
      counts[lengths[offset + i]] += 1;
    }
    counts[0] = 0;
    for (i = 1; i < 16; i += 1) {
      starts[i] = starts[i - 1] + counts[i - 1];
    }
    for (i = 0; i < count; i += 1) {
      if (lengths[offset + i]) {
        symbols[starts[lengths[offset + i]]] = i;
        starts[lengths[offset + i]] += 1;
      }
    }
    return { counts: counts, symbols: symbols };
  }

  function fixedTrees() {
    var lengths = new Uint8Array(288 + 30);
    var i;
    for (i = 0; i < 144; i += 1) lengths[i] = 8;
    for (i = 144; i < 256; i += 1) lengths[i] = 9;
    for (i = 256; i < 280; i += 1) lengths[i] = 7;
    for (i = 280; i < 288; i += 1) lengths[i] = 8;
    for (i = 288; i < 318; i += 1) lengths[i] = 5;
    return { literals: tree(lengths, 0, 288), distances: tree(lengths, 288, 30) };
  }

  function inflate(source, limit) {
    var max = typeof limit === "number" ? limit : 64 * 1024 * 1024;
    var input = source;
    var pos = 0;
    var tag = 0;
    var bits = 0;
    var out = new Uint8Array(Math.min(Math.max(input.length * 8, 1024), max));
    var size = 0;
    var fixed = null;

    function fail(why) {
      throw new Error("replay data is not valid DEFLATE: " + why);
    }
    function bit() {
      if (bits === 0) {
        if (pos >= input.length) fail("it ends early");
        tag = input[pos];
        pos += 1;
        bits = 8;
      }
      var b = tag & 1;
      tag >>>= 1;
      bits -= 1;
      return b;
    }
    function read(count) {
      var value = 0;
      for (var i = 0; i < count; i += 1) value |= bit() << i;
      return value;
    }
    function symbol(t) {
      var sum = 0;
      var cur = 0;
      var len = 0;
      do {
        cur = 2 * cur + bit();
        len += 1;
        if (len > 15) fail("a code is too long");
        sum += t.counts[len];
        cur -= t.counts[len];
      } while (cur >= 0);
      return t.symbols[sum + cur];
    }
    function room(extra) {
      if (size + extra <= out.length) return;
      if (size + extra > max) fail("it unpacks to more than " + max + " bytes");
      var grown = new Uint8Array(Math.min(Math.max(out.length * 2, size + extra), max));
      grown.set(out.subarray(0, size));
      out = grown;
    }
    function stored() {
      bits = 0;
      if (pos + 4 > input.length) fail("a stored block ends early");
      var length = input[pos] | (input[pos + 1] << 8);
      var check = input[pos + 2] | (input[pos + 3] << 8);
      if ((length ^ 0xffff) !== check) fail("a stored block's length is damaged");
      pos += 4;
      if (pos + length > input.length) fail("a stored block ends early");
      room(length);
      out.set(input.subarray(pos, pos + length), size);
      size += length;
      pos += length;
    }
    function dynamicTrees() {
      var literalCount = read(5) + 257;
      var distanceCount = read(5) + 1;
      var codeCount = read(4) + 4;
      var lengths = new Uint8Array(288 + 32);
      var i;
      for (i = 0; i < codeCount; i += 1) lengths[CODE_ORDER[i]] = read(3);
      var codes = tree(lengths, 0, 19);
      lengths = new Uint8Array(literalCount + distanceCount);
      i = 0;
      while (i < literalCount + distanceCount) {
        var sym = symbol(codes);
        var repeat = 0;
        var value = 0;
        if (sym < 16) {
          lengths[i] = sym;
          i += 1;
          continue;
        }
        if (sym === 16) {
          if (i === 0) fail("a repeat with nothing before it");
          value = lengths[i - 1];
          repeat = 3 + read(2);
        } else if (sym === 17) {
          repeat = 3 + read(3);
        } else {
          repeat = 11 + read(7);
        }
        if (i + repeat > lengths.length) fail("too many code lengths");
        while (repeat > 0) {
          lengths[i] = value;
          i += 1;
          repeat -= 1;
        }
      }
      return {
        literals: tree(lengths, 0, literalCount),
        distances: tree(lengths, literalCount, distanceCount)
      };
    }
    function block(trees) {
      for (;;) {
        var sym = symbol(trees.literals);
        if (sym === 256) return;
        if (sym < 256) {
          room(1);
          out[size] = sym;
          size += 1;
          continue;
        }
        sym -= 257;
        if (sym >= 29) fail("a bad length code");
        var length = LENGTH_BASE[sym] + read(LENGTH_BITS[sym]);
        var code = symbol(trees.distances);
        if (code >= 30) fail("a bad distance code");
        var distance = DIST_BASE[code] + read(DIST_BITS[code]);
        if (distance > size) fail("a distance before the start");
        room(length);
        for (var k = 0; k < length; k += 1) {
          out[size] = out[size - distance];
          size += 1;
        }
      }
    }

    var last = 0;
    while (!last) {
      last = bit();
      var type = read(2);
      if (type === 0) {
        stored();
      } else if (type === 1) {
        fixed = fixed || fixedTrees();
        block(fixed);
      } else if (type === 2) {
        block(dynamicTrees());
      } else {
        fail("a reserved block type");
      }
    }
    return out.slice(0, size);
  }

  function base64(text) {
    var binary = atob(text);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  var api = { inflate: inflate, base64: base64 };
  if (typeof window !== "undefined") {
    window.ArcadeInflate = api;
  }
  if (typeof module !== "undefined" && module.exports) {
    module.exports = api; /* node, for tests/site/test_inflate_js.py */
  }
})();
