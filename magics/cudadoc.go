package magics

// cudaDoc documents one CUDA built-in, qualifier, intrinsic or library function.
type cudaDoc struct {
	Name    string
	Syntax  string
	Summary string
}

// cudaDocs is the read-only table behind CUDA completion and inspection.
var cudaDocs = []cudaDoc{
	// qualifiers
	{"__global__", "__global__ void kernel(...)", "Declares a kernel: a function launched from the host that runs on the device as a grid of thread blocks; it must return void."},
	{"__device__", "__device__ T f(...)", "Declares a function (or variable) that lives on the device and is callable only from device code."},
	{"__host__", "__host__ __device__ T f(...)", "Declares a host function; combined with __device__ the function is compiled for both sides."},
	{"__shared__", "__shared__ float tile[32][33];", "Places a variable in shared memory: one copy per thread block, visible to all its threads, as long-lived as the block."},
	{"__constant__", "__constant__ float coeffs[16];", "Places a variable in the 64 KB constant memory, read-only in kernels and cached; fastest when a warp reads one address."},
	{"__restrict__", "const float* __restrict__ p", "Promises the compiler that the pointer is the only way the kernel reaches that memory, allowing it to cache and reorder loads."},
	{"__launch_bounds__", "__launch_bounds__(maxThreads[, minBlocks])", "Tells the compiler the largest block the kernel is launched with (and optionally the blocks per SM wanted) so it can limit registers."},
	{"__forceinline__", "__forceinline__ __device__ T f(...)", "Asks the compiler to always inline the device function."},
	{"__noinline__", "__noinline__ __device__ T f(...)", "Asks the compiler not to inline the device function."},
	// built-in variables
	{"threadIdx", "uint3 threadIdx", "This thread's index within its block (.x, .y, .z), from 0 to blockDim-1."},
	{"blockIdx", "uint3 blockIdx", "This block's index within the grid (.x, .y, .z), from 0 to gridDim-1."},
	{"blockDim", "dim3 blockDim", "The number of threads in a block in each dimension, as given at launch (%block)."},
	{"gridDim", "dim3 gridDim", "The number of blocks in the grid in each dimension, as given at launch (%grid)."},
	{"warpSize", "int warpSize", "The number of threads in a warp: 32 on every NVIDIA GPU."},
	{"dim3", "dim3(x = 1, y = 1, z = 1)", "A 3-component unsigned int vector for grid and block sizes; missing components are 1."},
	// synchronisation
	{"__syncthreads", "void __syncthreads()", "Waits until every thread of the block has reached this barrier and their shared and global memory writes are visible to the block. Every thread must reach it, or the block deadlocks."},
	{"__syncthreads_count", "int __syncthreads_count(int pred)", "A __syncthreads that also returns how many threads of the block passed a non-zero pred."},
	{"__syncthreads_and", "int __syncthreads_and(int pred)", "A __syncthreads that returns non-zero if pred is non-zero for every thread of the block."},
	{"__syncthreads_or", "int __syncthreads_or(int pred)", "A __syncthreads that returns non-zero if pred is non-zero for any thread of the block."},
	{"__syncwarp", "void __syncwarp(unsigned mask = 0xffffffff)", "Synchronises the threads of the warp named in mask and orders their memory accesses."},
	{"__threadfence", "void __threadfence()", "Orders this thread's memory writes: writes before it are seen by every thread of the device before writes after it."},
	{"__threadfence_block", "void __threadfence_block()", "Like __threadfence, but only guarantees the ordering to threads of the same block."},
	{"__threadfence_system", "void __threadfence_system()", "Like __threadfence, but the ordering also holds for the host and peer devices."},
	// atomics
	{"atomicAdd", "T atomicAdd(T* addr, T val)", "Atomically adds val to *addr and returns the old value; for int, unsigned, unsigned long long, float and double (sm_60+)."},
	{"atomicSub", "T atomicSub(T* addr, T val)", "Atomically subtracts val from *addr and returns the old value; for int and unsigned."},
	{"atomicExch", "T atomicExch(T* addr, T val)", "Atomically stores val in *addr and returns the old value; for int, unsigned, unsigned long long and float."},
	{"atomicMin", "T atomicMin(T* addr, T val)", "Atomically stores min(*addr, val) and returns the old value; for int, unsigned, long long and unsigned long long."},
	{"atomicMax", "T atomicMax(T* addr, T val)", "Atomically stores max(*addr, val) and returns the old value; for int, unsigned, long long and unsigned long long."},
	{"atomicInc", "unsigned atomicInc(unsigned* addr, unsigned val)", "Atomically stores (old >= val) ? 0 : old+1 and returns the old value."},
	{"atomicDec", "unsigned atomicDec(unsigned* addr, unsigned val)", "Atomically stores (old == 0 || old > val) ? val : old-1 and returns the old value."},
	{"atomicCAS", "T atomicCAS(T* addr, T compare, T val)", "Atomically stores val if *addr equals compare; always returns the old value. The building block for other atomics."},
	{"atomicAnd", "T atomicAnd(T* addr, T val)", "Atomically stores *addr & val and returns the old value; for int, unsigned and unsigned long long."},
	{"atomicOr", "T atomicOr(T* addr, T val)", "Atomically stores *addr | val and returns the old value; for int, unsigned and unsigned long long."},
	{"atomicXor", "T atomicXor(T* addr, T val)", "Atomically stores *addr ^ val and returns the old value; for int, unsigned and unsigned long long."},
	// warp-level
	{"__shfl_sync", "T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32)", "Returns var as held by lane srcLane (within groups of width lanes); every lane in mask must execute it."},
	{"__shfl_up_sync", "T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32)", "Returns var from the lane delta below this one; lanes with no such lane keep their own value."},
	{"__shfl_down_sync", "T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32)", "Returns var from the lane delta above this one; lanes with no such lane keep their own value. The usual warp reduction step."},
	{"__shfl_xor_sync", "T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32)", "Returns var from the lane whose index is this lane's XOR laneMask (a butterfly exchange)."},
	{"__ballot_sync", "unsigned __ballot_sync(unsigned mask, int pred)", "Returns a 32-bit mask whose bit N is set when lane N of mask has a non-zero pred."},
	{"__any_sync", "int __any_sync(unsigned mask, int pred)", "Returns non-zero if pred is non-zero for any lane in mask."},
	{"__all_sync", "int __all_sync(unsigned mask, int pred)", "Returns non-zero if pred is non-zero for every lane in mask."},
	{"__activemask", "unsigned __activemask()", "Returns the mask of the warp's lanes that are executing this call now."},
	{"__reduce_add_sync", "unsigned __reduce_add_sync(unsigned mask, unsigned v)", "Returns the sum of v over the lanes in mask (sm_80+, one redux.sync instruction)."},
	{"__reduce_min_sync", "T __reduce_min_sync(unsigned mask, T v)", "Returns the minimum of v over the lanes in mask, for int or unsigned (sm_80+)."},
	{"__reduce_max_sync", "T __reduce_max_sync(unsigned mask, T v)", "Returns the maximum of v over the lanes in mask, for int or unsigned (sm_80+)."},
	{"__match_any_sync", "unsigned __match_any_sync(unsigned mask, T v)", "Returns the mask of lanes in mask that hold the same v as this lane (sm_70+)."},
	{"__match_all_sync", "unsigned __match_all_sync(unsigned mask, T v, int* pred)", "Returns mask if every lane in mask holds the same v (and sets *pred), else 0 (sm_70+)."},
	// integer intrinsics
	{"__popc", "int __popc(unsigned x)", "Counts the set bits of x (popc instruction)."},
	{"__popcll", "int __popcll(unsigned long long x)", "Counts the set bits of a 64-bit x."},
	{"__clz", "int __clz(int x)", "Counts the leading zero bits of x, from the most significant bit; 32 for x == 0."},
	{"__clzll", "int __clzll(long long x)", "Counts the leading zero bits of a 64-bit x; 64 for x == 0."},
	{"__ffs", "int __ffs(int x)", "Returns the 1-based position of the least significant set bit of x, or 0 when x == 0."},
	{"__ffsll", "int __ffsll(long long x)", "Returns the 1-based position of the least significant set bit of a 64-bit x, or 0 when x == 0."},
	{"__brev", "unsigned __brev(unsigned x)", "Reverses the bit order of x (bit 0 becomes bit 31)."},
	{"__brevll", "unsigned long long __brevll(unsigned long long x)", "Reverses the bit order of a 64-bit x."},
	{"__mulhi", "int __mulhi(int x, int y)", "Returns the most significant 32 bits of the 64-bit product x*y."},
	{"__umulhi", "unsigned __umulhi(unsigned x, unsigned y)", "Returns the most significant 32 bits of the unsigned 64-bit product x*y."},
	{"__mul64hi", "long long __mul64hi(long long x, long long y)", "Returns the most significant 64 bits of the 128-bit product x*y."},
	{"__umul64hi", "unsigned long long __umul64hi(unsigned long long x, unsigned long long y)", "Returns the most significant 64 bits of the unsigned 128-bit product x*y."},
	{"__mul24", "int __mul24(int x, int y)", "Multiplies the low 24 bits of x and y and returns the low 32 bits of the product."},
	{"__umul24", "unsigned __umul24(unsigned x, unsigned y)", "Multiplies the low 24 bits of x and y (unsigned) and returns the low 32 bits of the product."},
	{"__byte_perm", "unsigned __byte_perm(unsigned x, unsigned y, unsigned s)", "Builds a word from bytes of x and y (bytes 0-3 and 4-7) chosen by the nibbles of s (prmt instruction)."},
	{"__funnelshift_l", "unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift)", "Shifts the 64-bit hi:lo left by shift & 31 and returns the high 32 bits."},
	{"__funnelshift_r", "unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift)", "Shifts the 64-bit hi:lo right by shift & 31 and returns the low 32 bits."},
	{"__funnelshift_lc", "unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift)", "Like __funnelshift_l with the shift clamped to 32 instead of wrapped."},
	{"__funnelshift_rc", "unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift)", "Like __funnelshift_r with the shift clamped to 32 instead of wrapped."},
	{"__sad", "unsigned __sad(int x, int y, unsigned z)", "Returns |x - y| + z."},
	{"__hadd", "int __hadd(int x, int y)", "Returns (x + y) >> 1 without overflow in the sum."},
	{"__rhadd", "int __rhadd(int x, int y)", "Returns (x + y + 1) >> 1 without overflow in the sum."},
	{"min", "T min(T a, T b)", "The smaller of a and b, for integer and floating-point types (fminf for float)."},
	{"max", "T max(T a, T b)", "The larger of a and b, for integer and floating-point types (fmaxf for float)."},
	{"clock64", "long long clock64()", "Reads the SM's 64-bit cycle counter."},
	{"__ldg", "T __ldg(const T* p)", "Loads through the read-only data cache (ld.global.nc); the data must not change during the kernel."},
	// conversions and bit casts
	{"__float2int_rn", "int __float2int_rn(float x)", "Converts x to int rounding to nearest even (_rz toward zero, _rd down, _ru up); out-of-range values saturate."},
	{"__float2int_rz", "int __float2int_rz(float x)", "Converts x to int rounding toward zero, like a C cast."},
	{"__float2int_rd", "int __float2int_rd(float x)", "Converts x to int rounding down (toward minus infinity)."},
	{"__float2int_ru", "int __float2int_ru(float x)", "Converts x to int rounding up (toward plus infinity)."},
	{"__float2uint_rn", "unsigned __float2uint_rn(float x)", "Converts x to unsigned int rounding to nearest even."},
	{"__int2float_rn", "float __int2float_rn(int x)", "Converts x to float rounding to nearest even."},
	{"__float_as_int", "int __float_as_int(float x)", "Reinterprets the bits of x as an int (no conversion)."},
	{"__int_as_float", "float __int_as_float(int x)", "Reinterprets the bits of x as a float (no conversion)."},
	{"__float_as_uint", "unsigned __float_as_uint(float x)", "Reinterprets the bits of x as an unsigned int."},
	{"__double2float_rn", "float __double2float_rn(double x)", "Converts x to float rounding to nearest even."},
	{"__saturatef", "float __saturatef(float x)", "Clamps x to [0, 1]; NaN becomes 0."},
	// rounded arithmetic
	{"__fadd_rn", "float __fadd_rn(float x, float y)", "x + y rounded to nearest even; never contracted into an FMA."},
	{"__fmul_rn", "float __fmul_rn(float x, float y)", "x * y rounded to nearest even; never contracted into an FMA."},
	{"__fmaf_rn", "float __fmaf_rn(float x, float y, float z)", "x * y + z with one rounding, to nearest even."},
	{"__fdiv_rn", "float __fdiv_rn(float x, float y)", "x / y correctly rounded to nearest even."},
	{"__fsqrt_rn", "float __fsqrt_rn(float x)", "Square root correctly rounded to nearest even."},
	// fast intrinsics
	{"__fdividef", "float __fdividef(float x, float y)", "Fast approximate x / y (div.approx); returns 0 when 2^126 < |y| < 2^128."},
	{"__expf", "float __expf(float x)", "Fast approximate e^x from the ex2.approx instruction; error grows with |x|."},
	{"__exp10f", "float __exp10f(float x)", "Fast approximate 10^x from the ex2.approx instruction."},
	{"__logf", "float __logf(float x)", "Fast approximate natural logarithm from the lg2.approx instruction."},
	{"__log2f", "float __log2f(float x)", "Fast approximate base-2 logarithm (lg2.approx)."},
	{"__log10f", "float __log10f(float x)", "Fast approximate base-10 logarithm from lg2.approx."},
	{"__sinf", "float __sinf(float x)", "Fast approximate sine (sin.approx); accurate only for small |x|, e.g. within [-pi, pi]."},
	{"__cosf", "float __cosf(float x)", "Fast approximate cosine (cos.approx); accurate only for small |x|, e.g. within [-pi, pi]."},
	{"__tanf", "float __tanf(float x)", "Fast approximate tangent: __sinf(x) / __cosf(x) with a fast division."},
	{"__powf", "float __powf(float x, float y)", "Fast approximate x^y as exp2(y * log2(x)) with approximate instructions."},
	// math library
	{"sqrtf", "float sqrtf(float x)", "Square root, correctly rounded (sqrt.rn) unless -use_fast_math."},
	{"rsqrtf", "float rsqrtf(float x)", "Reciprocal square root 1/sqrt(x), approximate (rsqrt.approx)."},
	{"expf", "float expf(float x)", "e raised to x."},
	{"exp2f", "float exp2f(float x)", "2 raised to x."},
	{"logf", "float logf(float x)", "Natural logarithm of x; -inf at 0, NaN below 0."},
	{"log2f", "float log2f(float x)", "Base-2 logarithm of x."},
	{"log10f", "float log10f(float x)", "Base-10 logarithm of x."},
	{"sinf", "float sinf(float x)", "Sine of x (radians), with full-range argument reduction."},
	{"cosf", "float cosf(float x)", "Cosine of x (radians), with full-range argument reduction."},
	{"sincosf", "void sincosf(float x, float* s, float* c)", "Sine and cosine of x at once."},
	{"tanhf", "float tanhf(float x)", "Hyperbolic tangent of x."},
	{"powf", "float powf(float x, float y)", "x raised to y, with C's special cases (negative x needs an integer y)."},
	{"fabsf", "float fabsf(float x)", "Absolute value of x."},
	{"fminf", "float fminf(float x, float y)", "The smaller of x and y; a NaN argument is ignored."},
	{"fmaxf", "float fmaxf(float x, float y)", "The larger of x and y; a NaN argument is ignored."},
	{"floorf", "float floorf(float x)", "Largest integer not above x."},
	{"ceilf", "float ceilf(float x)", "Smallest integer not below x."},
	{"truncf", "float truncf(float x)", "x rounded toward zero to an integer."},
	{"roundf", "float roundf(float x)", "x rounded to the nearest integer, halves away from zero (several instructions; rintf is one)."},
	{"rintf", "float rintf(float x)", "x rounded to the nearest integer, halves to even (one instruction)."},
	{"fmaf", "float fmaf(float x, float y, float z)", "x * y + z with a single rounding (fma.rn)."},
	{"sqrt", "double sqrt(double x)", "Square root, correctly rounded; sqrt(float) is sqrtf."},
	{"exp", "double exp(double x)", "e raised to x; exp(float) is expf."},
	{"log", "double log(double x)", "Natural logarithm; log(float) is logf."},
	{"sin", "double sin(double x)", "Sine; sin(float) is sinf."},
	{"cos", "double cos(double x)", "Cosine; cos(float) is cosf."},
	{"tanh", "double tanh(double x)", "Hyperbolic tangent; tanh(float) is tanhf."},
	{"pow", "double pow(double x, double y)", "x raised to y; pow(float, float) is powf."},
	{"fabs", "double fabs(double x)", "Absolute value."},
	{"fma", "double fma(double x, double y, double z)", "x * y + z with a single rounding."},
	// vector types
	{"float4", "struct float4 { float x, y, z, w; }", "Four floats, 16-byte aligned: one float4 load or store moves 128 bits per thread."},
	{"float2", "struct float2 { float x, y; }", "Two floats, 8-byte aligned."},
	{"int4", "struct int4 { int x, y, z, w; }", "Four ints, 16-byte aligned."},
	{"int2", "struct int2 { int x, y; }", "Two ints, 8-byte aligned."},
	{"uint4", "struct uint4 { unsigned x, y, z, w; }", "Four unsigned ints, 16-byte aligned."},
	{"make_float4", "float4 make_float4(float x, float y, float z, float w)", "Builds a float4."},
	{"make_int4", "int4 make_int4(int x, int y, int z, int w)", "Builds an int4."},
	{"make_float2", "float2 make_float2(float x, float y)", "Builds a float2."},
}

// cppKeywords are C++ words offered by completion (no documentation).
var cppKeywords = []string{
	"auto", "bool", "break", "case", "char", "const", "constexpr", "continue", "default", "do", "double", "else",
	"enum", "extern", "false", "float", "for", "if", "inline", "int", "long", "nullptr", "return", "short",
	"signed", "sizeof", "static", "static_cast", "reinterpret_cast", "struct", "switch", "template", "true",
	"typedef", "typename", "unsigned", "void", "volatile", "while", "#define", "#include", "#pragma unroll",
}

func lookupCUDA(name string) (cudaDoc, bool) {
	for _, d := range cudaDocs {
		if d.Name == name {
			return d, true
		}
	}
	return cudaDoc{}, false
}
