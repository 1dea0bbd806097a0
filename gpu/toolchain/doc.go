// Package toolchain compiles CUDA C++ to PTX without the CUDA toolkit.
//
// With nvcc on PATH it runs `nvcc -ptx -lineinfo -arch=ARCH` (and, when cuobjdump
// exists, `nvcc -cubin`, `cuobjdump -sass` and `cuobjdump -res-usage`). Otherwise it
// runs the newest clang found (clang-25 ... clang-14, clang) as
//
//	clang -x cuda --cuda-device-only --cuda-gpu-arch=ARCH -nocudainc -nocudalib -O3
//	      -gline-tables-only -S -mllvm -unroll-threshold=1000 -mllvm -unroll-max-count=4
//	      -include kernelscope_prelude.h
//
// (the unroll options make clang unroll as nvcc does: docs/clang-parity.md). Unless the
// flags choose clang's own contraction (NvccContraction), that run writes LLVM IR
// (-emit-llvm, use-list order kept), the contract flag is removed from every product nvcc
// would not fuse into an fma (one with a use other than an add or subtract of its block:
// contract.go, measured in testdata/contract), and `clang -x ir -Xclang
// -disable-llvm-optzns` compiles the IR to PTX.
//
// The prelude (prelude/kernelscope_prelude.h, embedded) declares what CUDA's
// runtime headers would: qualifiers, vector types, dim3, atomics, min/max and float
// overloads of the math library. It reuses clang's own CUDA wrapper headers for the
// built-in variables, intrinsics and math functions, and defines the libdevice
// (__nv_*) functions they call (prelude/kernelscope_libdevice.h), so the PTX has no
// external function. LibdeviceFunctions lists the ones it defines (those of
// kernelscope_libdevice.h and kernelscope_math_extra.h, which adds lgammaf tgammaf j0f
// j1f y0f y1f jnf ynf asinhf acoshf atanhf cyl_bessel_i0f/i1f, the double log1p expm1
// sinh cosh tan exp10 asinh acosh atanh lgamma tgamma, the double Bessel functions j0 j1
// y0 y1 jn yn cyl_bessel_i0/i1 (double-double series below x = 25, Hankel's expansion
// above), nan and nanf, and isnan/isinf/isfinite/signbit without an include, measured
// against the H200 and a 50-digit reference in docs/realcuda-math.md). Every function
// clang's CUDA headers declare is defined except powi/powif (clang extensions), rcp64h
// and the half conversions (TestLibdeviceCoverage); one it lacks makes Compile fail
// with an error naming it and the calling line. The SIMD intrinsics (__vadd2 ...
// __vsubus4, 82) are the prelude's own integer code (kernelscope_simd.h, in place of
// clang's PTX video instructions, which the simulator does not run), bit-exact against
// the H200 on the sweep's samples.
//
// The prelude directory also stands in for the CUDA toolkit's headers, written for
// KernelScope from NVIDIA's documentation, so unmodified CUDA compiles: cuda_runtime.h,
// cuda_runtime_api.h, cuda.h, device_launch_parameters.h, vector_types.h,
// device_functions.h, math_constants.h (the CUDART_* constants), the sm_*_intrinsics
// headers (all resolve to the prelude, which also declares the host runtime API so a
// whole program with main and <<<>>> launches compiles), assert.h / cassert (device
// assert: the "file:line: function: block: [..], thread: [..] Assertion `e` failed."
// message by device printf, then trap at the assert's line), cooperative_groups.h with
// cooperative_groups/reduce.h and scan.h, cuda_fp16.h and cuda_bf16.h. The cache-hint
// loads and stores (__ldca __ldcg __ldcs __ldlu __ldcv, __stwb __stcg __stcs __stwt,
// every documented scalar and vector type) are one ld.global.OP / st.global.OP each.
// CUB and Thrust are Debian's libcub-dev/libthrust-dev headers in /usr/include (a
// system directory clang searches already; scripts/deps.sh installs them, never
// copied here): for them the prelude also has cuda_occupancy.h (empty: CUB only uses
// the runtime's cudaOccupancy* functions), the remaining cudaError names, texture
// object types and __HOST_DEFINES_H__ (so Thrust does not undefine __host__).
// cub::BlockReduce, BlockScan, WarpReduce, BlockLoad/BlockStore and BlockRadixSort are
// tested through the simulator (cub_test.go); <cub/cub.cuh> compiles whole. A missing
// 'cub/...' or 'thrust/...' header is reported with "install libcub-dev". Device
// malloc/free, tex1Dfetch and device-side launches (cudaGetParameterBuffer,
// cudaLaunchDevice) are declared so such code compiles; calling one prints "device
// malloc is not simulated" (or the like) and traps.
// The C and C++ library headers (<cstdio>, <cmath>, <cstdint>, <climits>, <cfloat>,
// <algorithm>, ...) are the host's, which clang compiles for the device as they are.
// cooperative_groups' grid_group::sync() needs a cooperative launch (<<<..., cooperative>>>:
// the blocks run co-scheduled and it spins on the grid workspace at %envreg1:%envreg2);
// in another launch it prints a message naming the line and traps, as CUDA's does.
// cluster_group (this_cluster()) works in launches with clusters (docs/clusters.md).
// memcpy_async is a plain copy by the group with wait as the group's barrier.
//
// Accuracy of the prelude's libdevice functions (CUDA's own bounds are in the CUDA
// Programming Guide, appendix "Mathematical Functions"):
//
//	function                    how                                               max error
//	sqrtf sqrt, __fsqrt_r*      sqrt.rn / sqrt.r* instruction                     correctly rounded
//	__fadd_r* ... __fmaf_r*     add/mul/div/rcp/fma instruction with the mode      correctly rounded
//	fabs fmin fmax floor ceil   one instruction each (abs, min, max, cvt.rmi/rpi)  exact
//	trunc rint round            cvt.rzi / cvt.rni; round via trunc (half away)     exact
//	conversions __float2int_rn  cvt with the named rounding mode                  exact
//	integer intrinsics          popc, clz, brev, prmt, mul.hi, sad, mul24          exact
//	rsqrtf                      rsqrt.approx.f32 (.ftz with -use_fast_math)       the hardware's
//	rsqrt (double)              div.rn(1, sqrt.rn(x)): two correct roundings       below 1.5 ulp by construction
//	__expf __logf __sinf ...    ex2/lg2/sin/cos/div .approx instructions           the hardware's
//	float math library (below)  nvcc's own operation sequences                    CUDA's (the H200's bits)
//	the double functions below  polynomial algorithms, measured by TestAccuracy   see below
//
// The float functions expf exp2f exp10f expm1f logf log2f log10f log1pf sinf cosf
// sincosf tanf sinhf coshf tanhf asinf acosf atanf atan2f asinhf acoshf atanhf erff
// erfcf erfcxf erfinvf erfcinvf normcdff normcdfinvf cbrtf rcbrtf sinpif cospif
// sincospif lgammaf tgammaf powf hypotf rhypotf norm3df rnorm3df cyl_bessel_i0f/i1f j0f j1f y0f y1f
// (prelude/kernelscope_nvmathf.h) follow the instruction sequences nvcc 13 emits for
// them, in the prelude's own C: the same constants, fma/mul/add order, .approx
// instructions and branches, .ftz under -ftz=true and -use_fast_math as nvcc. They are
// bit-identical to the H200 on every recorded input (TestLibmAgainstH200: 10240 inputs
// per function and build; docs/special-functions.md section 6), so their accuracy is
// CUDA's documented one. The float figures below (TestAccuracy, and the float column
// of the special-function table) are those of the prelude's earlier own algorithms,
// which no __nv_ function calls any more.
//
// The transcendental functions use only correctly rounded operations (fma, add,
// mul, div.rn, cvt.rni, integer ops) with contraction off (clang runs with
// -ffp-contract=fast-honor-pragmas; TestPreludeMathIsNotContracted checks the PTX is
// the same as with -ffp-contract=off), so mathref_test.go
// replays each algorithm bit for bit in Go and measures it against references
// computed with Go's math package, arguments reduced with constants from
// math/big (1400-bit pi, ln 2, ln 10). Float figures are exact to 0.001 ulp; double figures are +-1 ulp
// because the double references are themselves rounded. Maximum error measured on
// 200,000 samples per function (TestAccuracy fails if one exceeds this table):
//
//	expf 0.97 (x in [-110, 90])        exp2f 0.95 ([-160, 130])
//	logf 0.51  log2f 0.51  log10f 0.51 (all positive floats)
//	sinf 1.43  cosf 1.42 (all floats; Payne-Hanek reduction above |x| = 2^14)
//	tanhf 2.12 ([-12, 12])             powf 0.50 (x in [-100, 100], y in [-30, 30]; computed in double)
//	tanf expm1f log1pf sinhf coshf hypotf 0.50 (computed in double; whole ranges)
//	exp10f 0.50 (x in [-46, 38.6]; exp(x*ln10) in double; CUDA documents 2)
//	exp 2  exp2 1  log 1  log2 1  log10 1  tanh 2  (+-1, whole ranges)
//	sin 1  cos 1  (+-1) for |x| < 2^26 (Cody-Waite); sin 2  cos 2  (+-1) over all doubles
//	       (Payne-Hanek with a 192-bit window of 2/pi above 2^26)
//	pow 1 (x in [2^-20, 2^20], y in [-40, 40] multiples of 1/4, against a correctly
//	       rounded math/big reference; log|x| is carried as a double-double)
//
// The special functions (prelude section "special functions", replayed in
// mathspecial_test.go, measured by TestSpecialAccuracy, the simulated PTX checked bit
// for bit against the replay by TestSpecialFunctionsSimulated) work in double with
// double-double corrections; each float version is its double result rounded once,
// so it emits f64 instructions. Methods: atan by atan(k/8) + atan((x-k/8)/(1+x k/8))
// with a Taylor polynomial, atan2/asin/acos through it with sqrt(1-x^2) and the
// quotients carried as double-doubles; cbrt by Newton's method plus a residual
// correction; hypot and the norms by a scaled double-double sum of squares; sinpi
// and cospi by exact reduction to |r| <= 1/4 and pi*r as a double-double; erf, erfcx
// by polynomials interpolated at Chebyshev nodes (fitted with math/big,
// mathbig_test.go; 1/x^2 as variable from x = 4 on, the asymptotic series from 28),
// erfc = e^(-x^2) erfcx with x^2 as a double-double; erfinv by Newton's method on
// erf, erfcinv (and erfinv near +-1) by Newton's method on log erfc = -x^2 + log erfcx;
// normcdf with -x/sqrt2 as a double-double; normcdfinv = -sqrt2 erfcinv(2p).
// Maximum error measured (ulp; 200,000 samples, 2,000 where the reference is math/big
// series; double figures +-1 because most double references are rounded) against
// CUDA's documented bound:
//
//	function            float: measured  CUDA      double: measured  CUDA
//	atan                0.37             2         0 (+-1)           2
//	atan2               0.50             3         1                 2
//	asin acos           0.50             2         1                 2
//	cbrt rcbrt          0.50             1         1, 0              1
//	rhypot              0.50             2         1                 1
//	hypot norm3d norm4d 0.50 (norm3df)   2         0                 2
//	rnorm3d rnorm4d     0.50             2         1                 2
//	sinpi cospi         0.50             1         1                 2
//	erf                 0.50             2         1                 2
//	erfc                0.50             4         4                 5
//	erfcx               0.50             4         2                 4
//	erfinv              0.50             2         2                 5
//	erfcinv             0.50             4         3                 6
//	normcdf             0.50             5         2 (x >= -12)      5
//	normcdfinv          0.50             5         3 (p >= 1e-30)    8
//
// All meet CUDA's bounds. normf/rnormf (float arrays) sum the squares in double.
//
// fmodf remainderf remquof frexpf modff logbf ilogbf nextafterf and their double
// versions are exact (0 ulp, as CUDA documents): fmod/remainder by long division of
// the significands; TestExactMathFunctions simulates them against Go's math package.
// powf and the seven functions after it work in double and emit f64 instructions,
// which matters on GPUs with slow FP64.
// The figures do not hold if the cell's %flags add -ffast-math or -ffp-contract=fast,
// which let clang reassociate or fuse inside these functions.
// With -use_fast_math, expf, exp2f, exp10f, log10f, tanf and powf become the fast
// intrinsics and tanhf tanh.approx.f32 (as nvcc does), clang maps sinf, cosf, logf,
// log2f; denormals are flushed (-ftz) and the fast intrinsics take the .ftz forms;
// a float '/' in the cell is div.approx.ftz.f32 (nvcc's -prec-div=false; clang's
// -mllvm -nvptx-prec-divf32=0) while the prelude's own divisions stay div.rn.
package toolchain
