;; Hamming k-NN kernel (scan path) for codes of at most 64 bits, and the projections of users on
;; the hyperplanes (`project`, bit-identical to the JS loop).
;; The k-NN kernel, with the tie-breaking of
;; src/lsh/tieKey.ts: per query, the k users (query excluded) with the smallest
;; (distance, fmix32(base ^ (u + 1) * 0x85ebca77)), best first. Built by scripts/build-wasm.mjs
;; into src/kernels/binary.ts; driven by src/kernels/kernel.ts.
;;
;; A bounded max-heap holds the k best composite keys (distance << 32 | tie key, unsigned) and
;; their users. Users farther than the heap's worst distance (`bound`) cost a popcount and a
;; compare; only users within it are keyed and offered. The scans check a group of users at once
;; (8 per iteration) and fall to the per-user `offer` only when one of them is within the bound.
;;
;; Memory is laid out by the caller: codes (u32 per user for <= 32 bits, u64 for <= 64 bits, the
;; CodeSet words as they are), queries (i32), out (i32, queries x k), heap (k x i64 then k x i32).
(module
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

  ;; distances of the 4 u32 codes at p from the query's code splatted in qv (slow path only)
  (func $dist4 (param $p i32) (param $qv v128) (result v128)
    (i32x4.dot_i16x8_s
      (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qv))))
      (v128.const i16x8 1 1 1 1 1 1 1 1)))

  ;; Codes of <= 32 bits (one u32 per user), SIMD: 16 users per iteration, 4 per v128; distances by
  ;; i8x16.popcnt, pairwise byte sums and a dot product with ones; one compare of their minimum
  ;; with the bound per 16 users.
  (func (export "knn32") (param $codes i32) (param $users i32) (param $queries i32) (param $nq i32)
                         (param $k i32) (param $seed i32) (param $bits i32) (param $out i32) (param $heap i32)
    (local $qi i32) (local $q i32) (local $cq i32) (local $qv v128) (local $bv v128) (local $ones v128)
    (local $p i32) (local $end i32) (local $u i32) (local $d i32) (local $m i32)
    (call $setup (local.get $k) (local.get $heap))
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -16)) (i32.const 2))))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (call $begin (local.get $q) (local.get $seed) (local.get $bits))
        (local.set $cq (i32.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $qv (i32x4.splat (local.get $cq)))
        (local.set $bv (i32x4.splat (i32.add (global.get $bound) (i32.const 1))))
        (local.set $p (local.get $codes))
        ;; the fast loop has no call: it stops at the first group of 16 with a user within the bound
        ;; (then the group is offered user by user, with scalar distances) and resumes after it
        (block $sdone
          (loop $groups
            (block $found
              (loop $scan
                (br_if $sdone (i32.ge_u (local.get $p) (local.get $end)))
                ;; distances of 16 users; their minimum against the bound
                (br_if $found (v128.any_true (i32x4.lt_s
                  (i32x4.min_u
                    (i32x4.min_u
                      (i32x4.dot_i16x8_s
                        (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qv))))
                        (local.get $ones))
                      (i32x4.dot_i16x8_s
                        (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qv))))
                        (local.get $ones)))
                    (i32x4.min_u
                      (i32x4.dot_i16x8_s
                        (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=32 (local.get $p)) (local.get $qv))))
                        (local.get $ones))
                      (i32x4.dot_i16x8_s
                        (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=48 (local.get $p)) (local.get $qv))))
                        (local.get $ones))))
                  (local.get $bv))))
                (local.set $p (i32.add (local.get $p) (i32.const 64)))
                (br $scan)))
            ;; which of the 16 users are within the bound: a 16-bit mask, offered lowest first
            (local.set $u (i32.shr_u (i32.sub (local.get $p) (local.get $codes)) (i32.const 2)))
            (local.set $m (i32.or
              (i32.or
                (i32x4.bitmask (i32x4.lt_s (call $dist4 (local.get $p) (local.get $qv)) (local.get $bv)))
                (i32.shl (i32x4.bitmask (i32x4.lt_s (call $dist4 (i32.add (local.get $p) (i32.const 16)) (local.get $qv)) (local.get $bv))) (i32.const 4)))
              (i32.or
                (i32.shl (i32x4.bitmask (i32x4.lt_s (call $dist4 (i32.add (local.get $p) (i32.const 32)) (local.get $qv)) (local.get $bv))) (i32.const 8))
                (i32.shl (i32x4.bitmask (i32x4.lt_s (call $dist4 (i32.add (local.get $p) (i32.const 48)) (local.get $qv)) (local.get $bv))) (i32.const 12)))))
            (loop $each
              (local.set $d (i32.add (local.get $u) (i32.ctz (local.get $m))))
              (call $offer (local.get $d)
                (i32.popcnt (i32.xor (local.get $cq) (i32.load (i32.add (local.get $codes) (i32.shl (local.get $d) (i32.const 2)))))))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $each (local.get $m)))
            (local.set $bv (i32x4.splat (i32.add (global.get $bound) (i32.const 1))))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (br $groups)))
        ;; the last users % 16
        (local.set $u (i32.and (local.get $users) (i32.const -16)))
        (block $tdone
          (loop $tail
            (br_if $tdone (i32.ge_u (local.get $u) (local.get $users)))
            (call $offer (local.get $u)
              (i32.popcnt (i32.xor (local.get $cq) (i32.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 2)))))))
            (local.set $u (i32.add (local.get $u) (i32.const 1)))
            (br $tail)))
        (call $drain (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2))))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop))))

  ;; Codes of 33..64 bits (one u64 per user), scalar i64.popcnt unrolled by 4, one compare per user.
  (func (export "knn64") (param $codes i32) (param $users i32) (param $queries i32) (param $nq i32)
                         (param $k i32) (param $seed i32) (param $bits i32) (param $out i32) (param $heap i32)
    (local $qi i32) (local $q i32) (local $cq i64) (local $b i64)
    (local $p i32) (local $end i32) (local $u i32) (local $end4 i32) (local $d0 i64)
    (call $setup (local.get $k) (local.get $heap))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -4)) (i32.const 3))))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (call $begin (local.get $q) (local.get $seed) (local.get $bits))
        (local.set $cq (i64.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 3)))))
        (local.set $b (i64.extend_i32_u (global.get $bound)))
        (local.set $p (local.get $codes))
        ;; as in knn32: a call-free fast loop, left at the first group of 4 with a user within the bound
        (block $sdone
          (loop $groups
            (block $found
              (loop $scan
                (br_if $sdone (i32.ge_u (local.get $p) (local.get $end)))
                (br_if $found (i64.le_u (i64.popcnt (i64.xor (i64.load (local.get $p)) (local.get $cq))) (local.get $b)))
                (br_if $found (i64.le_u (i64.popcnt (i64.xor (i64.load offset=8 (local.get $p)) (local.get $cq))) (local.get $b)))
                (br_if $found (i64.le_u (i64.popcnt (i64.xor (i64.load offset=16 (local.get $p)) (local.get $cq))) (local.get $b)))
                (br_if $found (i64.le_u (i64.popcnt (i64.xor (i64.load offset=24 (local.get $p)) (local.get $cq))) (local.get $b)))
                (local.set $p (i32.add (local.get $p) (i32.const 32)))
                (br $scan)))
            (local.set $u (i32.shr_u (i32.sub (local.get $p) (local.get $codes)) (i32.const 3)))
            (local.set $end4 (i32.add (local.get $u) (i32.const 4)))
            (loop $each
              (local.set $d0 (i64.popcnt (i64.xor (local.get $cq) (i64.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 3)))))))
              (if (i64.le_u (local.get $d0) (local.get $b))
                (then
                  (call $offer (local.get $u) (i32.wrap_i64 (local.get $d0)))
                  (local.set $b (i64.extend_i32_u (global.get $bound)))))
              (local.set $u (i32.add (local.get $u) (i32.const 1)))
              (br_if $each (i32.lt_u (local.get $u) (local.get $end4))))
            (local.set $b (i64.extend_i32_u (global.get $bound)))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (br $groups)))
        (local.set $u (i32.and (local.get $users) (i32.const -4)))
        (block $tdone
          (loop $tail
            (br_if $tdone (i32.ge_u (local.get $u) (local.get $users)))
            (call $offer (local.get $u)
              (i32.wrap_i64 (i64.popcnt (i64.xor (local.get $cq) (i64.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 3))))))))
            (local.set $u (i32.add (local.get $u) (i32.const 1)))
            (br $tail)))
        (call $drain (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2))))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop))))

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

  ;; the distance bytes of every user from code cq (<= 32 bits, SIMD, 16 users per store)
  (func $dist32 (param $codes i32) (param $users i32) (param $cq i32) (param $dist i32)
    (local $p i32) (local $end i32) (local $o i32) (local $u i32) (local $qv v128) (local $ones v128)
    (local.set $qv (i32x4.splat (local.get $cq)))
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    (local.set $p (local.get $codes))
    (local.set $o (local.get $dist))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -16)) (i32.const 2))))
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (v128.store (local.get $o)
          (i8x16.narrow_i16x8_u
            (i16x8.narrow_i32x4_u
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qv)))) (local.get $ones))
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qv)))) (local.get $ones)))
            (i16x8.narrow_i32x4_u
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=32 (local.get $p)) (local.get $qv)))) (local.get $ones))
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=48 (local.get $p)) (local.get $qv)))) (local.get $ones)))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (local.set $o (i32.add (local.get $o) (i32.const 16)))
        (br $scan)))
    (local.set $u (i32.and (local.get $users) (i32.const -16)))
    (call $distTail (local.get $u) (local.get $users) (local.get $dist))
    (block $tdone
      (loop $tail
        (br_if $tdone (i32.ge_u (local.get $u) (local.get $users)))
        (i32.store8 (i32.add (local.get $dist) (local.get $u))
          (i32.popcnt (i32.xor (local.get $cq) (i32.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 2)))))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $tail))))

  ;; the distance bytes of every user from code cq (33..64 bits, i64.popcnt unrolled by 4)
  (func $dist64 (param $codes i32) (param $users i32) (param $cq i64) (param $dist i32)
    (local $p i32) (local $end i32) (local $o i32) (local $u i32)
    (local.set $p (local.get $codes))
    (local.set $o (local.get $dist))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -4)) (i32.const 3))))
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (i64.store8 (local.get $o) (i64.popcnt (i64.xor (i64.load (local.get $p)) (local.get $cq))))
        (i64.store8 offset=1 (local.get $o) (i64.popcnt (i64.xor (i64.load offset=8 (local.get $p)) (local.get $cq))))
        (i64.store8 offset=2 (local.get $o) (i64.popcnt (i64.xor (i64.load offset=16 (local.get $p)) (local.get $cq))))
        (i64.store8 offset=3 (local.get $o) (i64.popcnt (i64.xor (i64.load offset=24 (local.get $p)) (local.get $cq))))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (local.set $o (i32.add (local.get $o) (i32.const 4)))
        (br $scan)))
    (local.set $u (i32.and (local.get $users) (i32.const -4)))
    (call $distTail (local.get $u) (local.get $users) (local.get $dist))
    (block $tdone
      (loop $tail
        (br_if $tdone (i32.ge_u (local.get $u) (local.get $users)))
        (i64.store8 (i32.add (local.get $dist) (local.get $u))
          (i64.popcnt (i64.xor (local.get $cq) (i64.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 3)))))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $tail))))

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

  ;; two-pass k-NN; wide = 0 for u32 codes (<= 32 bits), 1 for u64 codes (33..64 bits)
  (func (export "knnCount") (param $codes i32) (param $users i32) (param $queries i32) (param $nq i32)
                            (param $k i32) (param $seed i32) (param $bits i32) (param $out i32) (param $heap i32)
                            (param $dist i32) (param $wide i32)
    (local $qi i32) (local $q i32)
    (call $setup (local.get $k) (local.get $heap))
    (global.set $guess (i32.shr_u (local.get $bits) (i32.const 2)))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (call $begin (local.get $q) (local.get $seed) (local.get $bits))
        (if (local.get $wide)
          (then (call $dist64 (local.get $codes) (local.get $users)
                  (i64.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 3)))) (local.get $dist)))
          (else (call $dist32 (local.get $codes) (local.get $users)
                  (i32.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 2)))) (local.get $dist))))
        (call $summarize (local.get $dist) (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
        (call $selectByCount (local.get $dist) (local.get $users) (local.get $bits))
        (call $drain (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2))))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop))))

  ;; The k nearest as a set, in no order (attribute inference counts votes, so the order is not
  ;; needed): the users strictly below the boundary t go straight to out; those at t are listed in
  ;; `tied`, their tie keys computed four at a time, and the k - below with the smallest keys join
  ;; them (a short sorted list; a later user never displaces an equal key, as in the heap), so the
  ;; users are those of the heap of k: (distance, key, earlier user) order.
  (func $selectSet (param $dist i32) (param $users i32) (param $bits i32) (param $out i32) (param $tied i32)
    (local $n16 i32) (local $t i32) (local $p i32) (local $end i32) (local $m i32) (local $u i32) (local $dv v128)
    (local $q i32) (local $s i32) (local $sbEnd i32) (local $need i32) (local $w i32) (local $e i32) (local $j i32)
    (local $h v128) (local $atT i32)
    (local.set $n16 (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
    (local.set $t (call $boundary (local.get $dist) (local.get $n16) (local.get $bits)))
    (local.set $need (i32.sub (global.get $k) (global.get $below)))
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
              ;; the users below t to out, those at t to the tied list: one loop over each mask's bits
              (local.set $h (v128.load (local.get $q)))
              (local.set $m (i8x16.bitmask (i8x16.lt_u (local.get $h) (local.get $dv))))
              (local.set $atT (i8x16.bitmask (i8x16.eq (local.get $h) (local.get $dv))))
              (local.set $u (i32.sub (local.get $q) (local.get $dist)))
              (if (local.get $m)
                (then
                  (loop $each
                    (i32.store (i32.add (local.get $out) (i32.shl (local.get $w) (i32.const 2))) (i32.add (local.get $u) (i32.ctz (local.get $m))))
                    (local.set $w (i32.add (local.get $w) (i32.const 1)))
                    (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
                    (br_if $each (local.get $m)))))
              (if (local.get $atT)
                (then
                  (loop $eachTied
                    (i32.store (i32.add (local.get $tied) (i32.shl (local.get $e) (i32.const 2))) (i32.add (local.get $u) (i32.ctz (local.get $atT))))
                    (local.set $e (i32.add (local.get $e) (i32.const 1)))
                    (local.set $atT (i32.and (local.get $atT) (i32.sub (local.get $atT) (i32.const 1))))
                    (br_if $eachTied (local.get $atT)))))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br_if $vec (i32.lt_u (local.get $q) (local.get $sbEnd))))))
        (local.set $p (local.get $sbEnd))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $blocks)))
    (if (i32.eqz (local.get $need)) (then (return)))
    ;; the tied users' keys, fmix32(base ^ (u + 1) · 0x85ebca77), four a vector, after the users
    ;; (the list is padded to a multiple of 4: selectByMinima sets the pad's keys to 0xFFFFFFFF)
    (local.set $j (i32.const 0))
    (block $kdone
      (loop $keys
        (br_if $kdone (i32.ge_u (local.get $j) (local.get $e)))
        (local.set $h (v128.xor (i32x4.splat (global.get $base))
          (i32x4.mul (i32x4.add (v128.load (i32.add (local.get $tied) (i32.shl (local.get $j) (i32.const 2)))) (i32x4.splat (i32.const 1)))
                     (i32x4.splat (i32.const 0x85ebca77)))))
        (local.set $h (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 16))))
        (local.set $h (i32x4.mul (local.get $h) (i32x4.splat (i32.const 0x85ebca6b))))
        (local.set $h (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 13))))
        (local.set $h (i32x4.mul (local.get $h) (i32x4.splat (i32.const 0xc2b2ae35))))
        (local.set $h (v128.xor (local.get $h) (i32x4.shr_u (local.get $h) (i32.const 16))))
        (v128.store (i32.add (local.get $tied) (i32.shl (i32.add (local.get $users) (local.get $j)) (i32.const 2))) (local.get $h))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $keys)))
    ;; the need smallest keys, smallest first, by passes of SIMD minima over the keys (padded to a
    ;; multiple of 4 with 0xFFFFFFFF), each taking its key out: no branch on the keys' order, which
    ;; is a coin flip to the processor. A taken key or a pad (0xFFFFFFFF) is never the minimum: a
    ;; query's keys are distinct (tieKey.ts: a bijection of the user), and need < e (the boundary
    ;; leaves ties only where more than k users are within it), so every round has at least two
    ;; keys left, at most one of them 0xFFFFFFFF.
    (call $selectByMinima (i32.add (local.get $tied) (i32.shl (local.get $users) (i32.const 2))) (local.get $tied) (local.get $e) (local.get $need)
      (i32.add (local.get $out) (i32.shl (local.get $w) (i32.const 2)))))

  ;; the need smallest of the e distinct keys at $keys (users at $ids; need < e), smallest first,
  ;; into out. The keys are consumed.
  (func $selectByMinima (param $keys i32) (param $ids i32) (param $e i32) (param $need i32) (param $out i32)
    (local $e4 i32) (local $j i32) (local $r i32) (local $best i32) (local $mn v128) (local $bv v128) (local $m i32)
    (local.set $e4 (i32.and (i32.add (local.get $e) (i32.const 3)) (i32.const -4)))
    (local.set $j (local.get $e))
    (block $pdone
      (loop $pad
        (br_if $pdone (i32.ge_u (local.get $j) (local.get $e4)))
        (i32.store (i32.add (local.get $keys) (i32.shl (local.get $j) (i32.const 2))) (i32.const -1))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $pad)))
    (block $rdone
      (loop $round
        (br_if $rdone (i32.ge_u (local.get $r) (local.get $need)))
        (local.set $mn (v128.const i32x4 -1 -1 -1 -1))
        (local.set $j (i32.const 0))
        (loop $min
          (local.set $mn (i32x4.min_u (local.get $mn) (v128.load (i32.add (local.get $keys) (i32.shl (local.get $j) (i32.const 2))))))
          (local.set $j (i32.add (local.get $j) (i32.const 4)))
          (br_if $min (i32.lt_u (local.get $j) (local.get $e4))))
        (local.set $mn (i32x4.min_u (local.get $mn) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mn) (local.get $mn))))
        (local.set $mn (i32x4.min_u (local.get $mn) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $mn) (local.get $mn))))
        (local.set $best (i32x4.extract_lane 0 (local.get $mn)))
        (local.set $bv (i32x4.splat (local.get $best)))
        (local.set $j (i32.const 0))
        (block $found
          (loop $find
            (local.set $m (i32x4.bitmask (i32x4.eq (v128.load (i32.add (local.get $keys) (i32.shl (local.get $j) (i32.const 2)))) (local.get $bv))))
            (br_if $found (local.get $m))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $find)))
        (local.set $j (i32.add (local.get $j) (i32.ctz (local.get $m))))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (i32.load (i32.add (local.get $ids) (i32.shl (local.get $j) (i32.const 2)))))
        (i32.store (i32.add (local.get $keys) (i32.shl (local.get $j) (i32.const 2))) (i32.const -1))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $round))))

  ;; knnCount's search, each query's k nearest as a set in no order (selectSet; `tied`: scratch of 2 · users + 4 u32).
  ;; The queries must lie outside the scanned users (wasmNearestOf appends them after the candidates):
  ;; unlike $offer, selectSet does not skip the query, which would be its own nearest.
  (func (export "knnSet") (param $codes i32) (param $users i32) (param $queries i32) (param $nq i32)
                          (param $k i32) (param $seed i32) (param $bits i32) (param $out i32) (param $heap i32)
                          (param $dist i32) (param $wide i32) (param $tied i32)
    (local $qi i32) (local $q i32)
    (call $setup (local.get $k) (local.get $heap))
    (global.set $guess (i32.shr_u (local.get $bits) (i32.const 2)))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (call $begin (local.get $q) (local.get $seed) (local.get $bits))
        (if (local.get $wide)
          (then (call $dist64 (local.get $codes) (local.get $users)
                  (i64.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 3)))) (local.get $dist)))
          (else (call $dist32 (local.get $codes) (local.get $users)
                  (i32.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 2)))) (local.get $dist))))
        (call $summarize (local.get $dist) (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
        (call $selectSet (local.get $dist) (local.get $users) (local.get $bits)
          (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2))) (local.get $tied))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop))))

  ;; The linkage attack's counts (src/experiment/attack.ts attackMeans): for probe i (a u32 code, or
  ;; a u64 one when wide), d0 = its distance to user targets[i]'s code, a = users strictly closer
  ;; than d0 and t = users at d0 (the target included); out[2i] = a, out[2i+1] = t. One pass per
  ;; probe computes and compares the distances without storing them, and stops once a >= $stop
  ;; (checked every 64 users): from there the reid values are 0 whatever a and t are, and a noisy
  ;; release settles most targets within its first few blocks.
  (func (export "rankCount") (param $codes i32) (param $users i32) (param $probes i32) (param $targets i32)
                             (param $np i32) (param $stop i32) (param $wide i32) (param $out i32)
    (local $i i32) (local $target i32) (local $o i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $np)))
        (local.set $target (i32.load (i32.add (local.get $targets) (i32.shl (local.get $i) (i32.const 2)))))
        (if (local.get $wide)
          (then (call $rank64 (local.get $codes) (local.get $users)
                  (i64.load (i32.add (local.get $probes) (i32.shl (local.get $i) (i32.const 3)))) (local.get $target) (local.get $stop)))
          (else (call $rank32 (local.get $codes) (local.get $users)
                  (i32.load (i32.add (local.get $probes) (i32.shl (local.get $i) (i32.const 2)))) (local.get $target) (local.get $stop))))
        (local.set $o (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 3))))
        (i32.store (local.get $o) (global.get $below))
        (i32.store offset=4 (local.get $o) (global.get $at))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))

  ;; rankCount for one u32 probe cq: a into $below, t into $at. 16 users per vector as in $dist32,
  ;; compared with d0 in the lanes; byte counters over at most 4 vectors per block cannot wrap.
  (func $rank32 (param $codes i32) (param $users i32) (param $cq i32) (param $target i32) (param $stop i32)
    (local $p i32) (local $end i32) (local $blockEnd i32) (local $u i32) (local $d0 i32) (local $d i32)
    (local $a i32) (local $t i32) (local $qv v128) (local $ones v128) (local $dv v128) (local $v v128)
    (local $lt v128) (local $eq v128)
    (local.set $d0 (i32.popcnt (i32.xor (local.get $cq)
      (i32.load (i32.add (local.get $codes) (i32.shl (local.get $target) (i32.const 2)))))))
    (local.set $qv (i32x4.splat (local.get $cq)))
    (local.set $dv (i8x16.splat (local.get $d0)))
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    (local.set $p (local.get $codes))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -16)) (i32.const 2))))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $blockEnd (i32.add (local.get $p) (i32.const 256)))
        (if (i32.gt_u (local.get $blockEnd) (local.get $end)) (then (local.set $blockEnd (local.get $end))))
        (local.set $lt (v128.const i32x4 0 0 0 0))
        (local.set $eq (v128.const i32x4 0 0 0 0))
        (loop $vec
          (local.set $v
            (i8x16.narrow_i16x8_u
              (i16x8.narrow_i32x4_u
                (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qv)))) (local.get $ones))
                (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qv)))) (local.get $ones)))
              (i16x8.narrow_i32x4_u
                (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=32 (local.get $p)) (local.get $qv)))) (local.get $ones))
                (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=48 (local.get $p)) (local.get $qv)))) (local.get $ones)))))
          (local.set $lt (i8x16.sub (local.get $lt) (i8x16.lt_u (local.get $v) (local.get $dv))))
          (local.set $eq (i8x16.sub (local.get $eq) (i8x16.eq (local.get $v) (local.get $dv))))
          (local.set $p (i32.add (local.get $p) (i32.const 64)))
          (br_if $vec (i32.lt_u (local.get $p) (local.get $blockEnd))))
        (local.set $a (i32.add (local.get $a)
          (call $sumLanes (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $lt))))))
        (local.set $t (i32.add (local.get $t)
          (call $sumLanes (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $eq))))))
        (br_if $done (i32.ge_u (local.get $a) (local.get $stop)))
        (br $blocks)))
    ;; the users after the last multiple of 16 (not needed once a reached $stop)
    (if (i32.lt_u (local.get $a) (local.get $stop))
      (then
        (local.set $u (i32.and (local.get $users) (i32.const -16)))
        (block $tdone
          (loop $tail
            (br_if $tdone (i32.ge_u (local.get $u) (local.get $users)))
            (local.set $d (i32.popcnt (i32.xor (local.get $cq)
              (i32.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 2)))))))
            (local.set $a (i32.add (local.get $a) (i32.lt_u (local.get $d) (local.get $d0))))
            (local.set $t (i32.add (local.get $t) (i32.eq (local.get $d) (local.get $d0))))
            (local.set $u (i32.add (local.get $u) (i32.const 1)))
            (br $tail)))))
    (global.set $below (local.get $a))
    (global.set $at (local.get $t)))

  ;; rankCount for one u64 probe cq (33..64 bits): a into $below, t into $at, i64.popcnt per user
  ;; as in $dist64, a checked against $stop every 64 users
  (func $rank64 (param $codes i32) (param $users i32) (param $cq i64) (param $target i32) (param $stop i32)
    (local $p i32) (local $end i32) (local $blockEnd i32) (local $d0 i64) (local $d i64) (local $a i32) (local $t i32)
    (local.set $d0 (i64.popcnt (i64.xor (local.get $cq)
      (i64.load (i32.add (local.get $codes) (i32.shl (local.get $target) (i32.const 3)))))))
    (local.set $p (local.get $codes))
    (local.set $end (i32.add (local.get $codes) (i32.shl (local.get $users) (i32.const 3))))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $blockEnd (i32.add (local.get $p) (i32.const 512)))
        (if (i32.gt_u (local.get $blockEnd) (local.get $end)) (then (local.set $blockEnd (local.get $end))))
        (loop $user
          (local.set $d (i64.popcnt (i64.xor (i64.load (local.get $p)) (local.get $cq))))
          (local.set $a (i32.add (local.get $a) (i64.lt_u (local.get $d) (local.get $d0))))
          (local.set $t (i32.add (local.get $t) (i64.eq (local.get $d) (local.get $d0))))
          (local.set $p (i32.add (local.get $p) (i32.const 8)))
          (br_if $user (i32.lt_u (local.get $p) (local.get $blockEnd))))
        (br_if $done (i32.ge_u (local.get $a) (local.get $stop)))
        (br $blocks)))
    (global.set $below (local.get $a))
    (global.set $at (local.get $t)))

  ;; Projections r_j . x_i (src/lsh/hyperplanes.ts projectAll) for a chunk of users, two columns
  ;; per f64x2: out[i][j] = ((0 + cols[c1][j] * v1) + cols[c2][j] * v2) + ... over the row's stored
  ;; entries in order, a multiply then an add per term as in the JS loop (no fused multiply-add), so
  ;; the doubles are identical. rowPtr holds users + 1 offsets into colIdx (i32) and values (f64);
  ;; cols is the n x kappa transposed plane matrix; out is users x kappa.
  (func (export "project") (param $rowPtr i32) (param $colIdx i32) (param $values i32) (param $users i32)
                           (param $cols i32) (param $kappa i32) (param $out i32)
    (local $i i32) (local $p i32) (local $pend i32) (local $o i32) (local $c i32) (local $j i32)
    (local $rowBytes i32) (local $pairBytes i32) (local $x f64) (local $v v128)
    (local.set $rowBytes (i32.shl (local.get $kappa) (i32.const 3)))
    (local.set $pairBytes (i32.shl (i32.and (local.get $kappa) (i32.const -2)) (i32.const 3)))
    (block $udone
      (loop $user
        (br_if $udone (i32.ge_u (local.get $i) (local.get $users)))
        (local.set $o (i32.add (local.get $out) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $j (i32.const 0))
        (block $zdone
          (loop $zero
            (br_if $zdone (i32.ge_u (local.get $j) (local.get $rowBytes)))
            (f64.store (i32.add (local.get $o) (local.get $j)) (f64.const 0))
            (local.set $j (i32.add (local.get $j) (i32.const 8)))
            (br $zero)))
        (local.set $p (i32.load (i32.add (local.get $rowPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $pend (i32.load offset=4 (i32.add (local.get $rowPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (block $pdone
          (loop $entry
            (br_if $pdone (i32.ge_u (local.get $p) (local.get $pend)))
            (local.set $c (i32.add (local.get $cols)
              (i32.mul (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $p) (i32.const 2)))) (local.get $rowBytes))))
            (local.set $x (f64.load (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 3)))))
            (local.set $v (f64x2.splat (local.get $x)))
            (local.set $j (i32.const 0))
            (block $jdone
              (loop $pair
                (br_if $jdone (i32.ge_u (local.get $j) (local.get $pairBytes)))
                (v128.store (i32.add (local.get $o) (local.get $j))
                  (f64x2.add (v128.load (i32.add (local.get $o) (local.get $j)))
                             (f64x2.mul (v128.load (i32.add (local.get $c) (local.get $j))) (local.get $v))))
                (local.set $j (i32.add (local.get $j) (i32.const 16)))
                (br $pair)))
            (if (i32.lt_u (local.get $j) (local.get $rowBytes))
              (then
                (f64.store (i32.add (local.get $o) (local.get $j))
                  (f64.add (f64.load (i32.add (local.get $o) (local.get $j)))
                           (f64.mul (f64.load (i32.add (local.get $c) (local.get $j))) (local.get $x))))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $entry)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $user))))

  ;; LapLSH's projected noise for m users (src/mechanisms/laplsh/mechanism.ts projectedNoise): for user t and
  ;; row a, out[t][a] += scale[t] * s with s = ((0 + us[a][0] w[t][0]) + us[a][1] w[t][1]) + ...,
  ;; two rows a per f64x2 (usT is us transposed, kappa x kappa), each lane summing in the JS order
  ;; with a separate multiply and add: the same doubles as the JS loop. $lower != 0: us is lower
  ;; triangular (zero above the diagonal), so the rows a, a+1 of a pair stop at b = a+1 (the terms
  ;; left out are exact zeros: the same values as the JS loop that stops at b = a).
  ;; $cols: the length of each user's w (kappa for the noise; n for projections W v, usT then
  ;; being W transposed, n x kappa, with $lower 0).
  (func (export "noise") (param $usT i32) (param $ws i32) (param $scales i32) (param $m i32)
                         (param $kappa i32) (param $cols i32) (param $out i32) (param $lower i32)
    (local $t i32) (local $a i32) (local $b i32) (local $rowBytes i32) (local $pairBytes i32)
    (local $w i32) (local $o i32) (local $acc v128) (local $s f64) (local $sv v128) (local $end i32)
    (local $colBytes i32)
    (local.set $rowBytes (i32.shl (local.get $kappa) (i32.const 3)))
    (local.set $colBytes (i32.shl (local.get $cols) (i32.const 3)))
    (local.set $pairBytes (i32.shl (i32.and (local.get $kappa) (i32.const -2)) (i32.const 3)))
    (block $tdone
      (loop $user
        (br_if $tdone (i32.ge_u (local.get $t) (local.get $m)))
        (local.set $w (i32.add (local.get $ws) (i32.mul (local.get $t) (local.get $colBytes))))
        (local.set $o (i32.add (local.get $out) (i32.mul (local.get $t) (local.get $rowBytes))))
        (local.set $sv (f64x2.splat (f64.load (i32.add (local.get $scales) (i32.shl (local.get $t) (i32.const 3))))))
        (local.set $a (i32.const 0))
        (block $adone
          (loop $pair
            (br_if $adone (i32.ge_u (local.get $a) (local.get $pairBytes)))
            (local.set $acc (v128.const f64x2 0 0))
            (local.set $b (i32.const 0))
            (local.set $end (local.get $cols))
            (if (local.get $lower)
              (then
                (local.set $end (i32.add (i32.shr_u (local.get $a) (i32.const 3)) (i32.const 2)))
                (if (i32.gt_u (local.get $end) (local.get $kappa)) (then (local.set $end (local.get $kappa))))))
            (loop $dot
              (local.set $acc (f64x2.add (local.get $acc)
                (f64x2.mul (v128.load (i32.add (i32.add (local.get $usT) (i32.mul (local.get $b) (local.get $rowBytes))) (local.get $a)))
                           (f64x2.splat (f64.load (i32.add (local.get $w) (i32.shl (local.get $b) (i32.const 3))))))))
              (local.set $b (i32.add (local.get $b) (i32.const 1)))
              (br_if $dot (i32.lt_u (local.get $b) (local.get $end))))
            (v128.store (i32.add (local.get $o) (local.get $a))
              (f64x2.add (v128.load (i32.add (local.get $o) (local.get $a))) (f64x2.mul (local.get $sv) (local.get $acc))))
            (local.set $a (i32.add (local.get $a) (i32.const 16)))
            (br $pair)))
        (if (i32.lt_u (local.get $a) (local.get $rowBytes))
          (then
            (local.set $s (f64.const 0))
            (local.set $b (i32.const 0))
            (loop $dot1
              (local.set $s (f64.add (local.get $s)
                (f64.mul (f64.load (i32.add (i32.add (local.get $usT) (i32.mul (local.get $b) (local.get $rowBytes))) (local.get $a)))
                         (f64.load (i32.add (local.get $w) (i32.shl (local.get $b) (i32.const 3)))))))
              (local.set $b (i32.add (local.get $b) (i32.const 1)))
              (br_if $dot1 (i32.lt_u (local.get $b) (local.get $cols))))
            (f64.store (i32.add (local.get $o) (local.get $a))
              (f64.add (f64.load (i32.add (local.get $o) (local.get $a)))
                       (f64.mul (f64x2.extract_lane 0 (local.get $sv)) (local.get $s))))))
        (local.set $t (i32.add (local.get $t) (i32.const 1)))
        (br $user))))

  ;; Standard normals (src/random/ziggurat.ts, the same doubles as fillZigguratNormals): a
  ;; xoshiro128++ state (4 x i32 at $st, updated), the ziggurat table (257 f64 at $tab: X[0..128]
  ;; then RATIO[0..127]) and $count doubles written at $out.
  (global $x0 (mut i32) (i32.const 0))
  (global $x1 (mut i32) (i32.const 0))
  (global $x2 (mut i32) (i32.const 0))
  (global $x3 (mut i32) (i32.const 0))

  ;; one xoshiro128++ step on the globals
  (func $next (result i32)
    (local $r i32) (local $t i32)
    (local.set $r (i32.add (i32.rotl (i32.add (global.get $x0) (global.get $x3)) (i32.const 7)) (global.get $x0)))
    (local.set $t (i32.shl (global.get $x1) (i32.const 9)))
    (global.set $x2 (i32.xor (global.get $x2) (global.get $x0)))
    (global.set $x3 (i32.xor (global.get $x3) (global.get $x1)))
    (global.set $x1 (i32.xor (global.get $x1) (global.get $x2)))
    (global.set $x0 (i32.xor (global.get $x0) (global.get $x3)))
    (global.set $x2 (i32.xor (global.get $x2) (local.get $t)))
    (global.set $x3 (i32.rotl (global.get $x3) (i32.const 11)))
    (local.get $r))

  ;; a uniform double in [0, 1): the upper 27 bits of one word, then the upper 26 of the next
  (func $uniform (result f64)
    (local $a f64)
    (local.set $a (f64.convert_i32_u (i32.shr_u (call $next) (i32.const 5))))
    (f64.mul (f64.add (f64.mul (local.get $a) (f64.const 67108864))
                      (f64.convert_i32_u (i32.shr_u (call $next) (i32.const 6))))
             (f64.const 1.1102230246251565e-16)))

  (func (export "normals") (param $st i32) (param $tab i32) (param $out i32) (param $count i32)
    (local $k i32) (local $w1 i32) (local $w2 i32) (local $i i32) (local $p i32) (local $t i32)
    (local $a0 i32) (local $a1 i32) (local $a2 i32) (local $a3 i32)
    (local $u f64) (local $x f64) (local $xi f64) (local $xi1 f64) (local $e f64) (local $y f64)
    (local $f0 f64) (local $f1 f64)
    ;; the fast path keeps the state in locals; the slow path (about 1.2% of draws) steps the
    ;; globals, so the locals are written out before it and read back after it
    (local.set $a0 (i32.load (local.get $st)))
    (local.set $a1 (i32.load offset=4 (local.get $st)))
    (local.set $a2 (i32.load offset=8 (local.get $st)))
    (local.set $a3 (i32.load offset=12 (local.get $st)))
    (block $done
      (loop $draw
        (br_if $done (i32.ge_u (local.get $k) (local.get $count)))
        ;; two xoshiro128++ steps, inlined
        (local.set $w1 (i32.add (i32.rotl (i32.add (local.get $a0) (local.get $a3)) (i32.const 7)) (local.get $a0)))
        (local.set $t (i32.shl (local.get $a1) (i32.const 9)))
        (local.set $a2 (i32.xor (local.get $a2) (local.get $a0)))
        (local.set $a3 (i32.xor (local.get $a3) (local.get $a1)))
        (local.set $a1 (i32.xor (local.get $a1) (local.get $a2)))
        (local.set $a0 (i32.xor (local.get $a0) (local.get $a3)))
        (local.set $a2 (i32.xor (local.get $a2) (local.get $t)))
        (local.set $a3 (i32.rotl (local.get $a3) (i32.const 11)))
        (local.set $w2 (i32.add (i32.rotl (i32.add (local.get $a0) (local.get $a3)) (i32.const 7)) (local.get $a0)))
        (local.set $t (i32.shl (local.get $a1) (i32.const 9)))
        (local.set $a2 (i32.xor (local.get $a2) (local.get $a0)))
        (local.set $a3 (i32.xor (local.get $a3) (local.get $a1)))
        (local.set $a1 (i32.xor (local.get $a1) (local.get $a2)))
        (local.set $a0 (i32.xor (local.get $a0) (local.get $a3)))
        (local.set $a2 (i32.xor (local.get $a2) (local.get $t)))
        (local.set $a3 (i32.rotl (local.get $a3) (i32.const 11)))
        (local.set $u (f64.mul (f64.add (f64.mul (f64.convert_i32_u (i32.shr_u (local.get $w1) (i32.const 5))) (f64.const 67108864))
                                        (f64.convert_i32_u (i32.shr_u (local.get $w2) (i32.const 6))))
                               (f64.const 1.1102230246251565e-16)))
        (local.set $i (i32.or (i32.and (local.get $w1) (i32.const 31)) (i32.shl (i32.and (local.get $w2) (i32.const 3)) (i32.const 5))))
        (local.set $p (i32.add (local.get $tab) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $xi (f64.load (local.get $p)))
        (local.set $x (f64.mul (local.get $u) (local.get $xi)))
        ;; RATIO[i] sits 129 doubles after X[i]
        (if (f64.ge (local.get $u) (f64.load offset=1032 (local.get $p)))
          (then
            (global.set $x0 (local.get $a0))
            (global.set $x1 (local.get $a1))
            (global.set $x2 (local.get $a2))
            (global.set $x3 (local.get $a3))
            (if (i32.eqz (local.get $i))
              (then
                ;; the tail beyond R
                (loop $tail
                  (local.set $e (f64.div (f64.neg (call $log (f64.sub (f64.const 1) (call $uniform)))) (f64.const 3.442619855899)))
                  (local.set $y (f64.neg (call $log (f64.sub (f64.const 1) (call $uniform)))))
                  (br_if $tail (f64.lt (f64.mul (f64.const 2) (local.get $y)) (f64.mul (local.get $e) (local.get $e)))))
                (local.set $x (f64.add (f64.const 3.442619855899) (local.get $e))))
              (else
                ;; the wedge: accept under the density, else draw again
                (local.set $xi1 (f64.load offset=8 (local.get $p)))
                (local.set $f0 (call $exp (f64.mul (f64.const -0.5) (f64.sub (f64.mul (local.get $xi) (local.get $xi)) (f64.mul (local.get $x) (local.get $x))))))
                (local.set $f1 (call $exp (f64.mul (f64.const -0.5) (f64.sub (f64.mul (local.get $xi1) (local.get $xi1)) (f64.mul (local.get $x) (local.get $x))))))
                (local.set $y (f64.add (local.get $f1) (f64.mul (call $uniform) (f64.sub (local.get $f0) (local.get $f1)))))))
            (local.set $a0 (global.get $x0))
            (local.set $a1 (global.get $x1))
            (local.set $a2 (global.get $x2))
            (local.set $a3 (global.get $x3))
            ;; a rejected wedge point: draw again ($y is the wedge test's value; the tail leaves it < 1)
            (br_if $draw (i32.and (i32.ne (local.get $i) (i32.const 0)) (f64.ge (local.get $y) (f64.const 1))))))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3)))
          (select (f64.neg (local.get $x)) (local.get $x) (i32.and (local.get $w2) (i32.const 4))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $draw)))
    (i32.store (local.get $st) (local.get $a0))
    (i32.store offset=4 (local.get $st) (local.get $a1))
    (i32.store offset=8 (local.get $st) (local.get $a2))
    (i32.store offset=12 (local.get $st) (local.get $a3)))

  ;; Bench baselines (no selection): the sum over queries and users of the distances.
  ;; bare64: u64 codes, i64.popcnt unrolled by 4 (the scalar limit of knn64).
  (func (export "bare64") (param $codes i32) (param $users i32) (param $queries i32) (param $nq i32) (result i64)
    (local $qi i32) (local $cq i64) (local $p i32) (local $end i32) (local $s i64)
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -4)) (i32.const 3))))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $cq (i64.load (i32.add (local.get $codes)
          (i32.shl (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))) (i32.const 3)))))
        (local.set $p (local.get $codes))
        (block $sdone
          (loop $scan
            (br_if $sdone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $s (i64.add (local.get $s)
              (i64.add
                (i64.add (i64.popcnt (i64.xor (i64.load (local.get $p)) (local.get $cq)))
                         (i64.popcnt (i64.xor (i64.load offset=8 (local.get $p)) (local.get $cq))))
                (i64.add (i64.popcnt (i64.xor (i64.load offset=16 (local.get $p)) (local.get $cq)))
                         (i64.popcnt (i64.xor (i64.load offset=24 (local.get $p)) (local.get $cq)))))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (br $scan)))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop)))
    (local.get $s))

  ;; bare32: u32 codes, SIMD, the same per-user distance arithmetic as knn32, summed per lane.
  (func (export "bare32") (param $codes i32) (param $users i32) (param $queries i32) (param $nq i32) (result i32)
    (local $qi i32) (local $qv v128) (local $p i32) (local $end i32) (local $acc v128) (local $ones v128)
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -8)) (i32.const 2))))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $qv (v128.load32_splat (i32.add (local.get $codes)
          (i32.shl (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))) (i32.const 2)))))
        (local.set $p (local.get $codes))
        (block $sdone
          (loop $scan
            (br_if $sdone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.add
                (i32x4.dot_i16x8_s
                  (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qv))))
                  (local.get $ones))
                (i32x4.dot_i16x8_s
                  (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qv))))
                  (local.get $ones)))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (br $scan)))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop)))
    (i32.add (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
             (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))

  ;; ---- Releases that are not bits (src/lsh/releases.ts), driven by src/kernels/kernel.ts ----

  ;; Symbols: the distance bytes of every user from user q, the unequal positions of their packed
  ;; words (src/lsh/releases.ts). Codes come in groups of 16 users: word w of user 16g + l at
  ;; codes + g*W*64 + w*64 + l*4 (W words a row). 16 users per iteration, 4 per v128, counted per
  ;; byte over the words, then per user by the dot product of knn32, narrowed to bytes:
  ;; - width 2 (`mode` 0): each nibble of the XOR looked up in `tab`, the unequal 2-bit symbols of
  ;;   a nibble: two swizzles a vector and no popcount (what i8x16.popcnt costs on x64 anyway,
  ;;   with a counting table of our own);
  ;; - width 8 (`mode` 1): i8x16.eq counts the equal bytes, and the distance is 4W minus them;
  ;; - width 4 (`mode` 2): the low and the high nibbles compared apart (masked, i8x16.eq), the
  ;;   distance 8W minus the equal ones.
  ;; (The unused symbols of a row are 0 in every row: equal.) A byte counts at most 4 a word and
  ;; its count stays below 255 for <= 254 positions: no wrap. The bytes of the
  ;; users after the last (to a multiple of 16) are 255, never within a bound.
  (func $distSym (param $codes i32) (param $users i32) (param $W i32) (param $q i32) (param $dist i32)
                 (param $tab v128) (param $mode i32)
    (local $gBytes i32) (local $gp i32) (local $qp i32) (local $p i32) (local $pEnd i32) (local $qq i32) (local $o i32) (local $end i32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $qv v128) (local $x v128)
    (local $lo v128) (local $hi v128) (local $ones v128) (local $all v128) (local $qhi v128)
    (local.set $lo (i8x16.splat (i32.const 15)))
    (local.set $hi (i8x16.splat (i32.const 0xf0)))
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    ;; the symbol slots of a row: 4 a word of bytes, 8 of nibbles
    (local.set $all (i32x4.splat (i32.shl (local.get $W) (if (result i32) (i32.eq (local.get $mode) (i32.const 2)) (then (i32.const 3)) (else (i32.const 2))))))
    (local.set $gBytes (i32.shl (local.get $W) (i32.const 6)))
    (local.set $qp (i32.add (local.get $codes)
      (i32.add (i32.mul (i32.shr_u (local.get $q) (i32.const 4)) (local.get $gBytes))
               (i32.shl (i32.and (local.get $q) (i32.const 15)) (i32.const 2)))))
    (local.set $gp (local.get $codes))
    (local.set $o (local.get $dist))
    (local.set $end (i32.add (local.get $dist) (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16))))
    (block $gdone
      (loop $groups
        (br_if $gdone (i32.ge_u (local.get $o) (local.get $end)))
        (local.set $c0 (v128.const i32x4 0 0 0 0))
        (local.set $c1 (v128.const i32x4 0 0 0 0))
        (local.set $c2 (v128.const i32x4 0 0 0 0))
        (local.set $c3 (v128.const i32x4 0 0 0 0))
        (local.set $p (local.get $gp))
        (local.set $qq (local.get $qp))
        (local.set $pEnd (i32.add (local.get $gp) (local.get $gBytes)))
        (if (local.get $mode)
          (then
            (if (i32.eq (local.get $mode) (i32.const 1))
              (then
                (loop $bytes
                  (local.set $qv (v128.load32_splat (local.get $qq)))
                  (local.set $c0 (i8x16.sub (local.get $c0) (i8x16.eq (v128.load (local.get $p)) (local.get $qv))))
                  (local.set $c1 (i8x16.sub (local.get $c1) (i8x16.eq (v128.load offset=16 (local.get $p)) (local.get $qv))))
                  (local.set $c2 (i8x16.sub (local.get $c2) (i8x16.eq (v128.load offset=32 (local.get $p)) (local.get $qv))))
                  (local.set $c3 (i8x16.sub (local.get $c3) (i8x16.eq (v128.load offset=48 (local.get $p)) (local.get $qv))))
                  (local.set $p (i32.add (local.get $p) (i32.const 64)))
                  (local.set $qq (i32.add (local.get $qq) (i32.const 64)))
                  (br_if $bytes (i32.lt_u (local.get $p) (local.get $pEnd)))))
              (else
                (loop $halves
                  (local.set $qv (v128.load32_splat (local.get $qq)))
                  (local.set $qhi (v128.and (local.get $qv) (local.get $hi)))
                  (local.set $qv (v128.and (local.get $qv) (local.get $lo)))
                  (local.set $x (v128.load (local.get $p)))
                  (local.set $c0 (i8x16.sub (i8x16.sub (local.get $c0)
                    (i8x16.eq (v128.and (local.get $x) (local.get $lo)) (local.get $qv)))
                    (i8x16.eq (v128.and (local.get $x) (local.get $hi)) (local.get $qhi))))
                  (local.set $x (v128.load offset=16 (local.get $p)))
                  (local.set $c1 (i8x16.sub (i8x16.sub (local.get $c1)
                    (i8x16.eq (v128.and (local.get $x) (local.get $lo)) (local.get $qv)))
                    (i8x16.eq (v128.and (local.get $x) (local.get $hi)) (local.get $qhi))))
                  (local.set $x (v128.load offset=32 (local.get $p)))
                  (local.set $c2 (i8x16.sub (i8x16.sub (local.get $c2)
                    (i8x16.eq (v128.and (local.get $x) (local.get $lo)) (local.get $qv)))
                    (i8x16.eq (v128.and (local.get $x) (local.get $hi)) (local.get $qhi))))
                  (local.set $x (v128.load offset=48 (local.get $p)))
                  (local.set $c3 (i8x16.sub (i8x16.sub (local.get $c3)
                    (i8x16.eq (v128.and (local.get $x) (local.get $lo)) (local.get $qv)))
                    (i8x16.eq (v128.and (local.get $x) (local.get $hi)) (local.get $qhi))))
                  (local.set $p (i32.add (local.get $p) (i32.const 64)))
                  (local.set $qq (i32.add (local.get $qq) (i32.const 64)))
                  (br_if $halves (i32.lt_u (local.get $p) (local.get $pEnd))))))
            (v128.store (local.get $o)
              (i8x16.narrow_i16x8_u
                (i16x8.narrow_i32x4_u
                  (i32x4.sub (local.get $all) (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c0)) (local.get $ones)))
                  (i32x4.sub (local.get $all) (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c1)) (local.get $ones))))
                (i16x8.narrow_i32x4_u
                  (i32x4.sub (local.get $all) (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c2)) (local.get $ones)))
                  (i32x4.sub (local.get $all) (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c3)) (local.get $ones)))))))
          (else
            (loop $nibbles
              (local.set $qv (v128.load32_splat (local.get $qq)))
              (local.set $x (v128.xor (v128.load (local.get $p)) (local.get $qv)))
              (local.set $c0 (i8x16.add (local.get $c0) (i8x16.add
                (i8x16.swizzle (local.get $tab) (v128.and (local.get $x) (local.get $lo)))
                (i8x16.swizzle (local.get $tab) (i8x16.shr_u (local.get $x) (i32.const 4))))))
              (local.set $x (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qv)))
              (local.set $c1 (i8x16.add (local.get $c1) (i8x16.add
                (i8x16.swizzle (local.get $tab) (v128.and (local.get $x) (local.get $lo)))
                (i8x16.swizzle (local.get $tab) (i8x16.shr_u (local.get $x) (i32.const 4))))))
              (local.set $x (v128.xor (v128.load offset=32 (local.get $p)) (local.get $qv)))
              (local.set $c2 (i8x16.add (local.get $c2) (i8x16.add
                (i8x16.swizzle (local.get $tab) (v128.and (local.get $x) (local.get $lo)))
                (i8x16.swizzle (local.get $tab) (i8x16.shr_u (local.get $x) (i32.const 4))))))
              (local.set $x (v128.xor (v128.load offset=48 (local.get $p)) (local.get $qv)))
              (local.set $c3 (i8x16.add (local.get $c3) (i8x16.add
                (i8x16.swizzle (local.get $tab) (v128.and (local.get $x) (local.get $lo)))
                (i8x16.swizzle (local.get $tab) (i8x16.shr_u (local.get $x) (i32.const 4))))))
              (local.set $p (i32.add (local.get $p) (i32.const 64)))
              (local.set $qq (i32.add (local.get $qq) (i32.const 64)))
              (br_if $nibbles (i32.lt_u (local.get $p) (local.get $pEnd))))
            (v128.store (local.get $o)
              (i8x16.narrow_i16x8_u
                (i16x8.narrow_i32x4_u
                  (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c0)) (local.get $ones))
                  (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c1)) (local.get $ones)))
                (i16x8.narrow_i32x4_u
                  (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c2)) (local.get $ones))
                  (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (local.get $c3)) (local.get $ones)))))))
        (local.set $gp (local.get $pEnd))
        (local.set $o (i32.add (local.get $o) (i32.const 16)))
        (br $groups)))
    (call $distTail (local.get $users) (local.get $users) (local.get $dist)))

  ;; k-NN of symbols: per query, the distance bytes ($distSym), then the two-pass selection of
  ;; knnCount (the boundary by counting, keys only within it): the k smallest (unequal positions,
  ;; tie key), best first, the query excluded. positions <= 254 (the caller checks).
  (func (export "knnSym") (param $codes i32) (param $users i32) (param $W i32) (param $queries i32) (param $nq i32)
                          (param $k i32) (param $seed i32) (param $positions i32) (param $out i32) (param $heap i32)
                          (param $dist i32) (param $tabAt i32) (param $mode i32)
    (local $qi i32) (local $q i32) (local $n16 i32) (local $tab v128)
    (local.set $tab (v128.load (local.get $tabAt)))
    (call $setup (local.get $k) (local.get $heap))
    (global.set $guess (i32.shr_u (local.get $positions) (i32.const 1)))
    (local.set $n16 (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (call $begin (local.get $q) (local.get $seed) (local.get $positions))
        (call $distSym (local.get $codes) (local.get $users) (local.get $W) (local.get $q) (local.get $dist)
                       (local.get $tab) (local.get $mode))
        (call $summarize (local.get $dist) (local.get $n16))
        (call $selectByCount (local.get $dist) (local.get $users) (local.get $positions))
        (call $drain (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2))))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop))))

  ;; Symbols of at most 64 positions, bit-sliced (kernel.ts builds the planes once per call):
  ;; plane b of a row holds bit b of each position's symbol (position j at bit j), a u64. Two
  ;; symbols differ iff some plane differs at their position, so the unequal count is
  ;; popcnt(OR over planes of (plane_u XOR plane_q)): width XORs, width - 1 ORs and one
  ;; i64.popcnt a user, as the bit kernel's one XOR and popcount (dist64). Rows come in pairs of
  ;; users, plane-major: plane b of user 2g + l at codes + g*width*16 + b*16 + l*8, so one v128
  ;; holds a plane of both users (the XORs and ORs of two users at once). width is 2, 4 or 8;
  ;; the bytes after the last user are 255 ($distTail, after the pair loop's own last byte).
  (func $distPlanes (param $codes i32) (param $users i32) (param $width i32) (param $q i32) (param $dist i32)
    (local $p i32) (local $end i32) (local $o i32) (local $qp i32) (local $stride i32) (local $x v128)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128) (local $q5 v128) (local $q6 v128) (local $q7 v128)
    (local.set $stride (i32.shl (local.get $width) (i32.const 4)))
    (local.set $qp (i32.add (local.get $codes)
      (i32.add (i32.mul (i32.shr_u (local.get $q) (i32.const 1)) (local.get $stride))
               (i32.shl (i32.and (local.get $q) (i32.const 1)) (i32.const 3)))))
    (local.set $q0 (v128.load64_splat (local.get $qp)))
    (local.set $q1 (v128.load64_splat offset=16 (local.get $qp)))
    (local.set $p (local.get $codes))
    (local.set $o (local.get $dist))
    (local.set $end (i32.add (local.get $codes)
      (i32.mul (i32.shr_u (i32.add (local.get $users) (i32.const 1)) (i32.const 1)) (local.get $stride))))
    (if (i32.eq (local.get $width) (i32.const 2))
      (then
        (block $done
          (loop $scan
            (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $x (v128.or
              (v128.xor (v128.load (local.get $p)) (local.get $q0))
              (v128.xor (v128.load offset=16 (local.get $p)) (local.get $q1))))
            (i64.store8 (local.get $o) (i64.popcnt (i64x2.extract_lane 0 (local.get $x))))
            (i64.store8 offset=1 (local.get $o) (i64.popcnt (i64x2.extract_lane 1 (local.get $x))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (local.set $o (i32.add (local.get $o) (i32.const 2)))
            (br $scan))))
      (else
        (local.set $q2 (v128.load64_splat offset=32 (local.get $qp)))
        (local.set $q3 (v128.load64_splat offset=48 (local.get $qp)))
        (if (i32.eq (local.get $width) (i32.const 4))
          (then
            (block $done4
              (loop $scan4
                (br_if $done4 (i32.ge_u (local.get $p) (local.get $end)))
                (local.set $x (v128.or
                  (v128.or (v128.xor (v128.load (local.get $p)) (local.get $q0))
                           (v128.xor (v128.load offset=16 (local.get $p)) (local.get $q1)))
                  (v128.or (v128.xor (v128.load offset=32 (local.get $p)) (local.get $q2))
                           (v128.xor (v128.load offset=48 (local.get $p)) (local.get $q3)))))
                (i64.store8 (local.get $o) (i64.popcnt (i64x2.extract_lane 0 (local.get $x))))
                (i64.store8 offset=1 (local.get $o) (i64.popcnt (i64x2.extract_lane 1 (local.get $x))))
                (local.set $p (i32.add (local.get $p) (i32.const 64)))
                (local.set $o (i32.add (local.get $o) (i32.const 2)))
                (br $scan4))))
          (else
            (local.set $q4 (v128.load64_splat offset=64 (local.get $qp)))
            (local.set $q5 (v128.load64_splat offset=80 (local.get $qp)))
            (local.set $q6 (v128.load64_splat offset=96 (local.get $qp)))
            (local.set $q7 (v128.load64_splat offset=112 (local.get $qp)))
            (block $done8
              (loop $scan8
                (br_if $done8 (i32.ge_u (local.get $p) (local.get $end)))
                (local.set $x (v128.or
                  (v128.or
                    (v128.or (v128.xor (v128.load (local.get $p)) (local.get $q0))
                             (v128.xor (v128.load offset=16 (local.get $p)) (local.get $q1)))
                    (v128.or (v128.xor (v128.load offset=32 (local.get $p)) (local.get $q2))
                             (v128.xor (v128.load offset=48 (local.get $p)) (local.get $q3))))
                  (v128.or
                    (v128.or (v128.xor (v128.load offset=64 (local.get $p)) (local.get $q4))
                             (v128.xor (v128.load offset=80 (local.get $p)) (local.get $q5)))
                    (v128.or (v128.xor (v128.load offset=96 (local.get $p)) (local.get $q6))
                             (v128.xor (v128.load offset=112 (local.get $p)) (local.get $q7))))))
                (i64.store8 (local.get $o) (i64.popcnt (i64x2.extract_lane 0 (local.get $x))))
                (i64.store8 offset=1 (local.get $o) (i64.popcnt (i64x2.extract_lane 1 (local.get $x))))
                (local.set $p (i32.add (local.get $p) (i32.const 128)))
                (local.set $o (i32.add (local.get $o) (i32.const 2)))
                (br $scan8)))))))
    (call $distTail (local.get $users) (local.get $users) (local.get $dist)))

  ;; Symbols of at most 32 positions, bit-sliced in u32 planes (as $distPlanes, one plane a u32):
  ;; groups of 4 users, plane-major, plane b of user 4g + l at codes + g*width*16 + b*16 + l*4, so
  ;; one v128 holds a plane of 4 users, and 16 users' counts are narrowed to bytes as dist32's.
  ;; The users after the last (to a multiple of 16) are 255 ($distTail).
  (func $distPlanes32 (param $codes i32) (param $users i32) (param $width i32) (param $q i32) (param $dist i32)
    (local $p i32) (local $end i32) (local $o i32) (local $qp i32) (local $ones v128)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128) (local $q5 v128) (local $q6 v128) (local $q7 v128)
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    (local.set $qp (i32.add (local.get $codes)
      (i32.add (i32.mul (i32.shr_u (local.get $q) (i32.const 2)) (i32.shl (local.get $width) (i32.const 4)))
               (i32.shl (i32.and (local.get $q) (i32.const 3)) (i32.const 2)))))
    (if (i32.gt_u (local.get $width) (i32.const 0)) (then (local.set $q0 (v128.load32_splat offset=0 (local.get $qp)))))
    (if (i32.gt_u (local.get $width) (i32.const 1)) (then (local.set $q1 (v128.load32_splat offset=16 (local.get $qp)))))
    (if (i32.gt_u (local.get $width) (i32.const 2)) (then (local.set $q2 (v128.load32_splat offset=32 (local.get $qp)))))
    (if (i32.gt_u (local.get $width) (i32.const 3)) (then (local.set $q3 (v128.load32_splat offset=48 (local.get $qp)))))
    (if (i32.gt_u (local.get $width) (i32.const 4)) (then (local.set $q4 (v128.load32_splat offset=64 (local.get $qp)))))
    (if (i32.gt_u (local.get $width) (i32.const 5)) (then (local.set $q5 (v128.load32_splat offset=80 (local.get $qp)))))
    (if (i32.gt_u (local.get $width) (i32.const 6)) (then (local.set $q6 (v128.load32_splat offset=96 (local.get $qp)))))
    (if (i32.gt_u (local.get $width) (i32.const 7)) (then (local.set $q7 (v128.load32_splat offset=112 (local.get $qp)))))
    (local.set $p (local.get $codes))
    (local.set $o (local.get $dist))
    (local.set $end (i32.add (local.get $codes)
      (i32.mul (i32.shr_u (i32.add (local.get $users) (i32.const 15)) (i32.const 4)) (i32.shl (local.get $width) (i32.const 6)))))
    (if (i32.eq (local.get $width) (i32.const 2))
      (then
            (block $done2
              (loop $scan2
                (br_if $done2 (i32.ge_u (local.get $p) (local.get $end)))
                (v128.store (local.get $o)
                  (i8x16.narrow_i16x8_u
                    (i16x8.narrow_i32x4_u
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.xor (v128.load offset=0 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=16 (local.get $p)) (local.get $q1))))) (local.get $ones))
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.xor (v128.load offset=32 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=48 (local.get $p)) (local.get $q1))))) (local.get $ones)))
                    (i16x8.narrow_i32x4_u
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.xor (v128.load offset=64 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=80 (local.get $p)) (local.get $q1))))) (local.get $ones))
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.xor (v128.load offset=96 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=112 (local.get $p)) (local.get $q1))))) (local.get $ones)))))
                (local.set $p (i32.add (local.get $p) (i32.const 128)))
                (local.set $o (i32.add (local.get $o) (i32.const 16)))
                (br $scan2))))
      (else
        (if (i32.eq (local.get $width) (i32.const 4))
          (then
            (block $done4
              (loop $scan4
                (br_if $done4 (i32.ge_u (local.get $p) (local.get $end)))
                (v128.store (local.get $o)
                  (i8x16.narrow_i16x8_u
                    (i16x8.narrow_i32x4_u
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.xor (v128.load offset=0 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=16 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=32 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=48 (local.get $p)) (local.get $q3)))))) (local.get $ones))
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.xor (v128.load offset=64 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=80 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=96 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=112 (local.get $p)) (local.get $q3)))))) (local.get $ones)))
                    (i16x8.narrow_i32x4_u
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.xor (v128.load offset=128 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=144 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=160 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=176 (local.get $p)) (local.get $q3)))))) (local.get $ones))
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.xor (v128.load offset=192 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=208 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=224 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=240 (local.get $p)) (local.get $q3)))))) (local.get $ones)))))
                (local.set $p (i32.add (local.get $p) (i32.const 256)))
                (local.set $o (i32.add (local.get $o) (i32.const 16)))
                (br $scan4))))
          (else
            (block $done8
              (loop $scan8
                (br_if $done8 (i32.ge_u (local.get $p) (local.get $end)))
                (v128.store (local.get $o)
                  (i8x16.narrow_i16x8_u
                    (i16x8.narrow_i32x4_u
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.or (v128.xor (v128.load offset=0 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=16 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=32 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=48 (local.get $p)) (local.get $q3)))) (v128.or (v128.or (v128.xor (v128.load offset=64 (local.get $p)) (local.get $q4)) (v128.xor (v128.load offset=80 (local.get $p)) (local.get $q5))) (v128.or (v128.xor (v128.load offset=96 (local.get $p)) (local.get $q6)) (v128.xor (v128.load offset=112 (local.get $p)) (local.get $q7))))))) (local.get $ones))
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.or (v128.xor (v128.load offset=128 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=144 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=160 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=176 (local.get $p)) (local.get $q3)))) (v128.or (v128.or (v128.xor (v128.load offset=192 (local.get $p)) (local.get $q4)) (v128.xor (v128.load offset=208 (local.get $p)) (local.get $q5))) (v128.or (v128.xor (v128.load offset=224 (local.get $p)) (local.get $q6)) (v128.xor (v128.load offset=240 (local.get $p)) (local.get $q7))))))) (local.get $ones)))
                    (i16x8.narrow_i32x4_u
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.or (v128.xor (v128.load offset=256 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=272 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=288 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=304 (local.get $p)) (local.get $q3)))) (v128.or (v128.or (v128.xor (v128.load offset=320 (local.get $p)) (local.get $q4)) (v128.xor (v128.load offset=336 (local.get $p)) (local.get $q5))) (v128.or (v128.xor (v128.load offset=352 (local.get $p)) (local.get $q6)) (v128.xor (v128.load offset=368 (local.get $p)) (local.get $q7))))))) (local.get $ones))
                      (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.or (v128.or (v128.or (v128.xor (v128.load offset=384 (local.get $p)) (local.get $q0)) (v128.xor (v128.load offset=400 (local.get $p)) (local.get $q1))) (v128.or (v128.xor (v128.load offset=416 (local.get $p)) (local.get $q2)) (v128.xor (v128.load offset=432 (local.get $p)) (local.get $q3)))) (v128.or (v128.or (v128.xor (v128.load offset=448 (local.get $p)) (local.get $q4)) (v128.xor (v128.load offset=464 (local.get $p)) (local.get $q5))) (v128.or (v128.xor (v128.load offset=480 (local.get $p)) (local.get $q6)) (v128.xor (v128.load offset=496 (local.get $p)) (local.get $q7))))))) (local.get $ones)))))
                (local.set $p (i32.add (local.get $p) (i32.const 512)))
                (local.set $o (i32.add (local.get $o) (i32.const 16)))
                (br $scan8)))))))
    (call $distTail (local.get $users) (local.get $users) (local.get $dist)))

  ;; k-NN of bit-sliced symbols ($distPlanes, or $distPlanes32 when narrow: at most 32 positions):
  ;; knnSym's selection over the distance bytes
  (func (export "knnPlanes") (param $codes i32) (param $users i32) (param $width i32) (param $queries i32) (param $nq i32)
                             (param $k i32) (param $seed i32) (param $positions i32) (param $out i32) (param $heap i32)
                             (param $dist i32) (param $narrow i32)
    (local $qi i32) (local $q i32) (local $n16 i32)
    (call $setup (local.get $k) (local.get $heap))
    (global.set $guess (i32.shr_u (local.get $positions) (i32.const 1)))
    (local.set $n16 (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (call $begin (local.get $q) (local.get $seed) (local.get $positions))
        (if (local.get $narrow)
          (then (call $distPlanes32 (local.get $codes) (local.get $users) (local.get $width) (local.get $q) (local.get $dist)))
          (else (call $distPlanes (local.get $codes) (local.get $users) (local.get $width) (local.get $q) (local.get $dist))))
        (call $summarize (local.get $dist) (local.get $n16))
        (call $selectByCount (local.get $dist) (local.get $users) (local.get $positions))
        (call $drain (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2))))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop))))

  ;; Reals: the k nearest by squared Euclidean distance, each pair's sum in float64 in coordinate
  ;; order from 0 (lanes are users, never coordinates: a lane sums its user's terms in order, a
  ;; multiply then an add as the JS loop, so the doubles are the JS loop's). Values come in groups
  ;; of 8 users: coordinate j of user 8g + l at vals + g*dims*64 + j*64 + l*8 (the users after the
  ;; last padded with 1e300, whose squared differences are infinite).
  ;;
  ;; Selection: per query a list of the best k (distance, tie key) pairs, sorted, and bounds[h]
  ;; its last distance (+inf until full). A group of 8 users is summed whole (stopping a group once
  ;; every lane's partial sum passes its bound, every 4, 8 or 16 coordinates, was measured slower
  ;; on JL releases: their coordinates add alike, and 8 lanes rarely all pass early); only the
  ;; users within a bound are keyed and offered. The k smallest (distance, key) pairs, as the JS
  ;; loop's, whatever the order they are offered in.
  ;;
  ;; sym = 1 (every user a query, list h for user h): each pair u < v is summed once, in row u, and
  ;; offered to both lists (the squared differences of (a - b) and (b - a) are the same doubles):
  ;; half the sums. sym = 0: row qi scans every group for queries[qi] into list 0, drained after
  ;; each row.
  (global $rk (mut i32) (i32.const 0))
  (global $rHeaps (mut i32) (i32.const 0))
  (global $rBounds (mut i32) (i32.const 0))
  (global $rSizes (mut i32) (i32.const 0))
  (global $rBases (mut i32) (i32.const 0))
  (global $rStride (mut i32) (i32.const 0)) ;; bytes a list: 16 (kk + 1)
  (global $rHalf (mut i32) (i32.const 0))   ;; bytes of a list's distances: 8 (kk + 1)

  ;; list h: kk = k rounded up to even; kk + 1 f64 distances (a sentinel -inf, then the entries,
  ;; +inf where empty), then kk + 1 u64 users (the same slots); 16 (kk + 1) bytes a list
  (func $rList (param $h i32) (result i32)
    (i32.add (global.get $rHeaps) (i32.mul (local.get $h) (global.get $rStride))))

  ;; the tie key of candidate c in list h: fmix32(base ^ (c + 1) * 0x85ebca77), base list h's
  ;; (distinct candidates have distinct keys: both steps are bijections)
  (func $rKey (param $h i32) (param $c i32) (result i32)
    (local $key i32)
    (local.set $key (i32.xor
      (i32.load (i32.add (global.get $rBases) (i32.shl (local.get $h) (i32.const 2))))
      (i32.mul (i32.add (local.get $c) (i32.const 1)) (i32.const 0x85ebca77))))
    (local.set $key (i32.xor (local.get $key) (i32.shr_u (local.get $key) (i32.const 16))))
    (local.set $key (i32.mul (local.get $key) (i32.const 0x85ebca6b)))
    (local.set $key (i32.xor (local.get $key) (i32.shr_u (local.get $key) (i32.const 13))))
    (local.set $key (i32.mul (local.get $key) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $key) (i32.shr_u (local.get $key) (i32.const 16))))

  ;; offers candidate c at distance d to list h (the caller checked d <= bounds[h] when it read
  ;; it): the list keeps the best k (distance, tie key) pairs sorted, best first, and bounds[h] =
  ;; its k-th distance (+inf until full). When d equals no entry (the rule in reals), the insertion
  ;; is branch-free, two entries a vector: entry j becomes entry j if it is below d, else d if entry
  ;; j - 1 is below d, else entry j - 1 (the sentinel -inf below entry 0), written from the end so
  ;; that every read is of the old list; the users move with the same lane masks. Equal distances
  ;; take the scalar insertion, whose tie keys are computed only there (a key is a function of the
  ;; list and the candidate, so the list keeps none).
  (func $rOffer (param $h i32) (param $c i32) (param $d f64)
    (local $hd i32) (local $hu i32) (local $n i32) (local $p i32) (local $dp f64)
    (local $dv v128) (local $cv v128) (local $eq v128) (local $old v128) (local $prev v128)
    (local $keep v128) (local $take v128) (local $o i32)
    (local.set $hd (call $rList (local.get $h)))
    (local.set $hu (i32.add (local.get $hd) (i32.shr_u (global.get $rStride) (i32.const 1))))
    (local.set $n (i32.load (i32.add (global.get $rSizes) (i32.shl (local.get $h) (i32.const 2)))))
    (local.set $dv (f64x2.splat (local.get $d)))
    ;; a tie with any entry (or d past the k-th, when the bound read was stale)?
    (local.set $o (i32.const 8))
    (local.set $eq (f64x2.gt (local.get $dv) (f64x2.splat (f64.load (i32.add (local.get $hd) (i32.shl (global.get $rk) (i32.const 3)))))))
    (loop $scan
      (local.set $eq (v128.or (local.get $eq) (f64x2.eq (v128.load (i32.add (local.get $hd) (local.get $o))) (local.get $dv))))
      (local.set $o (i32.add (local.get $o) (i32.const 16)))
      (br_if $scan (i32.lt_u (local.get $o) (global.get $rHalf))))
    (if (i32.eqz (v128.any_true (local.get $eq)))
      (then
        (local.set $cv (i64x2.splat (i64.extend_i32_u (local.get $c))))
        (local.set $o (i32.sub (global.get $rHalf) (i32.const 16)))
        (loop $vec
          (local.set $old (v128.load (i32.add (local.get $hd) (local.get $o))))
          (local.set $prev (v128.load (i32.sub (i32.add (local.get $hd) (local.get $o)) (i32.const 8))))
          (local.set $keep (f64x2.lt (local.get $old) (local.get $dv)))
          (local.set $take (f64x2.lt (local.get $prev) (local.get $dv)))
          (v128.store (i32.add (local.get $hd) (local.get $o))
            (v128.bitselect (local.get $old) (v128.bitselect (local.get $dv) (local.get $prev) (local.get $take)) (local.get $keep)))
          (v128.store (i32.add (local.get $hu) (local.get $o))
            (v128.bitselect (v128.load (i32.add (local.get $hu) (local.get $o)))
              (v128.bitselect (local.get $cv) (v128.load (i32.sub (i32.add (local.get $hu) (local.get $o)) (i32.const 8))) (local.get $take))
              (local.get $keep)))
          (local.set $o (i32.sub (local.get $o) (i32.const 16)))
          (br_if $vec (i32.gt_s (local.get $o) (i32.const 0))))
        (if (i32.lt_u (local.get $n) (global.get $rk))
          (then (i32.store (i32.add (global.get $rSizes) (i32.shl (local.get $h) (i32.const 2))) (i32.add (local.get $n) (i32.const 1)))))
        (f64.store (i32.add (global.get $rBounds) (i32.shl (local.get $h) (i32.const 3)))
          (f64.load (i32.add (local.get $hd) (i32.shl (global.get $rk) (i32.const 3)))))
        (return)))
    ;; entry p at hd + 8 + 8p (distance) and hu + 8 + 8p (user)
    (if (i32.lt_u (local.get $n) (global.get $rk))
      (then
        (local.set $p (local.get $n))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (i32.store (i32.add (global.get $rSizes) (i32.shl (local.get $h) (i32.const 2))) (local.get $n)))
      (else
        ;; full: the pair must beat the last (a tie at the bound can lose on its key)
        (local.set $p (i32.sub (local.get $n) (i32.const 1)))
        (local.set $dp (f64.load offset=8 (i32.add (local.get $hd) (i32.shl (local.get $p) (i32.const 3)))))
        (if (f64.ge (local.get $d) (local.get $dp))
          (then
            (if (f64.gt (local.get $d) (local.get $dp)) (then (return)))
            (if (i32.ge_u (call $rKey (local.get $h) (local.get $c))
                          (call $rKey (local.get $h) (i32.load offset=8 (i32.add (local.get $hu) (i32.shl (local.get $p) (i32.const 3))))))
              (then (return)))))))
    ;; slot p is free: move the entries worse than (d, key) up, from the end
    (block $done
      (loop $shift
        (br_if $done (i32.eqz (local.get $p)))
        (local.set $dp (f64.load (i32.add (local.get $hd) (i32.shl (local.get $p) (i32.const 3)))))
        (br_if $done (f64.lt (local.get $dp) (local.get $d)))
        (if (f64.eq (local.get $dp) (local.get $d))
          (then
            (br_if $done (i32.lt_u
              (call $rKey (local.get $h) (i32.load (i32.add (local.get $hu) (i32.shl (local.get $p) (i32.const 3)))))
              (call $rKey (local.get $h) (local.get $c))))))
        (f64.store offset=8 (i32.add (local.get $hd) (i32.shl (local.get $p) (i32.const 3))) (local.get $dp))
        (i64.store offset=8 (i32.add (local.get $hu) (i32.shl (local.get $p) (i32.const 3)))
                   (i64.load (i32.add (local.get $hu) (i32.shl (local.get $p) (i32.const 3)))))
        (local.set $p (i32.sub (local.get $p) (i32.const 1)))
        (br $shift)))
    (f64.store offset=8 (i32.add (local.get $hd) (i32.shl (local.get $p) (i32.const 3))) (local.get $d))
    (i64.store offset=8 (i32.add (local.get $hu) (i32.shl (local.get $p) (i32.const 3))) (i64.extend_i32_u (local.get $c)))
    (f64.store (i32.add (global.get $rBounds) (i32.shl (local.get $h) (i32.const 3)))
      (f64.load (i32.add (local.get $hd) (i32.shl (global.get $rk) (i32.const 3))))))

  ;; writes list h's users (best first) to out[0 .. size) and empties it
  (func $rDrain (param $h i32) (param $out i32)
    (local $hu i32) (local $n i32) (local $i i32)
    (local.set $hu (i32.add (call $rList (local.get $h)) (i32.shr_u (global.get $rStride) (i32.const 1))))
    (local.set $n (i32.load (i32.add (global.get $rSizes) (i32.shl (local.get $h) (i32.const 2)))))
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
                   (i32.load offset=8 (i32.add (local.get $hu) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $copy)))
    (i32.store (i32.add (global.get $rSizes) (i32.shl (local.get $h) (i32.const 2))) (i32.const 0)))

  ;; empties list h for query user q: no entries (+inf), the sentinel -inf, bound +inf, the key
  ;; base queryKeyBase(seed, q)
  (func $rReset (param $h i32) (param $q i32) (param $seed i32)
    (local $hd i32) (local $o i32)
    (local.set $hd (call $rList (local.get $h)))
    (f64.store (local.get $hd) (f64.const -inf))
    (local.set $o (i32.const 8))
    (loop $fill
      (f64.store (i32.add (local.get $hd) (local.get $o)) (f64.const inf))
      (local.set $o (i32.add (local.get $o) (i32.const 8)))
      (br_if $fill (i32.lt_u (local.get $o) (global.get $rHalf))))
    (i32.store (i32.add (global.get $rSizes) (i32.shl (local.get $h) (i32.const 2))) (i32.const 0))
    (f64.store (i32.add (global.get $rBounds) (i32.shl (local.get $h) (i32.const 3))) (f64.const inf))
    (i32.store (i32.add (global.get $rBases) (i32.shl (local.get $h) (i32.const 2)))
      (call $fmix32 (i32.xor (local.get $seed) (i32.mul (i32.add (local.get $q) (i32.const 1)) (i32.const 0x9e3779b1))))))

  ;; bounds, sizes and bases hold one entry per list (users when sym, else 1); bounds has room for
  ;; the users rounded up to 8 (the caller sets the padding's to -1: never within)
  (func (export "knnReal") (param $vals i32) (param $users i32) (param $dims i32) (param $queries i32) (param $nq i32)
                           (param $k i32) (param $seed i32) (param $out i32) (param $heaps i32) (param $bounds i32)
                           (param $sizes i32) (param $bases i32) (param $scratch i32) (param $sym i32)
    (local $rows i32) (local $r i32) (local $i i32) (local $h i32) (local $gp i32) (local $gEnd i32) (local $gBytes i32)
    (local $u0 i32) (local $qp i32) (local $p i32) (local $qq i32) (local $pEnd i32) (local $m i32) (local $l i32) (local $u i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $qv v128) (local $e v128)
    (local $b0 v128) (local $valid i32) (local $mh i32) (local $mu i32)
    (global.set $rk (local.get $k))
    (global.set $rHeaps (local.get $heaps))
    (global.set $rBounds (local.get $bounds))
    (global.set $rSizes (local.get $sizes))
    (global.set $rBases (local.get $bases))
    (global.set $rHalf (i32.shl (i32.add (i32.and (i32.add (local.get $k) (i32.const 1)) (i32.const -2)) (i32.const 1)) (i32.const 3)))
    (global.set $rStride (i32.shl (global.get $rHalf) (i32.const 1)))
    (local.set $gBytes (i32.shl (local.get $dims) (i32.const 6)))
    (local.set $gEnd (i32.add (local.get $vals)
      (i32.mul (i32.shr_u (i32.add (local.get $users) (i32.const 7)) (i32.const 3)) (local.get $gBytes))))
    (local.set $rows (if (result i32) (local.get $sym) (then (local.get $users)) (else (local.get $nq))))
    (if (local.get $sym)
      (then
        (block $idone
          (loop $init
            (br_if $idone (i32.ge_u (local.get $r) (local.get $users)))
            (call $rReset (local.get $r) (local.get $r) (local.get $seed))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (br $init)))
        (local.set $r (i32.const 0))))
    (block $rdone
      (loop $rowLoop
        (br_if $rdone (i32.ge_u (local.get $r) (local.get $rows)))
        (if (local.get $sym)
          (then
            (local.set $i (local.get $r))
            (local.set $h (local.get $r))
            ;; from the group of user i + 1: the pairs with the users before are summed in their rows
            (local.set $u0 (i32.and (i32.add (local.get $i) (i32.const 1)) (i32.const -8)))
            (local.set $gp (i32.add (local.get $vals) (i32.mul (i32.shr_u (local.get $u0) (i32.const 3)) (local.get $gBytes)))))
          (else
            (local.set $i (i32.load (i32.add (local.get $queries) (i32.shl (local.get $r) (i32.const 2)))))
            (local.set $h (i32.const 0))
            (call $rReset (i32.const 0) (local.get $i) (local.get $seed))
            (local.set $u0 (i32.const 0))
            (local.set $gp (local.get $vals))))
        (local.set $qp (i32.add (local.get $vals)
          (i32.add (i32.mul (i32.shr_u (local.get $i) (i32.const 3)) (local.get $gBytes))
                   (i32.shl (i32.and (local.get $i) (i32.const 7)) (i32.const 3)))))
        (block $gdone
          (loop $groups
            (br_if $gdone (i32.ge_u (local.get $gp) (local.get $gEnd)))
            (local.set $a0 (f64x2.splat (f64.const 0)))
            (local.set $a1 (local.get $a0))
            (local.set $a2 (local.get $a0))
            (local.set $a3 (local.get $a0))
            (local.set $p (local.get $gp))
            (local.set $qq (local.get $qp))
            (local.set $pEnd (i32.add (local.get $gp) (local.get $gBytes)))
            (block $next
              ;; an odd coordinate count: coordinate 0 alone, then two a turn (each lane's order stays j = 0, 1, 2, ...)
              (if (i32.and (local.get $dims) (i32.const 1))
                (then
                  (local.set $qv (v128.load64_splat (local.get $qq)))
                  (local.set $e (f64x2.sub (v128.load (local.get $p)) (local.get $qv)))
                  (local.set $a0 (f64x2.mul (local.get $e) (local.get $e)))
                  (local.set $e (f64x2.sub (v128.load offset=16 (local.get $p)) (local.get $qv)))
                  (local.set $a1 (f64x2.mul (local.get $e) (local.get $e)))
                  (local.set $e (f64x2.sub (v128.load offset=32 (local.get $p)) (local.get $qv)))
                  (local.set $a2 (f64x2.mul (local.get $e) (local.get $e)))
                  (local.set $e (f64x2.sub (v128.load offset=48 (local.get $p)) (local.get $qv)))
                  (local.set $a3 (f64x2.mul (local.get $e) (local.get $e)))
                  (local.set $p (i32.add (local.get $p) (i32.const 64)))
                  (local.set $qq (i32.add (local.get $qq) (i32.const 64)))))
              (block $summed
                (loop $coords
                  (br_if $summed (i32.ge_u (local.get $p) (local.get $pEnd)))
                  (local.set $qv (v128.load64_splat (local.get $qq)))
                  (local.set $e (f64x2.sub (v128.load (local.get $p)) (local.get $qv)))
                  (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $e (f64x2.sub (v128.load offset=16 (local.get $p)) (local.get $qv)))
                  (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $e (f64x2.sub (v128.load offset=32 (local.get $p)) (local.get $qv)))
                  (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $e (f64x2.sub (v128.load offset=48 (local.get $p)) (local.get $qv)))
                  (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $qv (v128.load64_splat offset=64 (local.get $qq)))
                  (local.set $e (f64x2.sub (v128.load offset=64 (local.get $p)) (local.get $qv)))
                  (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $e (f64x2.sub (v128.load offset=80 (local.get $p)) (local.get $qv)))
                  (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $e (f64x2.sub (v128.load offset=96 (local.get $p)) (local.get $qv)))
                  (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $e (f64x2.sub (v128.load offset=112 (local.get $p)) (local.get $qv)))
                  (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $e) (local.get $e))))
                  (local.set $p (i32.add (local.get $p) (i32.const 128)))
                  (local.set $qq (i32.add (local.get $qq) (i32.const 128)))
                  (br $coords)))
              ;; the lanes within list h's bound (mh) and, with sym, within their own user's (mu), each
              ;; offered to that list only: two masks, so no branch per lane on a bound (bounds read
              ;; after the sums; a bound that tightens meanwhile is checked again in $rOffer). valid:
              ;; the lanes of users, with sym those after i, else all but i.
              (local.set $valid (i32.const 0xff))
              (if (i32.gt_u (i32.add (local.get $u0) (i32.const 8)) (local.get $users))
                (then (local.set $valid (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $users) (local.get $u0))) (i32.const 1)))))
              (if (i32.lt_u (i32.sub (local.get $i) (local.get $u0)) (i32.const 8))
                (then (local.set $valid (i32.and (local.get $valid)
                  (if (result i32) (local.get $sym)
                    (then (i32.sub (i32.const 0) (i32.shl (i32.const 2) (i32.sub (local.get $i) (local.get $u0)))))
                    (else (i32.xor (i32.const -1) (i32.shl (i32.const 1) (i32.sub (local.get $i) (local.get $u0))))))))))
              (local.set $b0 (f64x2.splat (f64.load (i32.add (local.get $bounds) (i32.shl (local.get $h) (i32.const 3))))))
              (local.set $mh (i32.and (local.get $valid) (i32.or
                (i32.or (i64x2.bitmask (f64x2.le (local.get $a0) (local.get $b0)))
                        (i32.shl (i64x2.bitmask (f64x2.le (local.get $a1) (local.get $b0))) (i32.const 2)))
                (i32.or (i32.shl (i64x2.bitmask (f64x2.le (local.get $a2) (local.get $b0))) (i32.const 4))
                        (i32.shl (i64x2.bitmask (f64x2.le (local.get $a3) (local.get $b0))) (i32.const 6))))))
              (local.set $mu (i32.const 0))
              (if (local.get $sym)
                (then
                  (local.set $qq (i32.add (local.get $bounds) (i32.shl (local.get $u0) (i32.const 3))))
                  (local.set $mu (i32.and (local.get $valid) (i32.or
                    (i32.or (i64x2.bitmask (f64x2.le (local.get $a0) (v128.load (local.get $qq))))
                            (i32.shl (i64x2.bitmask (f64x2.le (local.get $a1) (v128.load offset=16 (local.get $qq)))) (i32.const 2)))
                    (i32.or (i32.shl (i64x2.bitmask (f64x2.le (local.get $a2) (v128.load offset=32 (local.get $qq)))) (i32.const 4))
                            (i32.shl (i64x2.bitmask (f64x2.le (local.get $a3) (v128.load offset=48 (local.get $qq)))) (i32.const 6))))))))
              (br_if $next (i32.eqz (i32.or (local.get $mh) (local.get $mu))))
              (v128.store (local.get $scratch) (local.get $a0))
              (v128.store offset=16 (local.get $scratch) (local.get $a1))
              (v128.store offset=32 (local.get $scratch) (local.get $a2))
              (v128.store offset=48 (local.get $scratch) (local.get $a3))
              (block $hdone
                (br_if $hdone (i32.eqz (local.get $mh)))
                (loop $eachH
                  (local.set $l (i32.ctz (local.get $mh)))
                  (call $rOffer (local.get $h) (i32.add (local.get $u0) (local.get $l))
                    (f64.load (i32.add (local.get $scratch) (i32.shl (local.get $l) (i32.const 3)))))
                  (local.set $mh (i32.and (local.get $mh) (i32.sub (local.get $mh) (i32.const 1))))
                  (br_if $eachH (local.get $mh))))
              (br_if $next (i32.eqz (local.get $mu)))
              (loop $eachU
                (local.set $l (i32.ctz (local.get $mu)))
                (call $rOffer (i32.add (local.get $u0) (local.get $l)) (local.get $i)
                  (f64.load (i32.add (local.get $scratch) (i32.shl (local.get $l) (i32.const 3)))))
                (local.set $mu (i32.and (local.get $mu) (i32.sub (local.get $mu) (i32.const 1))))
                (br_if $eachU (local.get $mu))))
            (local.set $gp (i32.add (local.get $gp) (local.get $gBytes)))
            (local.set $u0 (i32.add (local.get $u0) (i32.const 8)))
            (br $groups)))
        (if (i32.eqz (local.get $sym))
          (then (call $rDrain (i32.const 0) (i32.add (local.get $out) (i32.shl (i32.mul (local.get $r) (local.get $k)) (i32.const 2))))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rowLoop)))
    (if (local.get $sym)
      (then
        (local.set $r (i32.const 0))
        (block $ddone
          (loop $drains
            (br_if $ddone (i32.ge_u (local.get $r) (local.get $users)))
            (call $rDrain (local.get $r) (i32.add (local.get $out) (i32.shl (i32.mul (local.get $r) (local.get $k)) (i32.const 2))))
            (local.set $r (i32.add (local.get $r) (i32.const 1)))
            (br $drains))))))

  ;; ---- attribute inference ----
  ;; The metrics of attribute inference (src/evaluations/infer/ranking.ts) for every target of one
  ;; result, from bit sets instead of a pass along the prior order. Each auxiliary user's items are a
  ;; bit set over prior places (W u64 words, `bits`: aux index-major). A target's votes are counted
  ;; bit-sliced: P planes per word (word-major: plane p of word w at planes + (w·P + p)·8), each
  ;; neighbour's set added with a ripple carry, so no per-item scatter. Level s (the places with
  ;; exactly s votes) is a mask of the planes; per word and level, `cnt` holds the level's places in
  ;; the words before (a prefix of popcounts). An item of S at place r with score s then sits at
  ;;   pos = base[s] + (places of level s before r)
  ;; with base[s] the places of higher score for s ≥ 1 and base[0] = |T| (every touched place comes
  ;; first): exactly targetMetrics' places, so the same integer sums. Only S's own places are
  ;; visited. Writes auc, prec at out[2i], out[2i + 1] (NaN, NaN when S is empty or holds all n) for
  ;; the `count` targets i listed at `todo`, the j-th of them ranked from nearest[j · take ..].
  (func (export "inferRank") (param $bits i32) (param $W i32) (param $P i32) (param $take i32) (param $todo i32) (param $count i32)
        (param $tPtr i32) (param $tPlaces i32) (param $nearest i32) (param $out i32)
        (param $planes i32) (param $cnt i32) (param $base i32) (param $n i32) (param $precAt i32)
    (local $i i32) (local $j i32) (local $from i32) (local $to i32) (local $m i32) (local $q i32) (local $src i32)
    (local $w i32) (local $p i32) (local $addr i32) (local $c i64) (local $x i64) (local $L i32)
    (local $s i32) (local $mask i64) (local $acc i32) (local $tmp i32) (local $r i32) (local $wa i32)
    (local $b i64) (local $pos i32) (local $sum i64) (local $hits i32)
    (local $wp i32) (local $cw i32)
    (local.set $L (i32.add (local.get $take) (i32.const 1)))
    (block $tdone
      (loop $targets
        (br_if $tdone (i32.ge_u (local.get $j) (local.get $count)))
        (local.set $i (i32.load (i32.add (local.get $todo) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $from (i32.load (i32.add (local.get $tPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $to (i32.load offset=4 (i32.add (local.get $tPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $m (i32.sub (local.get $to) (local.get $from)))
        (block $skip
          (if (i32.or (i32.eqz (local.get $m)) (i32.eq (local.get $m) (local.get $n)))
            (then
              (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 4))) (f64.const nan))
              (f64.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 4))) (f64.const nan))
              (br $skip)))
          ;; the neighbours' votes, bit-sliced
          (memory.fill (local.get $planes) (i32.const 0) (i32.shl (i32.mul (local.get $W) (local.get $P)) (i32.const 3)))
          (local.set $q (i32.const 0))
          (block $qdone
            (loop $eachQ
              (br_if $qdone (i32.ge_u (local.get $q) (local.get $take)))
              (local.set $src (i32.add (local.get $bits)
                (i32.shl (i32.mul (i32.load (i32.add (local.get $nearest)
                  (i32.shl (i32.add (i32.mul (local.get $j) (local.get $take)) (local.get $q)) (i32.const 2))))
                  (local.get $W)) (i32.const 3))))
              (local.set $addr (local.get $planes))
              (local.set $w (i32.const 0))
              (block $wdone
                (loop $eachW
                  (br_if $wdone (i32.ge_u (local.get $w) (local.get $W)))
                  (local.set $c (i64.load (i32.add (local.get $src) (i32.shl (local.get $w) (i32.const 3)))))
                  (local.set $p (i32.const 0))
                  (block $pdone
                    (loop $eachP
                      (br_if $pdone (i32.ge_u (local.get $p) (local.get $P)))
                      (local.set $x (i64.load (local.get $addr)))
                      (i64.store (local.get $addr) (i64.xor (local.get $x) (local.get $c)))
                      (local.set $c (i64.and (local.get $x) (local.get $c)))
                      (local.set $addr (i32.add (local.get $addr) (i32.const 8)))
                      (local.set $p (i32.add (local.get $p) (i32.const 1)))
                      (br $eachP)))
                  (local.set $w (i32.add (local.get $w) (i32.const 1)))
                  (br $eachW)))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $eachQ)))
          ;; per word and level: the level's places in the words before (base[] counts as it goes)
          (memory.fill (local.get $base) (i32.const 0) (i32.shl (local.get $L) (i32.const 2)))
          (local.set $w (i32.const 0))
          (block $w2done
            (loop $eachW2
              (br_if $w2done (i32.ge_u (local.get $w) (local.get $W)))
              (local.set $wp (i32.add (local.get $planes) (i32.shl (i32.mul (local.get $w) (local.get $P)) (i32.const 3))))
              (local.set $cw (i32.add (local.get $cnt) (i32.shl (i32.mul (local.get $w) (local.get $L)) (i32.const 2))))
              (local.set $s (i32.const 0))
              (block $sdone
                (loop $eachS
                  (br_if $sdone (i32.ge_u (local.get $s) (local.get $L)))
                  (local.set $mask (call $levelMask (local.get $wp) (local.get $P) (local.get $s)))
                  (local.set $tmp (i32.load (i32.add (local.get $base) (i32.shl (local.get $s) (i32.const 2)))))
                  (i32.store (i32.add (local.get $cw) (i32.shl (local.get $s) (i32.const 2))) (local.get $tmp))
                  (i32.store (i32.add (local.get $base) (i32.shl (local.get $s) (i32.const 2)))
                    (i32.add (local.get $tmp) (i32.wrap_i64 (i64.popcnt (local.get $mask)))))
                  (local.set $s (i32.add (local.get $s) (i32.const 1)))
                  (br $eachS)))
              (local.set $w (i32.add (local.get $w) (i32.const 1)))
              (br $eachW2)))
          ;; base[s] = the touched places of a higher score (s >= 1); base[0] = every touched place.
          ;; (Level 0's count is never read: its last word's bits past n are not places.)
          (local.set $acc (i32.const 0))
          (local.set $s (local.get $take))
          (block $bdone
            (loop $eachB
              (br_if $bdone (i32.eqz (local.get $s)))
              (local.set $tmp (i32.load (i32.add (local.get $base) (i32.shl (local.get $s) (i32.const 2)))))
              (i32.store (i32.add (local.get $base) (i32.shl (local.get $s) (i32.const 2))) (local.get $acc))
              (local.set $acc (i32.add (local.get $acc) (local.get $tmp)))
              (local.set $s (i32.sub (local.get $s) (i32.const 1)))
              (br $eachB)))
          (i32.store (local.get $base) (local.get $acc))
          ;; S's places
          (local.set $sum (i64.const 0))
          (local.set $hits (i32.const 0))
          (local.set $p (local.get $from))
          (block $idone
            (loop $eachI
              (br_if $idone (i32.ge_u (local.get $p) (local.get $to)))
              (local.set $r (i32.load (i32.add (local.get $tPlaces) (i32.shl (local.get $p) (i32.const 2)))))
              (local.set $w (i32.shr_u (local.get $r) (i32.const 6)))
              (local.set $b (i64.extend_i32_u (i32.and (local.get $r) (i32.const 63))))
              (local.set $wp (i32.add (local.get $planes) (i32.shl (i32.mul (local.get $w) (local.get $P)) (i32.const 3))))
              ;; the place's score from its bit in each plane
              (local.set $s (i32.const 0))
              (local.set $q (i32.const 0))
              (block $vdone
                (loop $eachV
                  (br_if $vdone (i32.ge_u (local.get $q) (local.get $P)))
                  (local.set $s (i32.or (local.get $s)
                    (i32.shl (i32.wrap_i64 (i64.and (i64.shr_u (i64.load (i32.add (local.get $wp) (i32.shl (local.get $q) (i32.const 3)))) (local.get $b)) (i64.const 1)))
                             (local.get $q))))
                  (local.set $q (i32.add (local.get $q) (i32.const 1)))
                  (br $eachV)))
              (local.set $mask (i64.and (call $levelMask (local.get $wp) (local.get $P) (local.get $s))
                                        (i64.sub (i64.shl (i64.const 1) (local.get $b)) (i64.const 1))))
              (local.set $pos (i32.add
                (i32.add (i32.load (i32.add (local.get $base) (i32.shl (local.get $s) (i32.const 2))))
                         (i32.load (i32.add (local.get $cnt) (i32.shl (i32.add (i32.mul (local.get $w) (local.get $L)) (local.get $s)) (i32.const 2)))))
                (i32.wrap_i64 (i64.popcnt (local.get $mask)))))
              (local.set $sum (i64.add (local.get $sum) (i64.extend_i32_u (local.get $pos))))
              (local.set $hits (i32.add (local.get $hits) (i32.lt_u (local.get $pos) (local.get $precAt))))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $eachI)))
          (call $inferStore (local.get $out) (local.get $i) (local.get $m) (i32.sub (local.get $n) (local.get $m)) (local.get $sum) (local.get $hits) (local.get $precAt)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $targets))))

  ;; inferRank for at most 15 neighbours: the same counts with the four planes of a word in locals.
  ;; Word by word: every neighbour's word added (ripple carry), the planes stored for S's places,
  ;; then each level's mask counted into the prefix, so the planes make one trip through memory.
  (func (export "inferRank4") (param $bits i32) (param $W i32) (param $take i32) (param $todo i32) (param $count i32)
        (param $tPtr i32) (param $tPlaces i32) (param $nearest i32) (param $out i32)
        (param $planes i32) (param $cnt i32) (param $base i32) (param $nbs i32) (param $pairs i32) (param $n i32) (param $precAt i32)
    (local $i i32) (local $j i32) (local $from i32) (local $to i32) (local $m i32) (local $q i32) (local $w i32)
    (local $L i32) (local $s i32) (local $acc i32) (local $tmp i32) (local $r i32) (local $wp i32)
    (local $cw i32) (local $pw i32) (local $a i32) (local $off i32) (local $pos i32) (local $hits i32)
    (local $c i64) (local $t i64) (local $p0 i64) (local $p1 i64) (local $p2 i64) (local $p3 i64)
    (local $n0 i64) (local $n1 i64) (local $n2 i64) (local $n3 i64) (local $mask i64) (local $b i64) (local $sum i64)
    (local.set $L (i32.add (local.get $take) (i32.const 1)))
    (block $tdone
      (loop $targets
        (br_if $tdone (i32.ge_u (local.get $j) (local.get $count)))
        (local.set $i (i32.load (i32.add (local.get $todo) (i32.shl (local.get $j) (i32.const 2)))))
        (local.set $from (i32.load (i32.add (local.get $tPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $to (i32.load offset=4 (i32.add (local.get $tPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $m (i32.sub (local.get $to) (local.get $from)))
        (block $skip
          (if (i32.or (i32.eqz (local.get $m)) (i32.eq (local.get $m) (local.get $n)))
            (then
              (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 4))) (f64.const nan))
              (f64.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 4))) (f64.const nan))
              (br $skip)))
          ;; the neighbours' rows
          (local.set $q (i32.const 0))
          (block $adone
            (loop $eachA
              (br_if $adone (i32.ge_u (local.get $q) (local.get $take)))
              (i32.store (i32.add (local.get $nbs) (i32.shl (local.get $q) (i32.const 2)))
                (i32.add (local.get $bits)
                  (i32.shl (i32.mul (i32.load (i32.add (local.get $nearest)
                    (i32.shl (i32.add (i32.mul (local.get $j) (local.get $take)) (local.get $q)) (i32.const 2))))
                    (local.get $W)) (i32.const 3))))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $eachA)))
          (memory.fill (local.get $base) (i32.const 0) (i32.shl (local.get $L) (i32.const 2)))
          (local.set $w (i32.const 0))
          (local.set $wp (local.get $planes))
          (local.set $pw (local.get $pairs))
          (local.set $cw (local.get $cnt))
          (block $wdone
            (loop $eachW
              (br_if $wdone (i32.ge_u (local.get $w) (local.get $W)))
              (local.set $off (i32.shl (local.get $w) (i32.const 3)))
              (local.set $p0 (i64.const 0))
              (local.set $p1 (i64.const 0))
              (local.set $p2 (i64.const 0))
              (local.set $p3 (i64.const 0))
              (local.set $q (i32.const 0))
              (block $qdone
                (loop $eachQ
                  (br_if $qdone (i32.ge_u (local.get $q) (local.get $take)))
                  (local.set $c (i64.load (i32.add (i32.load (i32.add (local.get $nbs) (i32.shl (local.get $q) (i32.const 2)))) (local.get $off))))
                  (local.set $t (i64.and (local.get $p0) (local.get $c)))
                  (local.set $p0 (i64.xor (local.get $p0) (local.get $c)))
                  (local.set $c (i64.and (local.get $p1) (local.get $t)))
                  (local.set $p1 (i64.xor (local.get $p1) (local.get $t)))
                  (local.set $t (i64.and (local.get $p2) (local.get $c)))
                  (local.set $p2 (i64.xor (local.get $p2) (local.get $c)))
                  (local.set $p3 (i64.xor (local.get $p3) (local.get $t)))
                  (local.set $q (i32.add (local.get $q) (i32.const 1)))
                  (br $eachQ)))
              (i64.store (local.get $wp) (local.get $p0))
              (i64.store offset=8 (local.get $wp) (local.get $p1))
              (i64.store offset=16 (local.get $wp) (local.get $p2))
              (i64.store offset=24 (local.get $wp) (local.get $p3))
              ;; the places of each (p1, p0) and each (p3, p2) pair of bits: level s is lo[s & 3] & hi[s >> 2]
              (local.set $n0 (i64.xor (local.get $p0) (i64.const -1)))
              (local.set $n1 (i64.xor (local.get $p1) (i64.const -1)))
              (local.set $n2 (i64.xor (local.get $p2) (i64.const -1)))
              (local.set $n3 (i64.xor (local.get $p3) (i64.const -1)))
              (i64.store (local.get $pw) (i64.and (local.get $n1) (local.get $n0)))
              (i64.store offset=8 (local.get $pw) (i64.and (local.get $n1) (local.get $p0)))
              (i64.store offset=16 (local.get $pw) (i64.and (local.get $p1) (local.get $n0)))
              (i64.store offset=24 (local.get $pw) (i64.and (local.get $p1) (local.get $p0)))
              (i64.store offset=32 (local.get $pw) (i64.and (local.get $n3) (local.get $n2)))
              (i64.store offset=40 (local.get $pw) (i64.and (local.get $n3) (local.get $p2)))
              (i64.store offset=48 (local.get $pw) (i64.and (local.get $p3) (local.get $n2)))
              (i64.store offset=56 (local.get $pw) (i64.and (local.get $p3) (local.get $p2)))
              (local.set $s (i32.const 0))
              (local.set $a (local.get $base))
              (local.set $r (local.get $cw))
              (block $sdone
                (loop $eachS
                  (br_if $sdone (i32.ge_u (local.get $s) (local.get $L)))
                  (local.set $mask (i64.and
                    (i64.load (i32.add (local.get $pw) (i32.shl (i32.and (local.get $s) (i32.const 3)) (i32.const 3))))
                    (i64.load offset=32 (i32.add (local.get $pw) (i32.shl (i32.shr_u (local.get $s) (i32.const 2)) (i32.const 3))))))
                  (local.set $tmp (i32.load (local.get $a)))
                  (i32.store (local.get $r) (local.get $tmp))
                  (i32.store (local.get $a) (i32.add (local.get $tmp) (i32.wrap_i64 (i64.popcnt (local.get $mask)))))
                  (local.set $a (i32.add (local.get $a) (i32.const 4)))
                  (local.set $r (i32.add (local.get $r) (i32.const 4)))
                  (local.set $s (i32.add (local.get $s) (i32.const 1)))
                  (br $eachS)))
              (local.set $wp (i32.add (local.get $wp) (i32.const 32)))
              (local.set $pw (i32.add (local.get $pw) (i32.const 64)))
              (local.set $cw (i32.add (local.get $cw) (i32.const 64)))
              (local.set $w (i32.add (local.get $w) (i32.const 1)))
              (br $eachW)))
          ;; base[s] as in inferRank
          (local.set $acc (i32.const 0))
          (local.set $s (local.get $take))
          (block $bdone
            (loop $eachB
              (br_if $bdone (i32.eqz (local.get $s)))
              (local.set $a (i32.add (local.get $base) (i32.shl (local.get $s) (i32.const 2))))
              (local.set $tmp (i32.load (local.get $a)))
              (i32.store (local.get $a) (local.get $acc))
              (local.set $acc (i32.add (local.get $acc) (local.get $tmp)))
              (local.set $s (i32.sub (local.get $s) (i32.const 1)))
              (br $eachB)))
          (i32.store (local.get $base) (local.get $acc))
          ;; S's places
          (local.set $sum (i64.const 0))
          (local.set $hits (i32.const 0))
          (local.set $q (local.get $from))
          (block $idone
            (loop $eachI
              (br_if $idone (i32.ge_u (local.get $q) (local.get $to)))
              (local.set $r (i32.load (i32.add (local.get $tPlaces) (i32.shl (local.get $q) (i32.const 2)))))
              (local.set $w (i32.shr_u (local.get $r) (i32.const 6)))
              (local.set $b (i64.extend_i32_u (i32.and (local.get $r) (i32.const 63))))
              (local.set $wp (i32.add (local.get $planes) (i32.shl (local.get $w) (i32.const 5))))
              (local.set $p0 (i64.load (local.get $wp)))
              (local.set $p1 (i64.load offset=8 (local.get $wp)))
              (local.set $p2 (i64.load offset=16 (local.get $wp)))
              (local.set $p3 (i64.load offset=24 (local.get $wp)))
              (local.set $s (i32.wrap_i64 (i64.or
                (i64.or (i64.and (i64.shr_u (local.get $p0) (local.get $b)) (i64.const 1))
                        (i64.shl (i64.and (i64.shr_u (local.get $p1) (local.get $b)) (i64.const 1)) (i64.const 1)))
                (i64.or (i64.shl (i64.and (i64.shr_u (local.get $p2) (local.get $b)) (i64.const 1)) (i64.const 2))
                        (i64.shl (i64.and (i64.shr_u (local.get $p3) (local.get $b)) (i64.const 1)) (i64.const 3))))))
              (local.set $pw (i32.add (local.get $pairs) (i32.shl (local.get $w) (i32.const 6))))
              (local.set $mask (i64.and
                (i64.and
                  (i64.load (i32.add (local.get $pw) (i32.shl (i32.and (local.get $s) (i32.const 3)) (i32.const 3))))
                  (i64.load offset=32 (i32.add (local.get $pw) (i32.shl (i32.shr_u (local.get $s) (i32.const 2)) (i32.const 3)))))
                (i64.sub (i64.shl (i64.const 1) (local.get $b)) (i64.const 1))))
              (local.set $pos (i32.add
                (i32.add (i32.load (i32.add (local.get $base) (i32.shl (local.get $s) (i32.const 2))))
                         (i32.load (i32.add (local.get $cnt) (i32.shl (i32.add (i32.shl (local.get $w) (i32.const 4)) (local.get $s)) (i32.const 2)))))
                (i32.wrap_i64 (i64.popcnt (local.get $mask)))))
              (local.set $sum (i64.add (local.get $sum) (i64.extend_i32_u (local.get $pos))))
              (local.set $hits (i32.add (local.get $hits) (i32.lt_u (local.get $pos) (local.get $precAt))))
              (local.set $q (i32.add (local.get $q) (i32.const 1)))
              (br $eachI)))
          (call $inferStore (local.get $out) (local.get $i) (local.get $m) (i32.sub (local.get $n) (local.get $m)) (local.get $sum) (local.get $hits) (local.get $precAt)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $targets))))

  ;; auc and prec of target i into out: the same doubles as targetMetrics (every term an exact integer)
  (func $inferStore (param $out i32) (param $i i32) (param $m i32) (param $others i32) (param $sum i64) (param $hits i32) (param $precAt i32)
    (f64.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 4)))
      (f64.div
        (f64.sub (f64.mul (f64.convert_i32_u (local.get $m)) (f64.convert_i32_u (local.get $others)))
                 (f64.sub (f64.convert_i64_u (local.get $sum))
                          (f64.div (f64.mul (f64.convert_i32_u (local.get $m)) (f64.convert_i32_u (i32.sub (local.get $m) (i32.const 1)))) (f64.const 2))))
        (f64.mul (f64.convert_i32_u (local.get $m)) (f64.convert_i32_u (local.get $others)))))
    (f64.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 4)))
      (f64.div (f64.convert_i32_u (local.get $hits))
               (f64.convert_i32_u (select (local.get $precAt) (local.get $m) (i32.lt_u (local.get $precAt) (local.get $m)))))))

  ;; the places of word `wp`'s planes whose vote count is s: bit p of s picks plane p or its complement
  (func $levelMask (param $wp i32) (param $P i32) (param $s i32) (result i64)
    (local $mask i64) (local $p i32)
    (local.set $mask (i64.const -1))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $p) (local.get $P)))
        (local.set $mask (i64.and (local.get $mask)
          (i64.xor (i64.load (i32.add (local.get $wp) (i32.shl (local.get $p) (i32.const 3))))
                   (i64.sub (i64.extend_i32_u (i32.and (i32.shr_u (local.get $s) (local.get $p)) (i32.const 1))) (i64.const 1)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $each)))
    (local.get $mask))

  ;; ---- recommendation scoring ----
  ;; The top-N lists of src/evaluations/recommend/lists.ts (scoreQuery, topList, insert, score) for
  ;; every query of one result, driven by src/kernels/kernel.ts wasmRecommendSums: the same
  ;; operations on the same doubles in the same order, so the sums are bit for bit the JS loop's.
  ;; Per query u: the n scores cleared, u's training columns set to NaN (a sum with NaN stays NaN,
  ;; and NaN never compares greater nor equal, so they are never listed), then for each k of ks the
  ;; next neighbours' rows added (scores[c] += value, row after row in answer order), the N best
  ;; columns selected by (score desc, column asc), and HR, NDCG and recall of each N added to the
  ;; sums (query after query: the order of the JS sums). The scores hold n + 16 doubles, the last
  ;; 16 NaN (the caller's padding: the passes read blocks of 16 columns from column 0).
  ;;
  ;; The selection is bound by its mispredicted branches (one or two per column that enters the
  ;; list), not by the reads: on MovieLens at n = 1000 the scan of the columns is a fifth of it.
  ;; So the blocks skipped whole by SIMD compares, a floor that keeps most columns out of the
  ;; list's filling (recTop), and at k = 1 the list read off the one row with no pass (recOne).

  ;; One pass of lists.ts topList over the columns with a score >= t: the first nMax of them enter
  ;; the list (scores $ls, columns $lc, kept by score desc with equal scores in column order), then
  ;; a column enters only with a score above the list's last, which it pushes out. Returns the
  ;; list's length. With t = -inf these are every column but the NaN ones: topList's pass itself.
  ;; The columns are read 16 at a time (eight f64x2 compares, their bits in one mask), and a block
  ;; where none passes (NaN never does) is skipped whole; a block where some do goes through them in
  ;; column order, the list's last as it moves, which is what the column-by-column pass does (a
  ;; column not above the current last changes nothing). On MovieLens at n = 1000 a query took 4.0,
  ;; 3.7 and 3.5 µs with blocks of 4, 8 and 16 (32: 2% less again, not worth twice the compares
  ;; written out): fewer blocks hold a column entering the list, each a mispredicted branch.
  (func $recPass (param $scores i32) (param $n i32) (param $nMax i32) (param $ls i32) (param $lc i32) (param $t f64) (result i32)
    (local $len i32) (local $c i32) (local $x f64) (local $y f64) (local $worst f64) (local $wv v128) (local $tv v128) (local $p i32)
    (local $end i32) (local $m i32) (local $last i32) (local $pq i32) (local $cq i32) (local $lastAt i32)
    (local.set $last (i32.sub (local.get $nMax) (i32.const 1)))
    (local.set $lastAt (i32.add (local.get $ls) (i32.shl (local.get $last) (i32.const 3))))
    (local.set $tv (f64x2.splat (local.get $t)))
    (local.set $p (local.get $scores))
    (local.set $end (i32.add (local.get $scores) (i32.shl (local.get $n) (i32.const 3))))
    (block $full
      (loop $fill
        (br_if $full (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $m (i32.or
          (i32.or (i32.or (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=0 (local.get $p)) (local.get $tv))) (i32.const 0))
                          (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=16 (local.get $p)) (local.get $tv))) (i32.const 2)))
                  (i32.or (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=32 (local.get $p)) (local.get $tv))) (i32.const 4))
                          (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=48 (local.get $p)) (local.get $tv))) (i32.const 6))))
          (i32.or (i32.or (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=64 (local.get $p)) (local.get $tv))) (i32.const 8))
                          (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=80 (local.get $p)) (local.get $tv))) (i32.const 10)))
                  (i32.or (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=96 (local.get $p)) (local.get $tv))) (i32.const 12))
                          (i32.shl (i64x2.bitmask (f64x2.ge (v128.load offset=112 (local.get $p)) (local.get $tv))) (i32.const 14))))))
        (if (local.get $m)
          (then
            (loop $each
              (local.set $c (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $m)) (i32.const 3))))
              (local.set $x (f64.load (local.get $c)))
              (if (i32.lt_u (local.get $len) (local.get $nMax))
                (then
                  (local.set $pq (i32.sub (i32.add (local.get $ls) (i32.shl (local.get $len) (i32.const 3))) (i32.const 8)))
                  (local.set $cq (i32.sub (i32.add (local.get $lc) (i32.shl (local.get $len) (i32.const 2))) (i32.const 4)))
                  (block $placed
                    (loop $up
                      (br_if $placed (i32.lt_u (local.get $pq) (local.get $ls)))
                      (local.set $y (f64.load (local.get $pq)))
                      (br_if $placed (i32.eqz (f64.gt (local.get $x) (local.get $y))))
                      (f64.store offset=8 (local.get $pq) (local.get $y))
                      (i32.store offset=4 (local.get $cq) (i32.load (local.get $cq)))
                      (local.set $pq (i32.sub (local.get $pq) (i32.const 8)))
                      (local.set $cq (i32.sub (local.get $cq) (i32.const 4)))
                      (br $up)))
                  (f64.store offset=8 (local.get $pq) (local.get $x))
                  (i32.store offset=4 (local.get $cq) (i32.shr_u (i32.sub (local.get $c) (local.get $scores)) (i32.const 3)))
                  (local.set $len (i32.add (local.get $len) (i32.const 1)))
                  (if (i32.eq (local.get $len) (local.get $nMax)) (then (local.set $worst (f64.load (local.get $lastAt))))))
                (else
                  (if (f64.gt (local.get $x) (local.get $worst))
                    (then
                      (local.set $pq (i32.sub (i32.add (local.get $ls) (i32.shl (local.get $last) (i32.const 3))) (i32.const 8)))
                      (local.set $cq (i32.sub (i32.add (local.get $lc) (i32.shl (local.get $last) (i32.const 2))) (i32.const 4)))
                      (block $placed
                        (loop $up
                          (br_if $placed (i32.lt_u (local.get $pq) (local.get $ls)))
                          (local.set $y (f64.load (local.get $pq)))
                          (br_if $placed (i32.eqz (f64.gt (local.get $x) (local.get $y))))
                          (f64.store offset=8 (local.get $pq) (local.get $y))
                          (i32.store offset=4 (local.get $cq) (i32.load (local.get $cq)))
                          (local.set $pq (i32.sub (local.get $pq) (i32.const 8)))
                          (local.set $cq (i32.sub (local.get $cq) (i32.const 4)))
                          (br $up)))
                      (f64.store offset=8 (local.get $pq) (local.get $x))
                      (i32.store offset=4 (local.get $cq) (i32.shr_u (i32.sub (local.get $c) (local.get $scores)) (i32.const 3)))
                      (local.set $worst (f64.load (local.get $lastAt)))))))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $each (local.get $m)))))
        (local.set $p (i32.add (local.get $p) (i32.const 128)))
        (br_if $fill (i32.lt_u (local.get $len) (local.get $nMax)))))
    (if (i32.lt_u (local.get $len) (local.get $nMax)) (then (return (local.get $len))))
    (local.set $wv (f64x2.splat (local.get $worst)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $m (i32.or
          (i32.or (i32.or (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=0 (local.get $p)) (local.get $wv))) (i32.const 0))
                          (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=16 (local.get $p)) (local.get $wv))) (i32.const 2)))
                  (i32.or (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=32 (local.get $p)) (local.get $wv))) (i32.const 4))
                          (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=48 (local.get $p)) (local.get $wv))) (i32.const 6))))
          (i32.or (i32.or (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=64 (local.get $p)) (local.get $wv))) (i32.const 8))
                          (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=80 (local.get $p)) (local.get $wv))) (i32.const 10)))
                  (i32.or (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=96 (local.get $p)) (local.get $wv))) (i32.const 12))
                          (i32.shl (i64x2.bitmask (f64x2.gt (v128.load offset=112 (local.get $p)) (local.get $wv))) (i32.const 14))))))
        (if (local.get $m)
          (then
            (loop $each
              (local.set $c (i32.add (local.get $p) (i32.shl (i32.ctz (local.get $m)) (i32.const 3))))
              (local.set $x (f64.load (local.get $c)))
              (if (f64.gt (local.get $x) (local.get $worst))
                (then
                  (local.set $pq (i32.sub (i32.add (local.get $ls) (i32.shl (local.get $last) (i32.const 3))) (i32.const 8)))
                  (local.set $cq (i32.sub (i32.add (local.get $lc) (i32.shl (local.get $last) (i32.const 2))) (i32.const 4)))
                  (block $placed
                    (loop $up
                      (br_if $placed (i32.lt_u (local.get $pq) (local.get $ls)))
                      (local.set $y (f64.load (local.get $pq)))
                      (br_if $placed (i32.eqz (f64.gt (local.get $x) (local.get $y))))
                      (f64.store offset=8 (local.get $pq) (local.get $y))
                      (i32.store offset=4 (local.get $cq) (i32.load (local.get $cq)))
                      (local.set $pq (i32.sub (local.get $pq) (i32.const 8)))
                      (local.set $cq (i32.sub (local.get $cq) (i32.const 4)))
                      (br $up)))
                  (f64.store offset=8 (local.get $pq) (local.get $x))
                  (i32.store offset=4 (local.get $cq) (i32.shr_u (i32.sub (local.get $c) (local.get $scores)) (i32.const 3)))
                  (local.set $worst (f64.load (local.get $lastAt)))))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $each (local.get $m)))
            (local.set $wv (f64x2.splat (local.get $worst)))))
        (local.set $p (i32.add (local.get $p) (i32.const 128)))
        (br $blocks)))
    (local.get $len))

  ;; lists.ts topList for one k, exactly: a first pass with the floor t = g - |g|/2 from the guess g
  ;; at $guess (the last listed score of the previous query at this k; -inf at first), kept
  ;; only if it fills the list. Then at least nMax columns score >= t, so the nMax best (by score
  ;; desc, column asc) all do, and the pass over them lists the same columns in the same order as
  ;; the pass over every column; otherwise a second pass with t = -inf. The floor keeps the columns
  ;; below it out of the filling and most of their insertions (MovieLens at n = 1000: 3.5 against
  ;; 4.0 µs a query without it; g less a quarter of |g| was slower, more second passes, and less
  ;; three quarters too, more columns let in); the guess changes only the time, never the list.
  (func $recTop (param $scores i32) (param $n i32) (param $nMax i32) (param $ls i32) (param $lc i32) (param $guess i32) (result i32)
    (local $len i32) (local $g f64) (local $t f64)
    (local.set $g (f64.load (local.get $guess)))
    (local.set $t (f64.sub (local.get $g) (f64.mul (f64.abs (local.get $g)) (f64.const 0.5))))
    (local.set $len (call $recPass (local.get $scores) (local.get $n) (local.get $nMax) (local.get $ls) (local.get $lc) (local.get $t)))
    (if (i32.and (i32.lt_u (local.get $len) (local.get $nMax)) (f64.ne (local.get $t) (f64.const -inf)))
      (then (local.set $len (call $recPass (local.get $scores) (local.get $n) (local.get $nMax) (local.get $ls) (local.get $lc) (f64.const -inf)))))
    (if (i32.eq (local.get $len) (local.get $nMax))
      (then (f64.store (local.get $guess) (f64.load (i32.add (local.get $ls) (i32.shl (i32.sub (local.get $nMax) (i32.const 1)) (i32.const 3)))))))
    (local.get $len))

  ;; lists.ts topList when exactly one neighbour's row is in the scores (k = 1: the nearest alone): the
  ;; scores are then that row's values on its columns (NaN on the query's training ones) and 0
  ;; everywhere else but the training columns, so the list is the row's positive columns by (score
  ;; desc, column asc), then the zero columns in column order, then the negative ones. The positive
  ;; columns are gathered from the row (its columns ascending and distinct: the caller checks) into
  ;; $buf without a branch per entry, and enter the list as in a pass over the columns; the zeros are
  ;; appended from column 0 (each after every entry, in column order) by blocks of 16 compares.
  ;; Returns the list's length, short only when the negative columns would be needed (then the
  ;; caller runs a pass over every column). On MovieLens at n = 1000 a query took 3.1 against 3.5 µs
  ;; with the floored pass at k = 1, most of whose lists end in zeros (fewer than N positive scores).
  (func $recOne (param $scores i32) (param $n i32) (param $nMax i32) (param $ls i32) (param $lc i32)
                (param $pc i32) (param $pe i32) (param $buf i32) (result i32)
    (local $w i32) (local $i i32) (local $c i32) (local $x f64) (local $y f64) (local $worst f64) (local $len i32)
    (local $last i32) (local $lastAt i32) (local $pq i32) (local $cq i32) (local $p i32) (local $end i32) (local $m i32)
    (local $zero v128)
    (local.set $last (i32.sub (local.get $nMax) (i32.const 1)))
    (local.set $lastAt (i32.add (local.get $ls) (i32.shl (local.get $last) (i32.const 3))))
    ;; the row's columns of a positive score, in column order, without a branch per entry
    (block $cdone
      (loop $compact
        (br_if $cdone (i32.ge_u (local.get $pc) (local.get $pe)))
        (local.set $c (i32.load (local.get $pc)))
        (i32.store (i32.add (local.get $buf) (i32.shl (local.get $w) (i32.const 2))) (local.get $c))
        (local.set $w (i32.add (local.get $w)
          (f64.gt (f64.load (i32.add (local.get $scores) (i32.shl (local.get $c) (i32.const 3)))) (f64.const 0))))
        (local.set $pc (i32.add (local.get $pc) (i32.const 4)))
        (br $compact)))
    ;; they enter as in a pass over the columns
    (block $pdone
      (loop $each
        (br_if $pdone (i32.ge_u (local.get $i) (local.get $w)))
        (local.set $c (i32.load (i32.add (local.get $buf) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $x (f64.load (i32.add (local.get $scores) (i32.shl (local.get $c) (i32.const 3)))))
        (if (i32.lt_u (local.get $len) (local.get $nMax))
          (then
            (local.set $pq (i32.sub (i32.add (local.get $ls) (i32.shl (local.get $len) (i32.const 3))) (i32.const 8)))
            (local.set $cq (i32.sub (i32.add (local.get $lc) (i32.shl (local.get $len) (i32.const 2))) (i32.const 4)))
            (block $placed
              (loop $up
                (br_if $placed (i32.lt_u (local.get $pq) (local.get $ls)))
                (local.set $y (f64.load (local.get $pq)))
                (br_if $placed (i32.eqz (f64.gt (local.get $x) (local.get $y))))
                (f64.store offset=8 (local.get $pq) (local.get $y))
                (i32.store offset=4 (local.get $cq) (i32.load (local.get $cq)))
                (local.set $pq (i32.sub (local.get $pq) (i32.const 8)))
                (local.set $cq (i32.sub (local.get $cq) (i32.const 4)))
                (br $up)))
            (f64.store offset=8 (local.get $pq) (local.get $x))
            (i32.store offset=4 (local.get $cq) (local.get $c))
            (local.set $len (i32.add (local.get $len) (i32.const 1)))
            (if (i32.eq (local.get $len) (local.get $nMax)) (then (local.set $worst (f64.load (local.get $lastAt))))))
          (else
            (if (f64.gt (local.get $x) (local.get $worst))
              (then
                (local.set $pq (i32.sub (i32.add (local.get $ls) (i32.shl (local.get $last) (i32.const 3))) (i32.const 8)))
                (local.set $cq (i32.sub (i32.add (local.get $lc) (i32.shl (local.get $last) (i32.const 2))) (i32.const 4)))
                (block $placed
                  (loop $up
                    (br_if $placed (i32.lt_u (local.get $pq) (local.get $ls)))
                    (local.set $y (f64.load (local.get $pq)))
                    (br_if $placed (i32.eqz (f64.gt (local.get $x) (local.get $y))))
                    (f64.store offset=8 (local.get $pq) (local.get $y))
                    (i32.store offset=4 (local.get $cq) (i32.load (local.get $cq)))
                    (local.set $pq (i32.sub (local.get $pq) (i32.const 8)))
                    (local.set $cq (i32.sub (local.get $cq) (i32.const 4)))
                    (br $up)))
                (f64.store offset=8 (local.get $pq) (local.get $x))
                (i32.store offset=4 (local.get $cq) (local.get $c))
                (local.set $worst (f64.load (local.get $lastAt)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (if (i32.eq (local.get $len) (local.get $nMax)) (then (return (local.get $len))))
    ;; then the zeros, in column order after every positive score: appended
    (local.set $p (local.get $scores))
    (local.set $end (i32.add (local.get $scores) (i32.shl (local.get $n) (i32.const 3))))
    (block $zdone
      (loop $blocks
        (br_if $zdone (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $m (i32.or
          (i32.or (i32.or (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=0 (local.get $p)) (local.get $zero))) (i32.const 0))
                          (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=16 (local.get $p)) (local.get $zero))) (i32.const 2)))
                  (i32.or (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=32 (local.get $p)) (local.get $zero))) (i32.const 4))
                          (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=48 (local.get $p)) (local.get $zero))) (i32.const 6))))
          (i32.or (i32.or (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=64 (local.get $p)) (local.get $zero))) (i32.const 8))
                          (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=80 (local.get $p)) (local.get $zero))) (i32.const 10)))
                  (i32.or (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=96 (local.get $p)) (local.get $zero))) (i32.const 12))
                          (i32.shl (i64x2.bitmask (f64x2.eq (v128.load offset=112 (local.get $p)) (local.get $zero))) (i32.const 14))))))
        (block $bdone
          (loop $lanes
            (br_if $bdone (i32.eqz (local.get $m)))
            (f64.store (i32.add (local.get $ls) (i32.shl (local.get $len) (i32.const 3))) (f64.const 0))
            (i32.store (i32.add (local.get $lc) (i32.shl (local.get $len) (i32.const 2)))
              (i32.add (i32.shr_u (i32.sub (local.get $p) (local.get $scores)) (i32.const 3)) (i32.ctz (local.get $m))))
            (local.set $len (i32.add (local.get $len) (i32.const 1)))
            (br_if $zdone (i32.eq (local.get $len) (local.get $nMax)))
            (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
            (br $lanes)))
        (local.set $p (i32.add (local.get $p) (i32.const 128)))
        (br $blocks)))
    (local.get $len))

  ;; Every query of one result (lists.ts recommendMeans without a memo, up to the division by the
  ;; number of queries, which the caller does). Memory (laid out by the caller): the vectors' CSR
  ;; rowPtr (i32, users + 1), colIdx (i32), values (f64); the split's trainPtr/trainCol and
  ;; heldPtr/heldCol (i32); queries (i32, nq); answers (i32, nq x width); ks (i32, nk) and top (i32,
  ;; nt), both ascending; disc (f64, the last N: 1/log2(r + 1) as JS computed it); scratch: scores
  ;; (f64, n + 16, the last 16 NaN), rel (u8, n, zero), the list (f64 and i32, the last N); sums (f64,
  ;; 3 x nk x nt, zero): HR of cell c = ki * nt + ni at c, NDCG at cells + c, recall at 2 cells + c;
  ;; guess (f64, nk, -inf): recTop's guess per k; buf (i32, n): recOne's scratch. The vectors' rows
  ;; hold distinct columns in ascending order (recOne reads the columns of one row as its list).
  ;; Every query has a held-out item and every index is in range (the caller checks); the list
  ;; starts at address 8 or above (an insertion's pointer stops one entry below it, unsigned).
  (func (export "recScore") (param $rowPtr i32) (param $colIdx i32) (param $values i32)
                            (param $trainPtr i32) (param $trainCol i32) (param $heldPtr i32) (param $heldCol i32)
                            (param $queries i32) (param $nq i32) (param $answers i32) (param $width i32)
                            (param $ks i32) (param $nk i32) (param $top i32) (param $nt i32) (param $disc i32)
                            (param $n i32) (param $scores i32) (param $rel i32) (param $ls i32) (param $lc i32)
                            (param $sums i32) (param $guess i32) (param $buf i32)
    (local $q i32) (local $u i32) (local $h0 i32) (local $h1 i32) (local $held i32) (local $p i32) (local $e i32)
    (local $pc i32) (local $pv i32) (local $a i32) (local $row i32) (local $done i32) (local $ki i32) (local $kk i32)
    (local $v i32) (local $len i32) (local $nMax i32) (local $cells i32) (local $ni i32) (local $N i32)
    (local $hits i32) (local $dcg f64) (local $rank i32) (local $ideal f64) (local $irank i32) (local $cell i32)
    (local.set $nMax (i32.load (i32.add (local.get $top) (i32.shl (i32.sub (local.get $nt) (i32.const 1)) (i32.const 2)))))
    (local.set $cells (i32.mul (local.get $nk) (local.get $nt)))
    (block $qdone
      (loop $query
        (br_if $qdone (i32.ge_u (local.get $q) (local.get $nq)))
        (local.set $u (i32.load (i32.add (local.get $queries) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $h0 (i32.load (i32.add (local.get $heldPtr) (i32.shl (local.get $u) (i32.const 2)))))
        (local.set $h1 (i32.load offset=4 (i32.add (local.get $heldPtr) (i32.shl (local.get $u) (i32.const 2)))))
        (local.set $held (i32.sub (local.get $h1) (local.get $h0)))
        ;; the scores cleared, 2 doubles a store (an odd n's last one alone: the padding stays NaN)
        (local.set $a (local.get $scores))
        (local.set $e (i32.add (local.get $scores) (i32.shl (local.get $n) (i32.const 3))))
        (block $zdone
          (loop $zero
            (br_if $zdone (i32.gt_u (i32.add (local.get $a) (i32.const 16)) (local.get $e)))
            (v128.store (local.get $a) (v128.const i64x2 0 0))
            (local.set $a (i32.add (local.get $a) (i32.const 16)))
            (br $zero)))
        (if (i32.lt_u (local.get $a) (local.get $e)) (then (f64.store (local.get $a) (f64.const 0))))
        ;; the query's training columns: NaN, no candidates
        (local.set $p (i32.add (local.get $trainCol)
          (i32.shl (i32.load (i32.add (local.get $trainPtr) (i32.shl (local.get $u) (i32.const 2)))) (i32.const 2))))
        (local.set $e (i32.add (local.get $trainCol)
          (i32.shl (i32.load offset=4 (i32.add (local.get $trainPtr) (i32.shl (local.get $u) (i32.const 2)))) (i32.const 2))))
        (block $tdone
          (loop $train
            (br_if $tdone (i32.ge_u (local.get $p) (local.get $e)))
            (f64.store (i32.add (local.get $scores) (i32.shl (i32.load (local.get $p)) (i32.const 3))) (f64.const nan))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $train)))
        ;; the held-out columns marked relevant (cleared again after the query)
        (local.set $p (i32.add (local.get $heldCol) (i32.shl (local.get $h0) (i32.const 2))))
        (local.set $e (i32.add (local.get $heldCol) (i32.shl (local.get $h1) (i32.const 2))))
        (block $mdone
          (loop $mark
            (br_if $mdone (i32.ge_u (local.get $p) (local.get $e)))
            (i32.store8 (i32.add (local.get $rel) (i32.load (local.get $p))) (i32.const 1))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $mark)))
        (local.set $row (i32.add (local.get $answers) (i32.shl (i32.mul (local.get $q) (local.get $width)) (i32.const 2))))
        (local.set $done (i32.const 0))
        (local.set $ki (i32.const 0))
        (block $kdone
          (loop $eachK
            (br_if $kdone (i32.ge_u (local.get $ki) (local.get $nk)))
            (local.set $kk (i32.load (i32.add (local.get $ks) (i32.shl (local.get $ki) (i32.const 2)))))
            ;; the next neighbours' rows added (lists.ts addRow), in answer order
            (block $rdone
              (loop $rows
                (br_if $rdone (i32.ge_u (local.get $done) (local.get $kk)))
                (local.set $v (i32.load (i32.add (local.get $row) (i32.shl (local.get $done) (i32.const 2)))))
                (local.set $p (i32.load (i32.add (local.get $rowPtr) (i32.shl (local.get $v) (i32.const 2)))))
                (local.set $e (i32.load offset=4 (i32.add (local.get $rowPtr) (i32.shl (local.get $v) (i32.const 2)))))
                (local.set $pc (i32.add (local.get $colIdx) (i32.shl (local.get $p) (i32.const 2))))
                (local.set $pv (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 3))))
                (local.set $e (i32.add (local.get $colIdx) (i32.shl (local.get $e) (i32.const 2))))
                (block $edone
                  (loop $entry
                    (br_if $edone (i32.ge_u (local.get $pc) (local.get $e)))
                    (local.set $a (i32.add (local.get $scores) (i32.shl (i32.load (local.get $pc)) (i32.const 3))))
                    (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.load (local.get $pv))))
                    (local.set $pc (i32.add (local.get $pc) (i32.const 4)))
                    (local.set $pv (i32.add (local.get $pv) (i32.const 8)))
                    (br $entry)))
                (local.set $done (i32.add (local.get $done) (i32.const 1)))
                (br $rows)))
            (if (i32.eq (local.get $done) (i32.const 1))
              (then
                ;; one row in the scores: the list from the row, else (negative columns needed) a pass
                (local.set $v (i32.load (local.get $row)))
                (local.set $len (call $recOne (local.get $scores) (local.get $n) (local.get $nMax) (local.get $ls) (local.get $lc)
                  (i32.add (local.get $colIdx) (i32.shl (i32.load (i32.add (local.get $rowPtr) (i32.shl (local.get $v) (i32.const 2)))) (i32.const 2)))
                  (i32.add (local.get $colIdx) (i32.shl (i32.load offset=4 (i32.add (local.get $rowPtr) (i32.shl (local.get $v) (i32.const 2)))) (i32.const 2)))
                  (local.get $buf)))
                (if (i32.lt_u (local.get $len) (local.get $nMax))
                  (then (local.set $len (call $recPass (local.get $scores) (local.get $n) (local.get $nMax) (local.get $ls) (local.get $lc) (f64.const -inf))))))
              (else
                (local.set $len (call $recTop (local.get $scores) (local.get $n) (local.get $nMax) (local.get $ls) (local.get $lc)
                  (i32.add (local.get $guess) (i32.shl (local.get $ki) (i32.const 3)))))))
            ;; lists.ts score: hits and DCG down the list, the ideal DCG over min(N, held), per N
            (local.set $hits (i32.const 0))
            (local.set $dcg (f64.const 0))
            (local.set $rank (i32.const 0))
            (local.set $ideal (f64.const 0))
            (local.set $irank (i32.const 0))
            (local.set $ni (i32.const 0))
            (block $ndone
              (loop $eachN
                (br_if $ndone (i32.ge_u (local.get $ni) (local.get $nt)))
                (local.set $N (i32.load (i32.add (local.get $top) (i32.shl (local.get $ni) (i32.const 2)))))
                (block $hdone
                  (loop $hit
                    (br_if $hdone (i32.ge_s (local.get $rank) (local.get $N)))
                    (br_if $hdone (i32.ge_s (local.get $rank) (local.get $len)))
                    (if (i32.load8_u (i32.add (local.get $rel)
                          (i32.load (i32.add (local.get $lc) (i32.shl (local.get $rank) (i32.const 2))))))
                      (then
                        (local.set $hits (i32.add (local.get $hits) (i32.const 1)))
                        (local.set $dcg (f64.add (local.get $dcg)
                          (f64.load (i32.add (local.get $disc) (i32.shl (local.get $rank) (i32.const 3))))))))
                    (local.set $rank (i32.add (local.get $rank) (i32.const 1)))
                    (br $hit)))
                (block $idone
                  (loop $ideals
                    (br_if $idone (i32.ge_s (local.get $irank) (local.get $N)))
                    (br_if $idone (i32.ge_s (local.get $irank) (local.get $held)))
                    (local.set $ideal (f64.add (local.get $ideal)
                      (f64.load (i32.add (local.get $disc) (i32.shl (local.get $irank) (i32.const 3))))))
                    (local.set $irank (i32.add (local.get $irank) (i32.const 1)))
                    (br $ideals)))
                (local.set $cell (i32.add (i32.mul (local.get $ki) (local.get $nt)) (local.get $ni)))
                (local.set $a (i32.add (local.get $sums) (i32.shl (local.get $cell) (i32.const 3))))
                (f64.store (local.get $a) (f64.add (f64.load (local.get $a))
                  (select (f64.const 1) (f64.const 0) (i32.gt_s (local.get $hits) (i32.const 0)))))
                (local.set $a (i32.add (local.get $a) (i32.shl (local.get $cells) (i32.const 3))))
                (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.div (local.get $dcg) (local.get $ideal))))
                (local.set $a (i32.add (local.get $a) (i32.shl (local.get $cells) (i32.const 3))))
                (f64.store (local.get $a) (f64.add (f64.load (local.get $a))
                  (f64.div (f64.convert_i32_s (local.get $hits)) (f64.convert_i32_s (local.get $held)))))
                (local.set $ni (i32.add (local.get $ni) (i32.const 1)))
                (br $eachN)))
            (local.set $ki (i32.add (local.get $ki) (i32.const 1)))
            (br $eachK)))
        ;; the relevance marks cleared for the next query
        (local.set $p (i32.add (local.get $heldCol) (i32.shl (local.get $h0) (i32.const 2))))
        (local.set $e (i32.add (local.get $heldCol) (i32.shl (local.get $h1) (i32.const 2))))
        (block $cdone
          (loop $clear
            (br_if $cdone (i32.ge_u (local.get $p) (local.get $e)))
            (i32.store8 (i32.add (local.get $rel) (i32.load (local.get $p))) (i32.const 0))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $clear)))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $query))))

  ;; ---- The exact angular k-NN (src/knn/angular.ts exactKnn, driven by kernel.ts wasmAngularTiles) ----
  ;; One query against one tile of users: the tile's rows transposed by column (cPtr: n + 1 offsets,
  ;; cUser: the users' u16 places in the tile, cVal: their values), the query's columns and values
  ;; in its row's order (qCol, qVal, qn entries). dot[j] for the tile's user j is the sum of
  ;; qv * x over the query's columns in that order, from +0, with a separate multiply and add: the
  ;; doubles of the JS inverted-index pass (`dot[u] += qv * value`). Then the places j whose dot is
  ;; not below thr go into cand (i32, ascending); returns their count.
  (func (export "exactDots") (param $cPtr i32) (param $cUser i32) (param $cVal i32) (param $len i32)
      (param $qCol i32) (param $qVal i32) (param $qn i32) (param $dot i32) (param $thr f64) (param $cand i32) (result i32)
    (local $i i32) (local $c i32) (local $qv f64) (local $s i32) (local $e i32) (local $a i32) (local $e2 i32)
    (local $j i32) (local $n i32) (local $tv v128) (local $m i32) (local $len2 i32)
    (memory.fill (local.get $dot) (i32.const 0) (i32.shl (local.get $len) (i32.const 3)))
    (block $cdone
      (loop $col
        (br_if $cdone (i32.ge_u (local.get $i) (local.get $qn)))
        (local.set $c (i32.add (local.get $cPtr) (i32.shl (i32.load (i32.add (local.get $qCol) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2))))
        (local.set $qv (f64.load (i32.add (local.get $qVal) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $s (i32.load (local.get $c)))
        (local.set $e (i32.load offset=4 (local.get $c)))
        (local.set $e2 (i32.sub (local.get $e) (i32.const 1)))
        ;; two postings per iteration
        (block $pdone
          (loop $post
            (br_if $pdone (i32.ge_s (local.get $s) (local.get $e2)))
            (local.set $a (i32.add (local.get $dot) (i32.shl (i32.load16_u (i32.add (local.get $cUser) (i32.shl (local.get $s) (i32.const 1)))) (i32.const 3))))
            (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.mul (local.get $qv) (f64.load (i32.add (local.get $cVal) (i32.shl (local.get $s) (i32.const 3)))))))
            (local.set $a (i32.add (local.get $dot) (i32.shl (i32.load16_u offset=2 (i32.add (local.get $cUser) (i32.shl (local.get $s) (i32.const 1)))) (i32.const 3))))
            (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.mul (local.get $qv) (f64.load offset=8 (i32.add (local.get $cVal) (i32.shl (local.get $s) (i32.const 3)))))))
            (local.set $s (i32.add (local.get $s) (i32.const 2)))
            (br $post)))
        (if (i32.lt_s (local.get $s) (local.get $e))
          (then
            (local.set $a (i32.add (local.get $dot) (i32.shl (i32.load16_u (i32.add (local.get $cUser) (i32.shl (local.get $s) (i32.const 1)))) (i32.const 3))))
            (f64.store (local.get $a) (f64.add (f64.load (local.get $a)) (f64.mul (local.get $qv) (f64.load (i32.add (local.get $cVal) (i32.shl (local.get $s) (i32.const 3)))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $col)))
    ;; scan: four users per step, a lane per user not below thr
    (local.set $tv (f64x2.splat (local.get $thr)))
    (local.set $len2 (i32.and (local.get $len) (i32.const -4)))
    (block $sdone
      (loop $scan
        (br_if $sdone (i32.ge_u (local.get $j) (local.get $len2)))
        (local.set $a (i32.add (local.get $dot) (i32.shl (local.get $j) (i32.const 3))))
        (local.set $m (i32.or
          (i32x4.bitmask (f64x2.ge (v128.load (local.get $a)) (local.get $tv)))
          (i32.shl (i32x4.bitmask (f64x2.ge (v128.load offset=16 (local.get $a)) (local.get $tv))) (i32.const 4))))
        (if (local.get $m)
          (then
            (if (i32.and (local.get $m) (i32.const 0x3)) (then (i32.store (i32.add (local.get $cand) (i32.shl (local.get $n) (i32.const 2))) (local.get $j)) (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (if (i32.and (local.get $m) (i32.const 0xc)) (then (i32.store (i32.add (local.get $cand) (i32.shl (local.get $n) (i32.const 2))) (i32.add (local.get $j) (i32.const 1))) (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (if (i32.and (local.get $m) (i32.const 0x30)) (then (i32.store (i32.add (local.get $cand) (i32.shl (local.get $n) (i32.const 2))) (i32.add (local.get $j) (i32.const 2))) (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (if (i32.and (local.get $m) (i32.const 0xc0)) (then (i32.store (i32.add (local.get $cand) (i32.shl (local.get $n) (i32.const 2))) (i32.add (local.get $j) (i32.const 3))) (local.set $n (i32.add (local.get $n) (i32.const 1)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $scan)))
    (block $tdone
      (loop $tail
        (br_if $tdone (i32.ge_u (local.get $j) (local.get $len)))
        (if (f64.ge (f64.load (i32.add (local.get $dot) (i32.shl (local.get $j) (i32.const 3)))) (local.get $thr))
          (then (i32.store (i32.add (local.get $cand) (i32.shl (local.get $n) (i32.const 2))) (local.get $j)) (local.set $n (i32.add (local.get $n) (i32.const 1)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $tail)))
    (local.get $n))

  ;; The tile's rows transposed by column (a counting sort, users ascending within a column): rows
  ;; j = 0..len-1 of the tile at rPtr (len + 1 offsets, from p0), their columns rCol (i32) and values
  ;; rVal (f64, both from index 0 = offset p0) into cPtr (n + 1 offsets from 0), cUser (u16 places)
  ;; and cVal. Returns 1 when a column is not below n (nothing usable written), else 0.
  (func (export "exactTile") (param $rPtr i32) (param $p0 i32) (param $rCol i32) (param $rVal i32) (param $len i32)
      (param $n i32) (param $cPtr i32) (param $cUser i32) (param $cVal i32) (result i32)
    (local $p i32) (local $e i32) (local $c i32) (local $a i32) (local $at i32) (local $j i32) (local $nnz i32)
    (memory.fill (local.get $cPtr) (i32.const 0) (i32.shl (i32.add (local.get $n) (i32.const 1)) (i32.const 2)))
    (local.set $nnz (i32.sub (i32.load (i32.add (local.get $rPtr) (i32.shl (local.get $len) (i32.const 2)))) (local.get $p0)))
    ;; counts, column c's at cPtr[c + 1]
    (block $kdone
      (loop $count
        (br_if $kdone (i32.ge_u (local.get $p) (local.get $nnz)))
        (local.set $c (i32.load (i32.add (local.get $rCol) (i32.shl (local.get $p) (i32.const 2)))))
        (if (i32.ge_u (local.get $c) (local.get $n)) (then (return (i32.const 1))))
        (local.set $a (i32.add (local.get $cPtr) (i32.shl (local.get $c) (i32.const 2))))
        (i32.store offset=4 (local.get $a) (i32.add (i32.load offset=4 (local.get $a)) (i32.const 1)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $count)))
    ;; prefix sums: cPtr[c] = the start of column c
    (local.set $c (i32.const 1))
    (block $sdone
      (loop $sum
        (br_if $sdone (i32.gt_u (local.get $c) (local.get $n)))
        (local.set $a (i32.add (local.get $cPtr) (i32.shl (local.get $c) (i32.const 2))))
        (i32.store (local.get $a) (i32.add (i32.load (local.get $a)) (i32.load offset=0 (i32.sub (local.get $a) (i32.const 4)))))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $sum)))
    ;; every entry to its column's next slot: cPtr[c] then holds the end of column c
    (block $udone
      (loop $user
        (br_if $udone (i32.ge_u (local.get $j) (local.get $len)))
        (local.set $p (i32.sub (i32.load (i32.add (local.get $rPtr) (i32.shl (local.get $j) (i32.const 2)))) (local.get $p0)))
        (local.set $e (i32.sub (i32.load offset=4 (i32.add (local.get $rPtr) (i32.shl (local.get $j) (i32.const 2)))) (local.get $p0)))
        (block $edone
          (loop $entry
            (br_if $edone (i32.ge_u (local.get $p) (local.get $e)))
            (local.set $a (i32.add (local.get $cPtr) (i32.shl (i32.load (i32.add (local.get $rCol) (i32.shl (local.get $p) (i32.const 2)))) (i32.const 2))))
            (local.set $at (i32.load (local.get $a)))
            (i32.store (local.get $a) (i32.add (local.get $at) (i32.const 1)))
            (i32.store16 (i32.add (local.get $cUser) (i32.shl (local.get $at) (i32.const 1))) (local.get $j))
            (f64.store (i32.add (local.get $cVal) (i32.shl (local.get $at) (i32.const 3)))
              (f64.load (i32.add (local.get $rVal) (i32.shl (local.get $p) (i32.const 3)))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $entry)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $user)))
    ;; back to starts: the end of column c - 1 is the start of column c
    (local.set $c (local.get $n))
    (block $bdone
      (loop $back
        (br_if $bdone (i32.eqz (local.get $c)))
        (local.set $a (i32.add (local.get $cPtr) (i32.shl (local.get $c) (i32.const 2))))
        (i32.store (local.get $a) (i32.load (i32.sub (local.get $a) (i32.const 4))))
        (local.set $c (i32.sub (local.get $c) (i32.const 1)))
        (br $back)))
    (i32.store (local.get $cPtr) (i32.const 0))
    (i32.const 0))

  ;; ---- seedrandom's xor4096 and the randomized response's flips on it (src/random/rng.ts,
  ;; src/mechanisms/flips.ts) ----
  ;; The state at $st: X[0..127] (i32), then i at 512, then w at 516, exactly as makeRng keeps it.
  ;; One draw is XorGen.next: w += 0x61c88647; v = X[(i + 34) & 127]; i = (i + 1) & 127; t = X[i];
  ;; the four shifts; X[i] = v ^ t; the word (v ^ t) + (w ^ (w >>> 16)). The loops keep i and w in
  ;; locals and store them back, so the JS generator goes on from where the kernel stopped.

  ;; flipBitsOnGrid's words: per code word (users x words, row-major at $codes), bernoulliWord(t)
  ;; from the top level of t down to its lowest set bit while some column is undecided, ANDed with
  ;; $mask on a row's last word, XORed in. Branch-free per level: tb is all ones where t's bit is 1.
  (func (export "flipGrid") (param $st i32) (param $codes i32) (param $n i32) (param $words i32) (param $mask i32) (param $t i32)
    (local $i i32) (local $w i32) (local $v i32) (local $x i32) (local $r i32) (local $tb i32)
    (local $c i32) (local $end i32) (local $u i32)
    (local $below i32) (local $und i32) (local $level i32) (local $lowest i32)
    (local.set $i (i32.load offset=512 (local.get $st)))
    (local.set $w (i32.load offset=516 (local.get $st)))
    (local.set $lowest (i32.ctz (local.get $t)))
    (local.set $c (local.get $codes))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.mul (local.get $n) (local.get $words)) (i32.const 2))))
    (block $done
      (loop $word
        (br_if $done (i32.ge_u (local.get $c) (local.get $end)))
        (local.set $below (i32.const 0))
        (local.set $und (i32.const -1))
        (local.set $level (i32.const 31))
        (block $bdone
          (loop $bit
            (br_if $bdone (i32.lt_s (local.get $level) (local.get $lowest)))
            (br_if $bdone (i32.eqz (local.get $und)))
            (local.set $w (i32.add (local.get $w) (i32.const 0x61c88647)))
            (local.set $v (i32.load (i32.add (local.get $st) (i32.shl (i32.and (i32.add (local.get $i) (i32.const 34)) (i32.const 127)) (i32.const 2)))))
            (local.set $i (i32.and (i32.add (local.get $i) (i32.const 1)) (i32.const 127)))
            (local.set $x (i32.load (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $v (i32.xor (local.get $v) (i32.shl (local.get $v) (i32.const 13))))
            (local.set $x (i32.xor (local.get $x) (i32.shl (local.get $x) (i32.const 17))))
            (local.set $v (i32.xor (local.get $v) (i32.shr_u (local.get $v) (i32.const 15))))
            (local.set $x (i32.xor (local.get $x) (i32.shr_u (local.get $x) (i32.const 12))))
            (local.set $v (i32.xor (local.get $v) (local.get $x)))
            (i32.store (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 2))) (local.get $v))
            (local.set $r (i32.add (local.get $v) (i32.xor (local.get $w) (i32.shr_u (local.get $w) (i32.const 16)))))
            (local.set $tb (i32.sub (i32.const 0) (i32.and (i32.shr_u (local.get $t) (local.get $level)) (i32.const 1))))
            ;; t's bit 1: the columns with r's bit 0 are decided below t; the others stay undecided;
            ;; t's bit 0: the columns with r's bit 1 are decided above t
            (local.set $below (i32.or (local.get $below)
              (i32.and (i32.and (local.get $und) (i32.xor (local.get $r) (i32.const -1))) (local.get $tb))))
            (local.set $und (i32.and (local.get $und) (i32.xor (i32.xor (local.get $r) (local.get $tb)) (i32.const -1))))
            (local.set $level (i32.sub (local.get $level) (i32.const 1)))
            (br $bit)))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (if (i32.eq (local.get $u) (local.get $words))
          (then
            (local.set $below (i32.and (local.get $below) (local.get $mask)))
            (local.set $u (i32.const 0))))
        (i32.store (local.get $c) (i32.xor (i32.load (local.get $c)) (local.get $below)))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $word)))
    (i32.store offset=512 (local.get $st) (local.get $i))
    (i32.store offset=516 (local.get $st) (local.get $w)))

  ;; randomizeAll's words: one draw per code word, a row's last word ANDed with $mask.
  (func (export "randomWords") (param $st i32) (param $codes i32) (param $n i32) (param $words i32) (param $mask i32)
    (local $i i32) (local $w i32) (local $v i32) (local $x i32)
    (local $c i32) (local $end i32) (local $u i32) (local $r i32)
    (local.set $i (i32.load offset=512 (local.get $st)))
    (local.set $w (i32.load offset=516 (local.get $st)))
    (local.set $c (local.get $codes))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.mul (local.get $n) (local.get $words)) (i32.const 2))))
    (block $done
      (loop $word
        (br_if $done (i32.ge_u (local.get $c) (local.get $end)))
        (local.set $w (i32.add (local.get $w) (i32.const 0x61c88647)))
        (local.set $v (i32.load (i32.add (local.get $st) (i32.shl (i32.and (i32.add (local.get $i) (i32.const 34)) (i32.const 127)) (i32.const 2)))))
        (local.set $i (i32.and (i32.add (local.get $i) (i32.const 1)) (i32.const 127)))
        (local.set $x (i32.load (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $v (i32.xor (local.get $v) (i32.shl (local.get $v) (i32.const 13))))
        (local.set $x (i32.xor (local.get $x) (i32.shl (local.get $x) (i32.const 17))))
        (local.set $v (i32.xor (local.get $v) (i32.shr_u (local.get $v) (i32.const 15))))
        (local.set $x (i32.xor (local.get $x) (i32.shr_u (local.get $x) (i32.const 12))))
        (local.set $v (i32.xor (local.get $v) (local.get $x)))
        (i32.store (i32.add (local.get $st) (i32.shl (local.get $i) (i32.const 2))) (local.get $v))
        (local.set $r (i32.add (local.get $v) (i32.xor (local.get $w) (i32.shr_u (local.get $w) (i32.const 16)))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (if (i32.eq (local.get $u) (local.get $words))
          (then
            (local.set $r (i32.and (local.get $r) (local.get $mask)))
            (local.set $u (i32.const 0))))
        (i32.store (local.get $c) (local.get $r))
        (local.set $c (i32.add (local.get $c) (i32.const 4)))
        (br $word)))
    (i32.store offset=512 (local.get $st) (local.get $i))
    (i32.store offset=516 (local.get $st) (local.get $w)))

  ;; ---- the signs of a + scale·b (src/lsh/codes.ts packCombinedSigns: LapLSH at one ξ) ----
  ;; For m users (rows of kappa doubles at $a and $b, one scale each at $scale): bit j of a row's
  ;; code is 1 iff a[j] + scale·b[j] >= 0, the product then the sum rounded as in the JS loop (no
  ;; fused multiply-add), two columns per f64x2; `words` u32 a row at $out, written whole.
  (func (export "signs") (param $a i32) (param $b i32) (param $scale i32) (param $m i32) (param $kappa i32) (param $out i32)
    (local $i i32) (local $s f64) (local $sv v128) (local $j i32) (local $jw i32) (local $word i32)
    (local $pa i32) (local $pb i32) (local $po i32)
    (local.set $pa (local.get $a))
    (local.set $pb (local.get $b))
    (local.set $po (local.get $out))
    (block $udone
      (loop $user
        (br_if $udone (i32.ge_u (local.get $i) (local.get $m)))
        (local.set $s (f64.load (i32.add (local.get $scale) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $sv (f64x2.splat (local.get $s)))
        (local.set $j (i32.const 0))
        (local.set $jw (i32.const 0))
        (local.set $word (i32.const 0))
        (block $pdone
          (loop $pair
            (br_if $pdone (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $kappa)))
            (local.set $word (i32.or (local.get $word)
              (i32.shl
                (i64x2.bitmask (f64x2.ge
                  (f64x2.add (v128.load (local.get $pa)) (f64x2.mul (local.get $sv) (v128.load (local.get $pb))))
                  (v128.const f64x2 0 0)))
                (local.get $jw))))
            (local.set $pa (i32.add (local.get $pa) (i32.const 16)))
            (local.set $pb (i32.add (local.get $pb) (i32.const 16)))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (local.set $jw (i32.add (local.get $jw) (i32.const 2)))
            ;; a word is full at 32 columns (pairs start at even columns: never across two words)
            (if (i32.eq (local.get $jw) (i32.const 32))
              (then
                (i32.store (local.get $po) (local.get $word))
                (local.set $po (i32.add (local.get $po) (i32.const 4)))
                (local.set $word (i32.const 0))
                (local.set $jw (i32.const 0))))
            (br $pair)))
        ;; an odd kappa's last column
        (if (i32.lt_u (local.get $j) (local.get $kappa))
          (then
            (local.set $word (i32.or (local.get $word)
              (i32.shl
                (f64.ge (f64.add (f64.load (local.get $pa)) (f64.mul (local.get $s) (f64.load (local.get $pb)))) (f64.const 0))
                (local.get $jw))))
            (local.set $pa (i32.add (local.get $pa) (i32.const 8)))
            (local.set $pb (i32.add (local.get $pb) (i32.const 8)))
            (local.set $jw (i32.add (local.get $jw) (i32.const 1)))))
        (if (i32.gt_u (local.get $jw) (i32.const 0))
          (then
            (i32.store (local.get $po) (local.get $word))
            (local.set $po (i32.add (local.get $po) (i32.const 4)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $user))))

  ;; ---- the bucket path of the Hamming k-NN (src/lsh/hammingKnn.ts bucketPath) ----
  ;; Users grouped by code (codes of <= 16 bits): the nb distinct codes at $bcode, bucket t's users
  ;; at $busers[bstart[t] .. bstart[t + 1]). Per query: each bucket's distance, the users per
  ;; distance (the query itself taken out), the boundary D = the distance of the k-th nearest, then
  ;; the users of the buckets within D offered to the heap of the scans (bound D from the start:
  ;; a user farther than D is never among the k), drained best first. The same answers as the JS
  ;; loop: the tie keys of distinct users differ, so the k smallest (distance, key) are one set.
  (func (export "knnBucket") (param $codes i32) (param $bcode i32) (param $bstart i32) (param $nb i32) (param $busers i32)
        (param $queries i32) (param $nq i32) (param $k i32) (param $seed i32) (param $bits i32)
        (param $out i32) (param $heap i32) (param $bdist i32) (param $hist i32)
    (local $qi i32) (local $q i32) (local $c i32) (local $t i32) (local $d i32) (local $D i32)
    (local $cum i32) (local $p i32) (local $e i32) (local $h i32)
    (call $setup (local.get $k) (local.get $heap))
    (block $qdone
      (loop $query
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (local.set $c (i32.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 2)))))
        (memory.fill (local.get $hist) (i32.const 0) (i32.shl (i32.add (local.get $bits) (i32.const 1)) (i32.const 2)))
        (local.set $t (i32.const 0))
        (block $bdone
          (loop $bucket
            (br_if $bdone (i32.ge_u (local.get $t) (local.get $nb)))
            (local.set $d (i32.popcnt (i32.xor (i32.load (i32.add (local.get $bcode) (i32.shl (local.get $t) (i32.const 2)))) (local.get $c))))
            (i32.store8 (i32.add (local.get $bdist) (local.get $t)) (local.get $d))
            (local.set $h (i32.add (local.get $hist) (i32.shl (local.get $d) (i32.const 2))))
            (local.set $p (i32.add (local.get $bstart) (i32.shl (local.get $t) (i32.const 2))))
            (i32.store (local.get $h) (i32.add (i32.load (local.get $h))
              (i32.sub (i32.load offset=4 (local.get $p)) (i32.load (local.get $p)))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $bucket)))
        ;; the query itself is not its own neighbour
        (i32.store (local.get $hist) (i32.sub (i32.load (local.get $hist)) (i32.const 1)))
        (local.set $D (i32.const 0))
        (local.set $cum (i32.load (local.get $hist)))
        (block $found
          (loop $boundary
            (br_if $found (i32.ge_s (local.get $cum) (local.get $k)))
            (local.set $D (i32.add (local.get $D) (i32.const 1)))
            (local.set $cum (i32.add (local.get $cum) (i32.load (i32.add (local.get $hist) (i32.shl (local.get $D) (i32.const 2))))))
            (br $boundary)))
        (call $begin (local.get $q) (local.get $seed) (local.get $bits))
        (global.set $bound (local.get $D))
        (local.set $t (i32.const 0))
        (block $odone
          (loop $offerBuckets
            (br_if $odone (i32.ge_u (local.get $t) (local.get $nb)))
            (local.set $d (i32.load8_u (i32.add (local.get $bdist) (local.get $t))))
            (if (i32.le_u (local.get $d) (global.get $bound))
              (then
                (local.set $p (i32.add (local.get $bstart) (i32.shl (local.get $t) (i32.const 2))))
                (local.set $e (i32.add (local.get $busers) (i32.shl (i32.load offset=4 (local.get $p)) (i32.const 2))))
                (local.set $p (i32.add (local.get $busers) (i32.shl (i32.load (local.get $p)) (i32.const 2))))
                (block $udone
                  (loop $user
                    (br_if $udone (i32.ge_u (local.get $p) (local.get $e)))
                    (call $offer (i32.load (local.get $p)) (local.get $d))
                    (local.set $p (i32.add (local.get $p) (i32.const 4)))
                    (br $user)))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $offerBuckets)))
        (call $drain (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2))))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $query))))

;; ---- projections with the sums in registers (src/lsh/hyperplanes.ts projectAll) ----
  ;; The sums of `project`, column block by column block: the transposed planes at $cols hold
  ;; $kp >= kappa columns a row (a multiple of 8, the extra ones 0), and for each block of 16
  ;; columns (8 f64x2 registers; a last block of 8 in 4) the row's stored entries are summed in
  ;; registers, in entry order from 0 with a multiply then an add: each column's double is the JS
  ;; loop's. `project` loads and stores every column of the row at every entry (the chain of an add
  ;; went through memory). A block reaching past kappa writes its columns below kappa through the
  ;; 128 bytes at $scratch.
  (func (export "projectBlocks") (param $rowPtr i32) (param $colIdx i32) (param $values i32) (param $users i32)
                                 (param $cols i32) (param $kappa i32) (param $kp i32) (param $out i32) (param $scratch i32)
    (local $i i32) (local $p i32) (local $p0 i32) (local $pend i32) (local $o i32) (local $c i32)
    (local $blk i32) (local $rowBytes i32) (local $kpBytes i32) (local $v v128) (local $j i32) (local $width i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $a4 v128) (local $a5 v128) (local $a6 v128) (local $a7 v128)
    (local.set $rowBytes (i32.shl (local.get $kappa) (i32.const 3)))
    (local.set $kpBytes (i32.shl (local.get $kp) (i32.const 3)))
    (block $udone
      (loop $user
        (br_if $udone (i32.ge_u (local.get $i) (local.get $users)))
        (local.set $o (i32.add (local.get $out) (i32.mul (local.get $i) (local.get $rowBytes))))
        (local.set $p0 (i32.load (i32.add (local.get $rowPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $pend (i32.load offset=4 (i32.add (local.get $rowPtr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $blk (i32.const 0))
        (block $bdone
          (loop $block
            (br_if $bdone (i32.ge_u (local.get $blk) (local.get $rowBytes)))
            (local.set $a0 (v128.const f64x2 0 0))
            (local.set $a1 (v128.const f64x2 0 0))
            (local.set $a2 (v128.const f64x2 0 0))
            (local.set $a3 (v128.const f64x2 0 0))
            (local.set $a4 (v128.const f64x2 0 0))
            (local.set $a5 (v128.const f64x2 0 0))
            (local.set $a6 (v128.const f64x2 0 0))
            (local.set $a7 (v128.const f64x2 0 0))
            (local.set $p (local.get $p0))
            (if (i32.le_u (i32.add (local.get $blk) (i32.const 128)) (local.get $kpBytes))
              (then
                (local.set $width (i32.const 128))
                (block $pdone
                  (loop $entry
                    (br_if $pdone (i32.ge_u (local.get $p) (local.get $pend)))
                    (local.set $c (i32.add (i32.add (local.get $cols) (local.get $blk))
                      (i32.mul (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $p) (i32.const 2)))) (local.get $kpBytes))))
                    (local.set $v (f64x2.splat (f64.load (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 3))))))
                    (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (v128.load (local.get $c)) (local.get $v))))
                    (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (v128.load offset=16 (local.get $c)) (local.get $v))))
                    (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (v128.load offset=32 (local.get $c)) (local.get $v))))
                    (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (v128.load offset=48 (local.get $c)) (local.get $v))))
                    (local.set $a4 (f64x2.add (local.get $a4) (f64x2.mul (v128.load offset=64 (local.get $c)) (local.get $v))))
                    (local.set $a5 (f64x2.add (local.get $a5) (f64x2.mul (v128.load offset=80 (local.get $c)) (local.get $v))))
                    (local.set $a6 (f64x2.add (local.get $a6) (f64x2.mul (v128.load offset=96 (local.get $c)) (local.get $v))))
                    (local.set $a7 (f64x2.add (local.get $a7) (f64x2.mul (v128.load offset=112 (local.get $c)) (local.get $v))))
                    (local.set $p (i32.add (local.get $p) (i32.const 1)))
                    (br $entry))))
              (else
                (local.set $width (i32.const 64))
                (block $pdone4
                  (loop $entry4
                    (br_if $pdone4 (i32.ge_u (local.get $p) (local.get $pend)))
                    (local.set $c (i32.add (i32.add (local.get $cols) (local.get $blk))
                      (i32.mul (i32.load (i32.add (local.get $colIdx) (i32.shl (local.get $p) (i32.const 2)))) (local.get $kpBytes))))
                    (local.set $v (f64x2.splat (f64.load (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 3))))))
                    (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (v128.load (local.get $c)) (local.get $v))))
                    (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (v128.load offset=16 (local.get $c)) (local.get $v))))
                    (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (v128.load offset=32 (local.get $c)) (local.get $v))))
                    (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (v128.load offset=48 (local.get $c)) (local.get $v))))
                    (local.set $p (i32.add (local.get $p) (i32.const 1)))
                    (br $entry4)))))
            (if (i32.le_u (i32.add (local.get $blk) (local.get $width)) (local.get $rowBytes))
              (then
                (v128.store (i32.add (local.get $o) (local.get $blk)) (local.get $a0))
                (v128.store offset=16 (i32.add (local.get $o) (local.get $blk)) (local.get $a1))
                (v128.store offset=32 (i32.add (local.get $o) (local.get $blk)) (local.get $a2))
                (v128.store offset=48 (i32.add (local.get $o) (local.get $blk)) (local.get $a3))
                (if (i32.eq (local.get $width) (i32.const 128))
                  (then
                    (v128.store offset=64 (i32.add (local.get $o) (local.get $blk)) (local.get $a4))
                    (v128.store offset=80 (i32.add (local.get $o) (local.get $blk)) (local.get $a5))
                    (v128.store offset=96 (i32.add (local.get $o) (local.get $blk)) (local.get $a6))
                    (v128.store offset=112 (i32.add (local.get $o) (local.get $blk)) (local.get $a7)))))
              (else
                (v128.store (local.get $scratch) (local.get $a0))
                (v128.store offset=16 (local.get $scratch) (local.get $a1))
                (v128.store offset=32 (local.get $scratch) (local.get $a2))
                (v128.store offset=48 (local.get $scratch) (local.get $a3))
                (v128.store offset=64 (local.get $scratch) (local.get $a4))
                (v128.store offset=80 (local.get $scratch) (local.get $a5))
                (v128.store offset=96 (local.get $scratch) (local.get $a6))
                (v128.store offset=112 (local.get $scratch) (local.get $a7))
                (local.set $j (i32.const 0))
                (block $cdone
                  (loop $copy
                    (br_if $cdone (i32.ge_u (i32.add (local.get $blk) (local.get $j)) (local.get $rowBytes)))
                    (f64.store (i32.add (i32.add (local.get $o) (local.get $blk)) (local.get $j))
                      (f64.load (i32.add (local.get $scratch) (local.get $j))))
                    (local.set $j (i32.add (local.get $j) (i32.const 8)))
                    (br $copy)))))
            (local.set $blk (i32.add (local.get $blk) (local.get $width)))
            (br $block)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $user))))
)
