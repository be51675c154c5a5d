;; k-NN of symbol releases (bit-groups of 2, 4 or 8 bits a position): the distance bytes of the
;; unequal positions, from packed words (knnSym) or bit-sliced planes (knnPlanes), then the
;; two-pass selection of prelude.wat. Wrapper: src/kernels/symbols.ts.
;; JS twin: src/lsh/releases.ts (symbolKnn's JS loop, which runs above 254 positions and under
;; LSHDP_KERNEL=js). Held equal by tests/lsh/releaseKernels.test.ts ('gives the brute force on
;; every width ... and layout', 'gives the same lists with the JS loop').

  ;; ---- Releases that are not bits (src/lsh/releases.ts), driven by src/kernels/symbols.ts and reals.ts ----

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

  ;; Symbols of at most 64 positions, bit-sliced (symbols.ts builds the planes once per call):
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
