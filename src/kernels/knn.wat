;; Hamming k-NN for codes of at most 64 bits: the scan (knn32, knn64: one pass with the heap of
;; prelude.wat), the two-pass scan (knnCount: distance bytes, the boundary by counting), the k
;; nearest as a set (knnSet, for attribute inference), the bucket path (knnBucket) and the bench's
;; bare popcount baselines (bare32, bare64); the tie path's scans are in ties.wat, the scan with every
;; user a query in pairs.wat. Per query, the k users (query excluded) with the smallest
;; (distance, fmix32(base ^ (u + 1) * 0x85ebca77)), best first: the tie-breaking of
;; src/lsh/tieKey.ts. Wrapper: src/kernels/knn.ts.
;; JS twin: src/lsh/hammingKnn.ts (hammingKnn with kernel 'js': the scan and bucket paths).
;; Held equal bit for bit by tests/kernels/wasm.test.ts ('equals the JS kernel on larger sets',
;; 'selects alike by heap, counting, groups and gathering'),
;; tests/lsh/hammingKnn.test.ts (every path against the brute force) and, for knnSet,
;; tests/kernels/infer.test.ts ('finds each probe the same k users').
;;
;; A bounded max-heap holds the k best composite keys (distance << 32 | tie key, unsigned) and
;; their users. Users farther than the heap's worst distance (`bound`) cost a popcount and a
;; compare; only users within it are keyed and offered. The scans check a group of users at once
;; (8 per iteration) and fall to the per-user `offer` only when one of them is within the bound.
;;
;; Memory is laid out by the caller: codes (u32 per user for <= 32 bits, u64 for <= 64 bits, the
;; CodeSet words as they are), queries (i32), out (i32, queries x k), heap (k x i64 then k x i32).

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

