;; The Hamming k-NN's scans that spare the tie path, for codes of at most 64 bits: users grouped by
;; code (knnGroups: one distance per distinct code) and the one-pass gather (knnGather: the
;; distances written and the users within a guessed boundary listed in the same pass). Per query,
;; the answers of knn.wat's scans: the k users (query excluded) with the smallest (distance, tie
;; key), best first, keyed and kept in a buffer sorted by insertion (as $pickListed's); only which
;; users are keyed differs. Wrapper: src/kernels/ties.ts, called by src/kernels/knn.ts wasmScan (its selections
;; 'groups' and 'gather'; 'auto' takes one of them where it took the two-pass knnCount).
;; JS twin: src/lsh/hammingKnn.ts (hammingKnn with kernel 'js'). Held equal bit for bit by
;; tests/kernels/wasm.test.ts ('selects alike by heap, counting, groups and gathering', 'answers heavy
;; code ties alike on every selection') and tests/lsh/hammingKnn.test.ts (against the brute force).

  ;; ---- users grouped by code, one distance per distinct code (knnGroups; ties.ts groupCodes) ----
  ;; Group g's code at gcodes (as the scans' codes), its users at gusers[gstart[g] .. gstart[g + 1]),
  ;; user u's group at ugroup[u]. Per code of the queries: the groups' distance bytes ($dist32,
  ;; $dist64), the boundary D from the groups' sizes ($groupBoundary), the groups within D listed
  ;; ($gatherAt); per query, only the users of the listed groups keyed into the sorted buffer,
  ;; copied out best first: users below D (at most k - 1) keyed only
  ;; to order the answer, those at D for the tie rule. The same answers as knnCount: the k smallest
  ;; (distance, tie key), a set whatever the order of the users (distinct users' keys differ).

  ;; adds the sizes of the groups at distance t (eq = 1), or at most t (eq = 0), to hist[distance]
  (func $groupHist (param $dist i32) (param $n16 i32) (param $gstart i32) (param $hist i32) (param $t i32) (param $eq i32)
    (local $p i32) (local $end i32) (local $m i32) (local $g i32) (local $h i32) (local $s i32) (local $tv v128) (local $v v128)
    (local.set $tv (i8x16.splat (local.get $t)))
    (local.set $p (local.get $dist))
    (local.set $end (i32.add (local.get $dist) (local.get $n16)))
    (block $done
      (loop $vec
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $m (select (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $tv)))
                              (i8x16.bitmask (i8x16.le_u (local.get $v) (local.get $tv))) (local.get $eq)))
        (if (local.get $m)
          (then
            (loop $each
              (local.set $g (i32.add (i32.sub (local.get $p) (local.get $dist)) (i32.ctz (local.get $m))))
              (local.set $h (i32.add (local.get $hist) (i32.shl (i32.load8_u (i32.add (local.get $dist) (local.get $g))) (i32.const 2))))
              (local.set $s (i32.add (local.get $gstart) (i32.shl (local.get $g) (i32.const 2))))
              (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.sub (i32.load offset=4 (local.get $s)) (i32.load (local.get $s)))))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $each (local.get $m)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vec))))

  ;; the boundary D: the smallest distance with at least k users (the query excluded) at or below
  ;; it. Counts the groups within the previous query's D (the global $guess) in one pass, then one
  ;; pass per distance beyond it; leaves D in $guess. The pad bytes (255) are never counted.
  (func $groupBoundary (param $dist i32) (param $n16 i32) (param $gstart i32) (param $hist i32) (param $bits i32) (result i32)
    (local $t i32) (local $D i32) (local $cum i32)
    (local.set $t (global.get $guess))
    (if (i32.gt_u (local.get $t) (local.get $bits)) (then (local.set $t (local.get $bits))))
    (memory.fill (local.get $hist) (i32.const 0) (i32.shl (i32.add (local.get $bits) (i32.const 1)) (i32.const 2)))
    (i32.store (local.get $hist) (i32.const -1)) ;; the query, at distance 0 in its own group
    (call $groupHist (local.get $dist) (local.get $n16) (local.get $gstart) (local.get $hist) (local.get $t) (i32.const 0))
    (local.set $cum (i32.load (local.get $hist)))
    (block $found
      (loop $walk
        (br_if $found (i32.ge_s (local.get $cum) (global.get $k)))
        (local.set $D (i32.add (local.get $D) (i32.const 1)))
        (if (i32.gt_u (local.get $D) (local.get $t))
          (then (call $groupHist (local.get $dist) (local.get $n16) (local.get $gstart) (local.get $hist) (local.get $D) (i32.const 1))))
        (local.set $cum (i32.add (local.get $cum) (i32.load (i32.add (local.get $hist) (i32.shl (local.get $D) (i32.const 2))))))
        (br $walk)))
    (global.set $guess (local.get $D))
    (local.get $D))

  ;; wide = 0 for u32 codes (<= 32 bits), 1 for u64 codes (33..64 bits); 1 <= k < users. The
  ;; queries are taken in `order` (indices into queries, those of a group one after another): the
  ;; queries of one code meet the same distances, boundary and groups within it (the query's own
  ;; group holds it, at distance 0, whichever user it is), so these are found once for the run of
  ;; queries of a group and listed at glist (ng u32); each query then keys the listed groups' users.
  (func (export "knnGroups") (param $gcodes i32) (param $ng i32) (param $gstart i32) (param $gusers i32) (param $ugroup i32)
        (param $queries i32) (param $order i32) (param $nq i32) (param $k i32) (param $seed i32) (param $bits i32)
        (param $out i32) (param $heap i32) (param $dist i32) (param $hist i32) (param $glist i32) (param $wide i32)
    (local $oi i32) (local $qi i32) (local $q i32) (local $g i32) (local $qg i32) (local $n16 i32) (local $nl i32) (local $i i32)
    (local $d i32) (local $s i32) (local $e i32) (local $u i32) (local $n i32) (local $key i64) (local $last i64)
    (local $h i32) (local $j i32) (local $prev i64) (local $D i32)
    (call $setup (local.get $k) (local.get $heap))
    (global.set $guess (i32.const 0))
    (local.set $n16 (i32.and (i32.add (local.get $ng) (i32.const 15)) (i32.const -16)))
    (local.set $qg (i32.const -1))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $oi) (local.get $nq)))
        (local.set $qi (i32.load (i32.add (local.get $order) (i32.shl (local.get $oi) (i32.const 2)))))
        (local.set $q (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2)))))
        (local.set $g (i32.load (i32.add (local.get $ugroup) (i32.shl (local.get $q) (i32.const 2)))))
        (call $begin (local.get $q) (local.get $seed) (local.get $bits))
        (if (i32.ne (local.get $g) (local.get $qg))
          (then
            ;; a new code: the groups' distance bytes, the boundary D, the groups within it listed
            (local.set $qg (local.get $g))
            (if (local.get $wide)
              (then (call $dist64 (local.get $gcodes) (local.get $ng)
                      (i64.load (i32.add (local.get $gcodes) (i32.shl (local.get $g) (i32.const 3)))) (local.get $dist)))
              (else (call $dist32 (local.get $gcodes) (local.get $ng)
                      (i32.load (i32.add (local.get $gcodes) (i32.shl (local.get $g) (i32.const 2)))) (local.get $dist))))
            (local.set $D (call $groupBoundary (local.get $dist) (local.get $n16) (local.get $gstart) (local.get $hist) (local.get $bits)))
            (local.set $nl (call $gatherAt (local.get $dist) (local.get $n16) (local.get $D) (i32.const 0) (local.get $glist) (i32.const 0)))))
        (global.set $bound (local.get $D))
        (local.set $n (i32.const 0))
        (local.set $last (i64.const -1))
        (local.set $i (i32.const 0))
        (block $ldone
          (loop $each
            (br_if $ldone (i32.ge_u (local.get $i) (local.get $nl)))
            (local.set $g (i32.load (i32.add (local.get $glist) (i32.shl (local.get $i) (i32.const 2)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $d (i32.load8_u (i32.add (local.get $dist) (local.get $g))))
            (local.set $s (i32.add (local.get $gstart) (i32.shl (local.get $g) (i32.const 2))))
            (local.set $e (i32.add (local.get $gusers) (i32.shl (i32.load offset=4 (local.get $s)) (i32.const 2))))
            (local.set $s (i32.add (local.get $gusers) (i32.shl (i32.load (local.get $s)) (i32.const 2))))
            (block $udone
              (loop $user
                (br_if $udone (i32.ge_u (local.get $s) (local.get $e)))
                (local.set $u (i32.load (local.get $s)))
                (local.set $s (i32.add (local.get $s) (i32.const 4)))
                (br_if $user (i32.eq (local.get $u) (local.get $q)))
                ;; the key and the sorted insertion of $pickListed, inline (V8 does not inline wasm calls)
                (local.set $h (i32.xor (global.get $base) (i32.mul (i32.add (local.get $u) (i32.const 1)) (i32.const 0x85ebca77))))
                (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
                (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
                (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
                (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
                (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
                (local.set $key (i64.or (i64.shl (i64.extend_i32_u (local.get $d)) (i64.const 32)) (i64.extend_i32_u (local.get $h))))
                (br_if $user (i64.ge_u (local.get $key) (local.get $last)))
                (local.set $j (local.get $n))
                (if (i32.lt_u (local.get $n) (local.get $k))
                  (then (local.set $n (i32.add (local.get $n) (i32.const 1))))
                  (else (local.set $j (i32.sub (local.get $j) (i32.const 1)))))
                (block $placed
                  (loop $shift
                    (br_if $placed (i32.eqz (local.get $j)))
                    (local.set $prev (i64.load (i32.add (global.get $hk) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 3)))))
                    (br_if $placed (i64.lt_u (local.get $prev) (local.get $key)))
                    (i64.store (i32.add (global.get $hk) (i32.shl (local.get $j) (i32.const 3))) (local.get $prev))
                    (i32.store (i32.add (global.get $hu) (i32.shl (local.get $j) (i32.const 2)))
                      (i32.load (i32.add (global.get $hu) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 2)))))
                    (local.set $j (i32.sub (local.get $j) (i32.const 1)))
                    (br $shift)))
                (i64.store (i32.add (global.get $hk) (i32.shl (local.get $j) (i32.const 3))) (local.get $key))
                (i32.store (i32.add (global.get $hu) (i32.shl (local.get $j) (i32.const 2))) (local.get $u))
                (if (i32.eq (local.get $n) (local.get $k))
                  (then (local.set $last (i64.load (i32.add (global.get $hk) (i32.shl (i32.sub (local.get $n) (i32.const 1)) (i32.const 3)))))))
                (br $user)))
            (br $each)))
        (memory.copy (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2)))
          (global.get $hu) (i32.shl (local.get $k) (i32.const 2)))
        (local.set $oi (i32.add (local.get $oi) (i32.const 1)))
        (br $qloop))))

  ;; ---- the one-pass gather (knnGather) ----
  ;; knnCount's passes after the distances (summaries, counting from the guess, offering) read every
  ;; distance byte again, two or three times, to find a few dozen users. Here the distance pass
  ;; itself lists the users within the guessed boundary g (the previous query's; for u64 codes one
  ;; SIMD pass over the bytes after the scalar distances); their distances'
  ;; histogram gives the boundary D when D <= g, and one pass a distance beyond g lists the users at
  ;; it otherwise. Only the listed users within D are keyed ($pickListed).

  ;; the distance bytes of every user from cq (<= 32 bits, SIMD as $dist32), the users at distance
  ;; <= g listed at list from c on; returns the new length
  (func $gather32 (param $codes i32) (param $users i32) (param $cq i32) (param $dist i32) (param $g i32) (param $list i32) (param $c i32) (result i32)
    (local $p i32) (local $end i32) (local $o i32) (local $u i32) (local $m i32) (local $d i32)
    (local $qv v128) (local $ones v128) (local $gv v128) (local $v v128)
    (local.set $qv (i32x4.splat (local.get $cq)))
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    (local.set $gv (i8x16.splat (local.get $g)))
    (local.set $p (local.get $codes))
    (local.set $o (local.get $dist))
    (local.set $end (i32.add (local.get $codes) (i32.shl (i32.and (local.get $users) (i32.const -16)) (i32.const 2))))
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v
          (i8x16.narrow_i16x8_u
            (i16x8.narrow_i32x4_u
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qv)))) (local.get $ones))
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qv)))) (local.get $ones)))
            (i16x8.narrow_i32x4_u
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=32 (local.get $p)) (local.get $qv)))) (local.get $ones))
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=48 (local.get $p)) (local.get $qv)))) (local.get $ones)))))
        (v128.store (local.get $o) (local.get $v))
        (local.set $m (i8x16.bitmask (i8x16.le_u (local.get $v) (local.get $gv))))
        (if (local.get $m)
          (then
            (local.set $u (i32.sub (local.get $o) (local.get $dist)))
            (loop $each
              (i32.store (i32.add (local.get $list) (i32.shl (local.get $c) (i32.const 2))) (i32.add (local.get $u) (i32.ctz (local.get $m))))
              (local.set $c (i32.add (local.get $c) (i32.const 1)))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $each (local.get $m)))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (local.set $o (i32.add (local.get $o) (i32.const 16)))
        (br $scan)))
    (local.set $u (i32.and (local.get $users) (i32.const -16)))
    (call $distTail (local.get $u) (local.get $users) (local.get $dist))
    (block $tdone
      (loop $tail
        (br_if $tdone (i32.ge_u (local.get $u) (local.get $users)))
        (local.set $d (i32.popcnt (i32.xor (local.get $cq) (i32.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 2)))))))
        (i32.store8 (i32.add (local.get $dist) (local.get $u)) (local.get $d))
        (i32.store (i32.add (local.get $list) (i32.shl (local.get $c) (i32.const 2))) (local.get $u))
        (local.set $c (i32.add (local.get $c) (i32.le_u (local.get $d) (local.get $g))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $tail)))
    (local.get $c))

  ;; lists the users at distance t (eq = 1), or at most t (eq = 0), from c on (dist padded to n16
  ;; bytes); returns the new length
  (func $gatherAt (param $dist i32) (param $n16 i32) (param $t i32) (param $eq i32) (param $list i32) (param $c i32) (result i32)
    (local $p i32) (local $end i32) (local $m i32) (local $tv v128) (local $v v128)
    (local.set $tv (i8x16.splat (local.get $t)))
    (local.set $p (local.get $dist))
    (local.set $end (i32.add (local.get $dist) (local.get $n16)))
    (block $done
      (loop $vec
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $m (select (i8x16.bitmask (i8x16.eq (local.get $v) (local.get $tv)))
                              (i8x16.bitmask (i8x16.le_u (local.get $v) (local.get $tv))) (local.get $eq)))
        (if (local.get $m)
          (then
            (loop $each
              (i32.store (i32.add (local.get $list) (i32.shl (local.get $c) (i32.const 2)))
                (i32.add (i32.sub (local.get $p) (local.get $dist)) (i32.ctz (local.get $m))))
              (local.set $c (i32.add (local.get $c) (i32.const 1)))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $each (local.get $m)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vec)))
    (local.get $c))

  ;; the k smallest (distance << 32 | tie key) of the listed users within D (the query skipped),
  ;; best first into out, through a buffer kept sorted in the heap's memory (keys at $hk, users at
  ;; $hu): once it holds k, a user costs its key and one compare with the last; no heap to drain
  (func $pickListed (param $list i32) (param $c i32) (param $dist i32) (param $D i32) (param $out i32)
    (local $i i32) (local $u i32) (local $d i32) (local $h i32) (local $n i32) (local $j i32)
    (local $key i64) (local $last i64) (local $prev i64)
    (local.set $last (i64.const -1))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $c)))
        (local.set $u (i32.load (i32.add (local.get $list) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $d (i32.load8_u (i32.add (local.get $dist) (local.get $u))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br_if $each (i32.gt_u (local.get $d) (local.get $D)))
        (br_if $each (i32.eq (local.get $u) (global.get $q)))
        ;; fmix32(base ^ (u + 1) * 0x85ebca77), as $offer
        (local.set $h (i32.xor (global.get $base) (i32.mul (i32.add (local.get $u) (i32.const 1)) (i32.const 0x85ebca77))))
        (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
        (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
        (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
        (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
        (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
        (local.set $key (i64.or (i64.shl (i64.extend_i32_u (local.get $d)) (i64.const 32)) (i64.extend_i32_u (local.get $h))))
        (br_if $each (i64.ge_u (local.get $key) (local.get $last)))
        ;; insert: the entries above the key move up one place (the last one drops out when full)
        (local.set $j (local.get $n))
        (if (i32.lt_u (local.get $n) (global.get $k))
          (then (local.set $n (i32.add (local.get $n) (i32.const 1))))
          (else (local.set $j (i32.sub (local.get $j) (i32.const 1)))))
        (block $placed
          (loop $shift
            (br_if $placed (i32.eqz (local.get $j)))
            (local.set $prev (i64.load (i32.add (global.get $hk) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 3)))))
            (br_if $placed (i64.lt_u (local.get $prev) (local.get $key)))
            (i64.store (i32.add (global.get $hk) (i32.shl (local.get $j) (i32.const 3))) (local.get $prev))
            (i32.store (i32.add (global.get $hu) (i32.shl (local.get $j) (i32.const 2)))
              (i32.load (i32.add (global.get $hu) (i32.shl (i32.sub (local.get $j) (i32.const 1)) (i32.const 2)))))
            (local.set $j (i32.sub (local.get $j) (i32.const 1)))
            (br $shift)))
        (i64.store (i32.add (global.get $hk) (i32.shl (local.get $j) (i32.const 3))) (local.get $key))
        (i32.store (i32.add (global.get $hu) (i32.shl (local.get $j) (i32.const 2))) (local.get $u))
        (if (i32.eq (local.get $n) (global.get $k))
          (then (local.set $last (i64.load (i32.add (global.get $hk) (i32.shl (i32.sub (local.get $n) (i32.const 1)) (i32.const 3)))))))
        (br $each)))
    (memory.copy (local.get $out) (global.get $hu) (i32.shl (global.get $k) (i32.const 2))))

  ;; wide = 0 for u32 codes (<= 32 bits), 1 for u64 codes (33..64 bits); 1 <= k < users; list: users + 1 u32
  (func (export "knnGather") (param $codes i32) (param $users i32) (param $queries i32) (param $nq i32)
        (param $k i32) (param $seed i32) (param $bits i32) (param $out i32) (param $heap i32)
        (param $dist i32) (param $list i32) (param $hist i32) (param $wide i32)
    (local $qi i32)
    (call $setup (local.get $k) (local.get $heap))
    (global.set $guess (i32.shr_u (local.get $bits) (i32.const 2)))
    (block $qdone
      (loop $qloop
        (br_if $qdone (i32.ge_u (local.get $qi) (local.get $nq)))
        (drop (call $gatherOne (local.get $codes) (local.get $users)
          (i32.load (i32.add (local.get $queries) (i32.shl (local.get $qi) (i32.const 2))))
          (local.get $seed) (local.get $bits)
          (i32.add (local.get $out) (i32.shl (i32.mul (local.get $qi) (local.get $k)) (i32.const 2)))
          (local.get $dist) (local.get $list) (local.get $hist) (local.get $wide)))
        (local.set $qi (i32.add (local.get $qi) (i32.const 1)))
        (br $qloop))))

  ;; one query q of knnGather (after $setup; $guess the previous query's boundary): its k best into
  ;; out[0..k); returns its boundary distance D
  (func $gatherOne (param $codes i32) (param $users i32) (param $q i32) (param $seed i32) (param $bits i32)
        (param $out i32) (param $dist i32) (param $list i32) (param $hist i32) (param $wide i32) (result i32)
    (local $g i32) (local $c i32) (local $n16 i32) (local $i i32)
    (local $D i32) (local $cum i32) (local $h i32) (local $before i32) (local $k i32)
    (local.set $k (global.get $k))
    (local.set $n16 (i32.and (i32.add (local.get $users) (i32.const 15)) (i32.const -16)))
    (call $begin (local.get $q) (local.get $seed) (local.get $bits))
    (local.set $g (global.get $guess))
    (if (i32.gt_u (local.get $g) (local.get $bits)) (then (local.set $g (local.get $bits))))
    (local.set $c (if (result i32) (local.get $wide)
      (then
        ;; u64 codes: the scalar distances of $dist64, then one SIMD pass over their bytes
        (call $dist64 (local.get $codes) (local.get $users)
          (i64.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 3)))) (local.get $dist))
        (call $gatherAt (local.get $dist) (local.get $n16) (local.get $g) (i32.const 0) (local.get $list) (i32.const 0)))
      (else (call $gather32 (local.get $codes) (local.get $users)
              (i32.load (i32.add (local.get $codes) (i32.shl (local.get $q) (i32.const 2)))) (local.get $dist) (local.get $g) (local.get $list) (i32.const 0)))))
    ;; the listed users' distances by count (the query itself, at 0, taken out)
    (memory.fill (local.get $hist) (i32.const 0) (i32.shl (i32.add (local.get $bits) (i32.const 1)) (i32.const 2)))
    (i32.store (local.get $hist) (i32.const -1))
    (block $hdone
      (loop $count
        (br_if $hdone (i32.ge_u (local.get $i) (local.get $c)))
        (local.set $h (i32.add (local.get $hist) (i32.shl (i32.load8_u (i32.add (local.get $dist)
          (i32.load (i32.add (local.get $list) (i32.shl (local.get $i) (i32.const 2)))))) (i32.const 2))))
        (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $count)))
    ;; D: the smallest distance with at least k users at or below it; beyond g, list each distance's users
    (local.set $cum (i32.load (local.get $hist)))
    (block $found
      (loop $walk
        (br_if $found (i32.ge_s (local.get $cum) (local.get $k)))
        (local.set $D (i32.add (local.get $D) (i32.const 1)))
        (if (i32.gt_u (local.get $D) (local.get $g))
          (then
            (local.set $before (local.get $c))
            (local.set $c (call $gatherAt (local.get $dist) (local.get $n16) (local.get $D) (i32.const 1) (local.get $list) (local.get $c)))
            (local.set $cum (i32.add (local.get $cum) (i32.sub (local.get $c) (local.get $before)))))
          (else
            (local.set $cum (i32.add (local.get $cum) (i32.load (i32.add (local.get $hist) (i32.shl (local.get $D) (i32.const 2))))))))
        (br $walk)))
    (global.set $guess (local.get $D))
    (call $pickListed (local.get $list) (local.get $c) (local.get $dist) (local.get $D) (local.get $out))
    (local.get $D))
