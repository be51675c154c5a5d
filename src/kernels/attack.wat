;; The linkage attack's counts (rankCount): per probe, the users strictly closer than its target
;; and those at the target's distance, on codes of at most 64 bits. Wrapper: src/kernels/attack.ts.
;; JS twin: src/evaluations/attack/linkage.ts (its JS loop over the distances, codes above 64
;; bits and LSHDP_KERNEL=js). Held equal by tests/kernels/wasm.test.ts ('rankCount (the linkage
;; attack)': a and t against a brute force, and the early stop).

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
