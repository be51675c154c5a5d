;; The draws and products of a release: the projections on the hyperplanes (projectBlocks),
;; LapLSH's and the directional samplers' noise products (noise), the standard normals (normals:
;; xoshiro128++ and the ziggurat), the randomized response's flips and random words on
;; seedrandom's xor4096 (flipGrid, randomWords), and the signs of a + scale·b (signs).
;; Wrapper: src/kernels/releases.ts. JS twins and the tests that hold them equal bit for bit:
;; - projectBlocks: src/lsh/hyperplanes.ts projectAll; tests/kernels/wasm.test.ts ('WebAssembly
;;   projections');
;; - noise: src/mechanisms/laplsh/mechanism.ts projectedNoise and the direct samplers' W v
;;   (src/mechanisms/common.ts); tests/kernels/wasm.test.ts ('WebAssembly LapLSH noise products',
;;   'projectDense'), tests/mechanisms/kernelFallback.test.ts;
;; - normals: src/random/ziggurat.ts fillZigguratNormals; tests/kernels/wasm.test.ts ('normals');
;; - flipGrid, randomWords: src/mechanisms/flips.ts on src/random/rng.ts;
;;   tests/mechanisms/flipsKernel.test.ts;
;; - signs: src/lsh/codes.ts packCombinedSigns (its JS loop); tests/lsh/lsh.test.ts
;;   ('packCombinedSigns gives those codes over several chunks of the kernel').

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

;; ---- projections with the sums in registers (src/lsh/hyperplanes.ts projectAll) ----
  ;; Projections r_j . x_i of a chunk of users (rowPtr: users + 1 offsets into colIdx, i32, and
  ;; values, f64; out: users x kappa), column block by column block: the transposed planes at
  ;; $cols hold $kp >= kappa columns a row (a multiple of 8, the extra ones 0), and for each block
  ;; of 16 columns (8 f64x2 registers; a last block of 8 in 4) the row's stored entries are summed
  ;; in registers, in entry order from 0 with a multiply then an add (no fused multiply-add): each
  ;; column's double is the JS loop's. A block reaching past kappa writes its columns below kappa
  ;; through the 128 bytes at $scratch.
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
