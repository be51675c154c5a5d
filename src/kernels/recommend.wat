;; The top-N recommendation lists: per query, the neighbours' rows summed into scores, the N best
;; columns by (score desc, column asc), and HR, NDCG and item recall summed per (k, N) cell
;; (recScore, with recPass, recTop and recOne). Wrapper: src/kernels/recommend.ts.
;; JS twin: src/evaluations/recommend/lists.ts (scoreQuery, topList, insert, score; it runs for
;; data over RECOMMEND_MAX_BYTES, with a memo, and under LSHDP_KERNEL=js). Held equal bit for bit
;; by tests/evaluations/recommend/kernel.test.ts ('equals the JS loop and the brute force', ...).
;; Source language: WAT. The issue 53 experiment with a compiled source (AssemblyScript) measured
;; the inference ranks instead, with no clear gain (infer.wat's header); this selection was not
;; rewritten.

  ;; ---- recommendation scoring ----
  ;; The top-N lists of src/evaluations/recommend/lists.ts (scoreQuery, topList, insert, score) for
  ;; every query of one result, driven by src/kernels/recommend.ts wasmRecommendSums: the same
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
