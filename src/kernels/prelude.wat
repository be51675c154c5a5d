;; The shared prelude of the kernels' module (assembled first by scripts/build-wasm.mjs): the
;; imports, the one memory, the globals of a query's selection, murmur3's fmix32, the bounded heap
;; of the k best (offer, siftDown, begin, drain, setup) and the two-pass selection's helpers
;; (summarize, countLE, boundary, selectByCount, distTail), used by knn.wat and symbols.wat.
;; Not a module alone: the build wraps every kernel source in one `(module ...)`.
;; JS twin: src/lsh/tieKey.ts (fmix32, queryKeyBase, the (distance, tie key) order) and the heap
;; of src/lsh/hammingKnn.ts; held equal through the kernels that use them (see knn.wat).

  ;; Math.exp and Math.log for the normals' rare slow path (the same doubles as src/random/ziggurat.ts)
  (import "math" "exp" (func $exp (param f64) (result f64)))
  (import "math" "log" (func $log (param f64) (result f64)))
  (memory (export "memory") 1)

  ;; selection state of the current query
  (global $k (mut i32) (i32.const 0))
  (global $size (mut i32) (i32.const 0))
  (global $bound (mut i32) (i32.const 0)) ;; worst kept distance once the heap is full, else bits
  (global $hk (mut i32) (i32.const 0))    ;; heap keys (i64)
  (global $hu (mut i32) (i32.const 0))    ;; heap users (i32)
  (global $base (mut i32) (i32.const 0))  ;; queryKeyBase(seed, q)
  (global $q (mut i32) (i32.const 0))
  (global $guess (mut i32) (i32.const 0)) ;; two-pass: the previous query's boundary distance
  (global $below (mut i32) (i32.const 0)) ;; two-pass: users strictly below the counted threshold
  (global $at (mut i32) (i32.const 0))    ;; rankCount: users at the target's distance

  ;; murmur3's 32-bit finalizer (fmix32 of tieKey.ts)
  (func $fmix32 (param $h i32) (result i32)
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  ;; puts (c, u) at the root of the heap of n entries and sifts it down
  (func $siftDown (param $c i64) (param $u i32) (param $n i32)
    (local $i i32) (local $ch i32) (local $kc i64) (local $k2 i64)
    (block $done
      (loop $down
        (local.set $ch (i32.add (i32.shl (local.get $i) (i32.const 1)) (i32.const 1)))
        (br_if $done (i32.ge_u (local.get $ch) (local.get $n)))
        (local.set $kc (i64.load (i32.add (global.get $hk) (i32.shl (local.get $ch) (i32.const 3)))))
        (if (i32.lt_u (i32.add (local.get $ch) (i32.const 1)) (local.get $n))
          (then
            (local.set $k2 (i64.load offset=8 (i32.add (global.get $hk) (i32.shl (local.get $ch) (i32.const 3)))))
            (if (i64.gt_u (local.get $k2) (local.get $kc))
              (then
                (local.set $ch (i32.add (local.get $ch) (i32.const 1)))
                (local.set $kc (local.get $k2))))))
        (br_if $done (i64.le_u (local.get $kc) (local.get $c)))
        (i64.store (i32.add (global.get $hk) (i32.shl (local.get $i) (i32.const 3))) (local.get $kc))
        (i32.store (i32.add (global.get $hu) (i32.shl (local.get $i) (i32.const 2)))
                   (i32.load (i32.add (global.get $hu) (i32.shl (local.get $ch) (i32.const 2)))))
        (local.set $i (local.get $ch))
        (br $down)))
    (i64.store (i32.add (global.get $hk) (i32.shl (local.get $i) (i32.const 3))) (local.get $c))
    (i32.store (i32.add (global.get $hu) (i32.shl (local.get $i) (i32.const 2))) (local.get $u)))

  ;; offers user u at distance d (returns at once when d > bound or u is the query)
  (func $offer (param $u i32) (param $d i32)
    (local $c i64) (local $i i32) (local $p i32) (local $kc i64) (local $h i32)
    (if (i32.gt_u (local.get $d) (global.get $bound)) (then (return)))
    (if (i32.eq (local.get $u) (global.get $q)) (then (return)))
    ;; $composite inlined (no call on this path): d << 32 | fmix32(base ^ (u + 1) * 0x85ebca77)
    (local.set $h (i32.xor (global.get $base) (i32.mul (i32.add (local.get $u) (i32.const 1)) (i32.const 0x85ebca77))))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $c (i64.or (i64.shl (i64.extend_i32_u (local.get $d)) (i64.const 32)) (i64.extend_i32_u (local.get $h))))
    (if (i32.lt_u (global.get $size) (global.get $k))
      (then
        (local.set $i (global.get $size))
        (global.set $size (i32.add (local.get $i) (i32.const 1)))
        (block $done
          (loop $up
            (br_if $done (i32.eqz (local.get $i)))
            (local.set $p (i32.shr_u (i32.sub (local.get $i) (i32.const 1)) (i32.const 1)))
            (local.set $kc (i64.load (i32.add (global.get $hk) (i32.shl (local.get $p) (i32.const 3)))))
            (br_if $done (i64.ge_u (local.get $kc) (local.get $c)))
            (i64.store (i32.add (global.get $hk) (i32.shl (local.get $i) (i32.const 3))) (local.get $kc))
            (i32.store (i32.add (global.get $hu) (i32.shl (local.get $i) (i32.const 2)))
                       (i32.load (i32.add (global.get $hu) (i32.shl (local.get $p) (i32.const 2)))))
            (local.set $i (local.get $p))
            (br $up)))
        (i64.store (i32.add (global.get $hk) (i32.shl (local.get $i) (i32.const 3))) (local.get $c))
        (i32.store (i32.add (global.get $hu) (i32.shl (local.get $i) (i32.const 2))) (local.get $u))
        (if (i32.eq (global.get $size) (global.get $k))
          (then (global.set $bound (i32.wrap_i64 (i64.shr_u (i64.load (global.get $hk)) (i64.const 32))))))
        (return)))
    (if (i64.ge_u (local.get $c) (i64.load (global.get $hk))) (then (return)))
    (call $siftDown (local.get $c) (local.get $u) (global.get $k))
    (global.set $bound (i32.wrap_i64 (i64.shr_u (i64.load (global.get $hk)) (i64.const 32)))))

  ;; starts query q: empty heap, bound = bits, the query's key base
  (func $begin (param $q i32) (param $seed i32) (param $bits i32)
    (global.set $q (local.get $q))
    (global.set $size (i32.const 0))
    (global.set $bound (local.get $bits))
    (global.set $base
      (call $fmix32 (i32.xor (local.get $seed)
                             (i32.mul (i32.add (local.get $q) (i32.const 1)) (i32.const 0x9e3779b1))))))

  ;; writes the heap's users best first to out[0..size) (empties the heap)
  (func $drain (param $out i32)
    (local $n i32)
    (local.set $n (global.get $size))
    (block $done
      (loop $pop
        (br_if $done (i32.eqz (local.get $n)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))) (i32.load (global.get $hu)))
        (call $siftDown
          (i64.load (i32.add (global.get $hk) (i32.shl (local.get $n) (i32.const 3))))
          (i32.load (i32.add (global.get $hu) (i32.shl (local.get $n) (i32.const 2))))
          (local.get $n))
        (br $pop)))
    (global.set $size (i32.const 0)))

  (func $setup (param $k i32) (param $heap i32)
    (global.set $k (local.get $k))
    (global.set $hk (local.get $heap))
    (global.set $hu (i32.add (local.get $heap) (i32.shl (local.get $k) (i32.const 3)))))

  ;; ---- Two-pass selection, for sets small enough that the heap's early replacements dominate ----
  ;; Pass 1 writes every user's distance as a byte (dist, padded with 255 to a multiple of 16);
  ;; pass 2 finds the boundary D (the smallest t with at least k + 1 users, the query included, at
  ;; distance <= t), starting from the previous query's D; pass 3 offers only the users within D.
  ;; The same answers as the one-pass scan (the k smallest composite keys either way).

