;; Attribute inference's ranks: auc and prec@N of every target of one result, from the votes of
;; its neighbours counted on bit sets (inferRank; inferRank4 for at most 15 neighbours).
;; Wrapper: src/kernels/infer.ts.
;; JS twin: src/evaluations/infer/ranking.ts targetMetrics (it runs above INFER_MAX_TAKE
;; neighbours and under LSHDP_KERNEL=js). Held equal bit for bit by tests/kernels/infer.test.ts
;; ('gives targetMetrics’ doubles for every target').
;;
;; Source language: WAT, after a measured experiment (issue 53, 2026-12-07). inferRank and
;; inferRank4 written again in AssemblyScript (scripts/experiments/assemblyscript/infer.ts, asc
;; 0.28.20 -O3, a standalone module of 1.9 KB, committed as infer.wasm) give these doubles bit for
;; bit (tests/kernels/inferAssemblyScript.test.ts, which also rebuilds it where asc is installed).
;; On the shared MovieLens data at n 1000 (one trial's 305 targets a call, neighbours nearest by
;; Jaccard and random), each module's call alone in one process, alternated, medians of 11 samples
;; of 200 calls, two rounds, CPU time at load 15-17 on 2 cores (time.mjs there), AS/WAT CPU:
;; k 10 (inferRank4, the evaluation's default) 0.999-1.019, no gain; k 20 (inferRank) 0.907-0.955,
;; spreads apart in 2 of the 4 comparisons. Not switched: no gain at k <= 15, and a 5-9% gain at
;; larger k is not clear enough to pay for a second toolchain: a compiled module has its own memory
;; and runtime, so joining this one needs binaryen's wasm-merge in the build, and assemblyscript
;; with binaryen is about 100 MB, while the build must stay `npm ci` with no toolchain.

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
