;; k-NN of real-valued releases (JL, Gaussian) by squared Euclidean distance, with sorted lists
;; of the k best (distance, tie key) per query (knnReal). Wrapper: src/kernels/reals.ts.
;; JS twin: src/lsh/releases.ts (realKnn's JS loop, which runs for values that are not finite and
;; under LSHDP_KERNEL=js). Held equal by tests/lsh/releaseKernels.test.ts ('gives the brute force,
;; each pair summed once or per query', 'gives the same lists with the JS loop').

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