;; Superblocks of 256 users: after pass 1, sum holds for each superblock the lane-wise minimum of
  ;; its 16 distance vectors, so a pass looking for distances <= t skips, with one compare, every
  ;; superblock without one (most of them: t is near the smallest distances). sum starts at dist
  ;; plus n16 rounded up to 256.
  (func $summarize (param $dist i32) (param $n16 i32)
    (local $p i32) (local $end i32) (local $sbEnd i32) (local $s i32) (local $mn v128)
    (local.set $p (local.get $dist))
    (local.set $end (i32.add (local.get $dist) (local.get $n16)))
    (local.set $s (i32.add (local.get $dist) (i32.and (i32.add (local.get $n16) (i32.const 255)) (i32.const -256))))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $sbEnd (i32.add (local.get $p) (i32.const 256)))
        (if (i32.gt_u (local.get $sbEnd) (local.get $end)) (then (local.set $sbEnd (local.get $end))))
        (local.set $mn (v128.const i32x4 -1 -1 -1 -1))
        (loop $vec
          (local.set $mn (i8x16.min_u (local.get $mn) (v128.load (local.get $p))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br_if $vec (i32.lt_u (local.get $p) (local.get $sbEnd))))
        (v128.store (local.get $s) (local.get $mn))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $blocks))))

  ;; users at distance <= t, and (into the global $below) at distance < t, in one pass over the
  ;; superblocks holding a distance <= t (dist padded to n16 bytes, a multiple of 16)
  (func $countLE (param $dist i32) (param $n16 i32) (param $t i32) (result i32)
    (local $p i32) (local $q i32) (local $end i32) (local $sbEnd i32) (local $s i32)
    (local $acc v128) (local $lt v128) (local $tv v128) (local $v v128) (local $total v128) (local $less v128)
    (local.set $tv (i8x16.splat (local.get $t)))
    (local.set $p (local.get $dist))
    (local.set $end (i32.add (local.get $dist) (local.get $n16)))
    (local.set $s (i32.add (local.get $dist) (i32.and (i32.add (local.get $n16) (i32.const 255)) (i32.const -256))))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $sbEnd (i32.add (local.get $p) (i32.const 256)))
        (if (i32.gt_u (local.get $sbEnd) (local.get $end)) (then (local.set $sbEnd (local.get $end))))
        (if (v128.any_true (i8x16.le_u (v128.load (local.get $s)) (local.get $tv)))
          (then
            ;; at most 16 vectors: the byte counters cannot wrap
            (local.set $acc (v128.const i32x4 0 0 0 0))
            (local.set $lt (v128.const i32x4 0 0 0 0))
            (local.set $q (local.get $p))
            (loop $vec
              (local.set $v (v128.load (local.get $q)))
              (local.set $acc (i8x16.sub (local.get $acc) (i8x16.le_u (local.get $v) (local.get $tv))))
              (local.set $lt (i8x16.sub (local.get $lt) (i8x16.lt_u (local.get $v) (local.get $tv))))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br_if $vec (i32.lt_u (local.get $q) (local.get $sbEnd))))
            (local.set $total (i32x4.add (local.get $total)
              (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $acc)))))
            (local.set $less (i32x4.add (local.get $less)
              (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $lt)))))))
        (local.set $p (local.get $sbEnd))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $blocks)))
    (global.set $below (call $sumLanes (local.get $less)))
    (call $sumLanes (local.get $total)))

  ;; the sum of the 4 i32 lanes of v
  (func $sumLanes (param $v v128) (result i32)
    (i32.add (i32.add (i32x4.extract_lane 0 (local.get $v)) (i32x4.extract_lane 1 (local.get $v)))
             (i32.add (i32x4.extract_lane 2 (local.get $v)) (i32x4.extract_lane 3 (local.get $v)))))

  ;; the boundary distance t of a query whose distances are in dist: more than k users at <= t, at
  ;; most k (the global $below) at < t; starts from the global $guess (the previous query's) and
  ;; leaves t there. Each counting pass gives count(<= t) and count(< t): a right guess costs one pass.
  (func $boundary (param $dist i32) (param $n16 i32) (param $bits i32) (result i32)
    (local $t i32)
    (local.set $t (global.get $guess))
    (if (i32.gt_u (local.get $t) (local.get $bits)) (then (local.set $t (local.get $bits))))
    (if (i32.gt_u (call $countLE (local.get $dist) (local.get $n16) (local.get $t)) (global.get $k))
      (then
        ;; D <= t: lower t while more than k users lie strictly below it
        (block $down
          (loop $lower
            (br_if $down (i32.le_u (global.get $below) (global.get $k)))
            (local.set $t (i32.sub (local.get $t) (i32.const 1)))
            (drop (call $countLE (local.get $dist) (local.get $n16) (local.get $t)))
            (br $lower))))
      (else
        (loop $raise
          (local.set $t (i32.add (local.get $t) (i32.const 1)))
          (br_if $raise (i32.le_u (call $countLE (local.get $dist) (local.get $n16) (local.get $t)) (global.get $k))))))
    (global.set $guess (local.get $t))
    (local.get $t))

  ;; passes 2 and 3 for one query whose distances are in dist: every user at or below the boundary
  ;; offered to the heap of k.
  (func $selectByCount (param $dist i32) (param $users i32) (param $bits i32)
    (local $n16 i32) (local $t i32) (local $p i32) (local $end i32) (local $m i32) (local $u i32) (local $dv v128)
    (local $q i32) (local $s i32) (local $sbEnd i32)
    (local.set $n16 (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
    (local.set $t (call $boundary (local.get $dist) (local.get $n16) (local.get $bits)))
    (global.set $bound (local.get $t))
    (local.set $dv (i8x16.splat (local.get $t)))
    (local.set $p (local.get $dist))
    (local.set $end (i32.add (local.get $dist) (local.get $n16)))
    (local.set $s (i32.add (local.get $dist) (i32.and (i32.add (local.get $n16) (i32.const 255)) (i32.const -256))))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $sbEnd (i32.add (local.get $p) (i32.const 256)))
        (if (i32.gt_u (local.get $sbEnd) (local.get $end)) (then (local.set $sbEnd (local.get $end))))
        (if (v128.any_true (i8x16.le_u (v128.load (local.get $s)) (local.get $dv)))
          (then
            (local.set $q (local.get $p))
            (loop $vec
              (local.set $m (i8x16.bitmask (i8x16.le_u (v128.load (local.get $q)) (local.get $dv))))
              (if (local.get $m)
                (then
                  (loop $each
                    (local.set $u (i32.add (i32.sub (local.get $q) (local.get $dist)) (i32.ctz (local.get $m))))
                    (call $offer (local.get $u) (i32.load8_u (i32.add (local.get $dist) (local.get $u))))
                    (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
                    (br_if $each (local.get $m)))))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br_if $vec (i32.lt_u (local.get $q) (local.get $sbEnd))))))
        (local.set $p (local.get $sbEnd))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $blocks))))

  ;; pads dist[users .. users rounded up to 16) with 255 (never within a bound); from is where the
  ;; scalar tail starts (the pad is written first, the tail then overwrites its own bytes)
  (func $distTail (param $from i32) (param $users i32) (param $dist i32)
    (local $u i32) (local $end i32)
    (local.set $u (local.get $users))
    (local.set $end (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
    (block $done
      (loop $pad
        (br_if $done (i32.ge_u (local.get $u) (local.get $end)))
        (i32.store8 (i32.add (local.get $dist) (local.get $u)) (i32.const 255))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $pad))))
