;; The Hamming k-NN when every user is a query (knnPairs), codes of at most 64 bits: d(u, v) =
;; d(v, u), so each pair's distance is computed once, in row min(u, v), and listed for both users
;; when it is within a guessed boundary g; a user's answers then come from its list alone. Per user,
;; the answers of knn.wat's scans: the k users (itself excluded) with the smallest (distance, tie
;; key), best first. Wrapper: src/kernels/pairs.ts, called by src/kernels/knn.ts wasmScan ('auto'
;; with every user a query, or the selection 'pairs').
;; JS twin: src/lsh/hammingKnn.ts (hammingKnn with kernel 'js'). Held equal bit for bit by
;; tests/kernels/wasm.test.ts ('selects alike by heap, counting, groups and gathering', 'answers heavy
;; code ties alike on every selection', 'lists each pair once for every user a query') and
;; tests/lsh/hammingKnn.test.ts (against the brute force).
;;
;; g: the first `sample` users are answered by ties.wat's gather ($gatherOne, their full rows),
;; and g is the smallest distance at or below which 7/8 of their boundaries lie. Every pair (u, v),
;; u < v, at distance d <= g is appended to both users' lists (entries v << 8 | d), each list at
;; most `cap` entries (a count beyond cap marks it overflowed). After row u, every pair of u has
;; been met, so u is answered: from its list when it holds at least k entries (its boundary D <= g
;; then, and every user within D is listed) and did not overflow, else by $gatherOne (its full row,
;; as knnGather). From the list: the histogram of the listed distances gives D, and the listed users
;; within D are keyed into the sorted buffer of ties.wat $pickListed: the k smallest (distance, key), the
;; same set whatever the order (distinct users' keys differ).
;;
;; Memory (laid out by pairs.ts): codes padded with zeros to a multiple of 16 users, out (users x
;; k), the heap, dist / list / hist of $gatherOne, cnt (users i32, zeroed), lists (users x cap u32),
;; dh (bits + 1 i32, zeroed: the sample's boundaries by count).

  (global $pCnt (mut i32) (i32.const 0))
  (global $pLists (mut i32) (i32.const 0))
  (global $pCap (mut i32) (i32.const 0))

  ;; row u of u32 codes (<= 32 bits): the users v > u within g, 16 a step (SIMD as $gather32), the
  ;; first group's users up to u and the last group's beyond the users masked out
  (func $pRow32 (param $codes i32) (param $users i32) (param $u i32) (param $g i32)
    (local $p i32) (local $end i32) (local $v i32) (local $m i32) (local $d i32) (local $dd i32) (local $pa i32) (local $pc i32)
    (local $qv v128) (local $ones v128) (local $gv v128) (local $x v128)
    (local.set $qv (i32x4.splat (i32.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 2))))))
    (local.set $ones (v128.const i16x8 1 1 1 1 1 1 1 1))
    (local.set $gv (i8x16.splat (local.get $g)))
    (local.set $v (i32.and (i32.add (local.get $u) (i32.const 1)) (i32.const -16)))
    (local.set $p (i32.add (local.get $codes) (i32.shl (local.get $v) (i32.const 2))))
    (local.set $end (i32.add (local.get $codes) (i32.shl (local.get $users) (i32.const 2))))
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $x
          (i8x16.narrow_i16x8_u
            (i16x8.narrow_i32x4_u
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load (local.get $p)) (local.get $qv)))) (local.get $ones))
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=16 (local.get $p)) (local.get $qv)))) (local.get $ones)))
            (i16x8.narrow_i32x4_u
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=32 (local.get $p)) (local.get $qv)))) (local.get $ones))
              (i32x4.dot_i16x8_s (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.xor (v128.load offset=48 (local.get $p)) (local.get $qv)))) (local.get $ones)))))
        (local.set $m (i8x16.bitmask (i8x16.le_u (local.get $x) (local.get $gv))))
        (if (local.get $m)
          (then
            (loop $each
              (local.set $d (i32.add (local.get $v) (i32.ctz (local.get $m))))
              (if (i32.and (i32.gt_u (local.get $d) (local.get $u)) (i32.lt_u (local.get $d) (local.get $users)))
                (then
                  ;; the pair appended to both lists, inline (V8 does not inline wasm calls): counted beyond cap, stored below it
                  (local.set $dd (i32.popcnt (i32.xor (i32.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 2))))
                                                      (i32.load (i32.add (local.get $codes) (i32.shl (local.get $d) (i32.const 2)))))))
                  (local.set $pa (i32.add (global.get $pCnt) (i32.shl (local.get $u) (i32.const 2))))
                  (local.set $pc (i32.load (local.get $pa)))
                  (if (i32.lt_u (local.get $pc) (global.get $pCap))
                    (then (i32.store (i32.add (global.get $pLists) (i32.shl (i32.add (i32.mul (local.get $u) (global.get $pCap)) (local.get $pc)) (i32.const 2))) (i32.or (i32.shl (local.get $d) (i32.const 8)) (local.get $dd)))))
                  (i32.store (local.get $pa) (i32.add (local.get $pc) (i32.const 1)))
                  (local.set $pa (i32.add (global.get $pCnt) (i32.shl (local.get $d) (i32.const 2))))
                  (local.set $pc (i32.load (local.get $pa)))
                  (if (i32.lt_u (local.get $pc) (global.get $pCap))
                    (then (i32.store (i32.add (global.get $pLists) (i32.shl (i32.add (i32.mul (local.get $d) (global.get $pCap)) (local.get $pc)) (i32.const 2))) (i32.or (i32.shl (local.get $u) (i32.const 8)) (local.get $dd)))))
                  (i32.store (local.get $pa) (i32.add (local.get $pc) (i32.const 1)))))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $each (local.get $m)))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (local.set $v (i32.add (local.get $v) (i32.const 16)))
        (br $scan))))

  ;; row u of u64 codes (33..64 bits): the users v > u within g, scalar i64.popcnt unrolled by 4 (as
  ;; knn64: a call-free loop left at the first group of 4 with a user within g), the padding masked
  (func $pRow64 (param $codes i32) (param $users i32) (param $u i32) (param $g i32)
    (local $p i32) (local $end i32) (local $v i32) (local $end4 i32) (local $cq i64) (local $b i64) (local $d i64)
    (local $dd i32) (local $pa i32) (local $pc i32)
    (local.set $cq (i64.load (i32.add (local.get $codes) (i32.shl (local.get $u) (i32.const 3)))))
    (local.set $b (i64.extend_i32_u (local.get $g)))
    (local.set $p (i32.add (local.get $codes) (i32.shl (i32.add (local.get $u) (i32.const 1)) (i32.const 3))))
    (local.set $end (i32.add (local.get $codes) (i32.shl (local.get $users) (i32.const 3))))
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
        (local.set $v (i32.shr_u (i32.sub (local.get $p) (local.get $codes)) (i32.const 3)))
        (local.set $end4 (i32.add (local.get $v) (i32.const 4)))
        (if (i32.gt_u (local.get $end4) (local.get $users)) (then (local.set $end4 (local.get $users))))
        (loop $each
          (local.set $d (i64.popcnt (i64.xor (local.get $cq) (i64.load (i32.add (local.get $codes) (i32.shl (local.get $v) (i32.const 3)))))))
          (if (i64.le_u (local.get $d) (local.get $b))
            (then
              ;; the pair appended to both lists, inline, as in $pRow32
              (local.set $dd (i32.wrap_i64 (local.get $d)))
              (local.set $pa (i32.add (global.get $pCnt) (i32.shl (local.get $u) (i32.const 2))))
              (local.set $pc (i32.load (local.get $pa)))
              (if (i32.lt_u (local.get $pc) (global.get $pCap))
                (then (i32.store (i32.add (global.get $pLists) (i32.shl (i32.add (i32.mul (local.get $u) (global.get $pCap)) (local.get $pc)) (i32.const 2))) (i32.or (i32.shl (local.get $v) (i32.const 8)) (local.get $dd)))))
              (i32.store (local.get $pa) (i32.add (local.get $pc) (i32.const 1)))
              (local.set $pa (i32.add (global.get $pCnt) (i32.shl (local.get $v) (i32.const 2))))
              (local.set $pc (i32.load (local.get $pa)))
              (if (i32.lt_u (local.get $pc) (global.get $pCap))
                (then (i32.store (i32.add (global.get $pLists) (i32.shl (i32.add (i32.mul (local.get $v) (global.get $pCap)) (local.get $pc)) (i32.const 2))) (i32.or (i32.shl (local.get $u) (i32.const 8)) (local.get $dd)))))
              (i32.store (local.get $pa) (i32.add (local.get $pc) (i32.const 1)))))
          (local.set $v (i32.add (local.get $v) (i32.const 1)))
          (br_if $each (i32.lt_u (local.get $v) (local.get $end4))))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $groups))))

  ;; user u's answers from its list of c entries (k <= c <= cap, all within g) into out[0..k)
  (func $pAnswer (param $u i32) (param $c i32) (param $seed i32) (param $bits i32) (param $g i32) (param $hist i32) (param $out i32)
    (local $list i32) (local $i i32) (local $e i32) (local $d i32) (local $h i32) (local $D i32) (local $cum i32)
    (local $n i32) (local $key i64) (local $last i64) (local $v i32) (local $j i32) (local $prev i64)
    (call $begin (local.get $u) (local.get $seed) (local.get $bits))
    (local.set $list (i32.add (global.get $pLists) (i32.shl (i32.mul (local.get $u) (global.get $pCap)) (i32.const 2))))
    (memory.fill (local.get $hist) (i32.const 0) (i32.shl (i32.add (local.get $g) (i32.const 1)) (i32.const 2)))
    (block $hdone
      (loop $count
        (br_if $hdone (i32.ge_u (local.get $i) (local.get $c)))
        (local.set $h (i32.add (local.get $hist) (i32.shl (i32.load8_u (i32.add (local.get $list) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 2))))
        (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $count)))
    ;; D: the smallest distance with at least k listed users at or below it (<= g: c >= k)
    (local.set $cum (i32.load (local.get $hist)))
    (block $found
      (loop $walk
        (br_if $found (i32.ge_s (local.get $cum) (global.get $k)))
        (local.set $D (i32.add (local.get $D) (i32.const 1)))
        (local.set $cum (i32.add (local.get $cum) (i32.load (i32.add (local.get $hist) (i32.shl (local.get $D) (i32.const 2))))))
        (br $walk)))
    ;; the listed users within D, keyed into the sorted buffer (as ties.wat $pickListed)
    (local.set $last (i64.const -1))
    (local.set $i (i32.const 0))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $c)))
        (local.set $e (i32.load (i32.add (local.get $list) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $d (i32.and (local.get $e) (i32.const 255)))
        (br_if $each (i32.gt_u (local.get $d) (local.get $D)))
        (local.set $v (i32.shr_u (local.get $e) (i32.const 8)))
        ;; the key and the sorted insertion of ties.wat $pickListed, inline (V8 does not inline wasm calls)
        (local.set $h (i32.xor (global.get $base) (i32.mul (i32.add (local.get $v) (i32.const 1)) (i32.const 0x85ebca77))))
        (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
        (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
        (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
        (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
        (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
        (local.set $key (i64.or (i64.shl (i64.extend_i32_u (local.get $d)) (i64.const 32)) (i64.extend_i32_u (local.get $h))))
        (br_if $each (i64.ge_u (local.get $key) (local.get $last)))
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
        (i32.store (i32.add (global.get $hu) (i32.shl (local.get $j) (i32.const 2))) (local.get $v))
        (if (i32.eq (local.get $n) (global.get $k))
          (then (local.set $last (i64.load (i32.add (global.get $hk) (i32.shl (i32.sub (local.get $n) (i32.const 1)) (i32.const 3)))))))
        (br $each)))
    (memory.copy (local.get $out) (global.get $hu) (i32.shl (global.get $k) (i32.const 2))))

  ;; every user a query, user u's answers at out + u k; wide = 0 for u32 codes, 1 for u64 codes;
  ;; 1 <= k < users < 2^24; 1 <= sample <= users; cap >= k. Returns g.
  (func (export "knnPairs") (param $codes i32) (param $users i32) (param $k i32) (param $seed i32) (param $bits i32)
        (param $out i32) (param $heap i32) (param $dist i32) (param $list i32) (param $hist i32) (param $wide i32)
        (param $cnt i32) (param $lists i32) (param $cap i32) (param $dh i32) (param $sample i32) (result i32)
    (local $u i32) (local $D i32) (local $g i32) (local $cum i32) (local $c i32) (local $outu i32)
    (call $setup (local.get $k) (local.get $heap))
    (global.set $guess (i32.shr_u (local.get $bits) (i32.const 2)))
    (global.set $pCnt (local.get $cnt))
    (global.set $pLists (local.get $lists))
    (global.set $pCap (local.get $cap))
    ;; the sample: answered by the gather, their boundaries counted
    (block $sdone
      (loop $sloop
        (br_if $sdone (i32.ge_u (local.get $u) (local.get $sample)))
        (local.set $D (call $gatherOne (local.get $codes) (local.get $users) (local.get $u) (local.get $seed) (local.get $bits)
          (i32.add (local.get $out) (i32.shl (i32.mul (local.get $u) (local.get $k)) (i32.const 2)))
          (local.get $dist) (local.get $list) (local.get $hist) (local.get $wide)))
        (local.set $c (i32.add (local.get $dh) (i32.shl (local.get $D) (i32.const 2))))
        (i32.store (local.get $c) (i32.add (i32.load (local.get $c)) (i32.const 1)))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $sloop)))
    ;; g: the smallest distance with at least 7/8 of the sample's boundaries at or below it
    (local.set $cum (i32.load (local.get $dh)))
    (block $gfound
      (loop $gwalk
        (br_if $gfound (i32.ge_u (i32.shl (local.get $cum) (i32.const 3)) (i32.mul (local.get $sample) (i32.const 7))))
        (local.set $g (i32.add (local.get $g) (i32.const 1)))
        (local.set $cum (i32.add (local.get $cum) (i32.load (i32.add (local.get $dh) (i32.shl (local.get $g) (i32.const 2))))))
        (br $gwalk)))
    ;; the rows; after row u every pair of u is listed, and u (past the sample) is answered
    (local.set $u (i32.const 0))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $u) (local.get $users)))
        (if (local.get $wide)
          (then (call $pRow64 (local.get $codes) (local.get $users) (local.get $u) (local.get $g)))
          (else (call $pRow32 (local.get $codes) (local.get $users) (local.get $u) (local.get $g))))
        (if (i32.ge_u (local.get $u) (local.get $sample))
          (then
            (local.set $c (i32.load (i32.add (local.get $cnt) (i32.shl (local.get $u) (i32.const 2)))))
            (local.set $outu (i32.add (local.get $out) (i32.shl (i32.mul (local.get $u) (local.get $k)) (i32.const 2))))
            (if (i32.and (i32.ge_u (local.get $c) (local.get $k)) (i32.le_u (local.get $c) (local.get $cap)))
              (then (call $pAnswer (local.get $u) (local.get $c) (local.get $seed) (local.get $bits) (local.get $g) (local.get $hist) (local.get $outu)))
              (else (drop (call $gatherOne (local.get $codes) (local.get $users) (local.get $u) (local.get $seed) (local.get $bits)
                      (local.get $outu) (local.get $dist) (local.get $list) (local.get $hist) (local.get $wide)))))))
        (local.set $u (i32.add (local.get $u) (i32.const 1)))
        (br $rows)))
    (local.get $g))
