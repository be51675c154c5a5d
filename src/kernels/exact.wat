;; The exact angular k-NN's tiles: one query's dot products against a tile of users transposed
;; by column (exactDots), and the tile's transposition (exactTile). Wrapper: src/kernels/exact.ts.
;; JS twin: src/knn/angular.ts exactKnn (its JS inverted index, which runs under LSHDP_KERNEL=js).
;; Held equal by tests/knn/angular.test.ts ('exactKnn: the WebAssembly tiles against the JS
;; inverted index', 'runs the JS inverted index where the module does not').

  ;; ---- The exact angular k-NN (src/knn/angular.ts exactKnn, driven by exact.ts wasmAngularTiles) ----
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
