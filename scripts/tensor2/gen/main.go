// Command gen writes the warpgroup-MMA probe for the H200 (issue 21): probe.cu with
// one kernel per wgmma form and the layout cases (cases/L_*.in). The arithmetic
// kernels (k_A_*) read the mma.sync cases of testdata/measured/tensor/cases, so
// that the same inputs go through mma.sync and wgmma. Usage: go run ./scripts/tensor2/gen DIR
package main

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// arithVar is a wgmma m64n8 form fed with the mma.sync cases of the same types.
type arithVar struct {
	name, cases string // kernel stem, mma case file stem
	types       string // .dtype.atype.btype
	k           int
	eb          int  // element bytes of A and B
	f16acc      bool // D/C are packed f16
}

var arithVars = []arithVar{
	{"f16_f32", "f16_f32_k16", "f32.f16.f16", 16, 2, false},
	{"bf16_f32", "bf16_f32_k16", "f32.bf16.bf16", 16, 2, false},
	{"f16_f16", "f16_f16_k16", "f16.f16.f16", 16, 2, true},
	{"tf32", "tf32_k8", "f32.tf32.tf32", 8, 4, false},
}

// layoutVar is a wgmma form run on hashed shared memory with varied descriptors.
type layoutVar struct {
	name           string
	types          string
	n, k           int
	kind           int // hash fill: 0 f16, 1 bf16, 2 f32 words
	f16acc         bool
	scaleA, scaleB int
	transA, transB int // -1: the form has no transpose operands (tf32)
	cases          int
}

var layoutVars = []layoutVar{
	{"L_f16_n16_t00", "f32.f16.f16", 16, 16, 0, false, 1, 1, 0, 0, 32},
	{"L_f16_n16_t11", "f32.f16.f16", 16, 16, 0, false, 1, 1, 1, 1, 32},
	{"L_bf16_n256_t01", "f32.bf16.bf16", 256, 16, 1, false, -1, 1, 0, 1, 8},
	{"L_tf32_n16", "f32.tf32.tf32", 16, 8, 2, false, 1, 1, -1, -1, 32},
	{"L_f16acc_n32_t10", "f16.f16.f16", 32, 16, 0, true, 1, -1, 1, 0, 24},
	{"L_e4m3_n16", "f32.e4m3.e4m3", 16, 32, 3, false, 1, 1, -1, -1, 16},
	{"L_e5m2_n16", "f32.e5m2.e5m2", 16, 32, 4, false, 1, 1, -1, -1, 16},
}

// SmemBytes is the hashed shared-memory image of the layout kernels.
const SmemBytes = 40960

func run(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "cases"), 0o755); err != nil {
		return err
	}
	var s strings.Builder
	s.WriteString(head)
	for _, v := range arithVars {
		writeArith(&s, v)
	}
	for i, v := range layoutVars {
		writeLayout(&s, v)
		b := layoutCases(v, int64(7000+i))
		if err := os.WriteFile(filepath.Join(dir, "cases", v.name+".in"), b, 0o644); err != nil {
			return err
		}
	}
	writeLatency(&s)
	if err := os.WriteFile(filepath.Join(dir, "wgmma_kernels.cuh"), []byte(s.String()), 0o644); err != nil {
		return err
	}
	s.Reset()
	s.WriteString(hostHead)
	s.WriteString("int main(int argc, char** argv) {\n  const char* dir = argc > 1 ? argv[1] : \".\";\n")
	for _, v := range arithVars {
		nc := 4
		if v.f16acc {
			nc = 2
		}
		na, nb := 4, 2
		fmt.Fprintf(&s, "  run_arith(dir, \"%s\", \"%s\", k_A_%s, %d, %d);\n", v.name, v.cases, v.name, na+nb+nc, nc)
	}
	s.WriteString("  run_latency();\n")
	for _, v := range layoutVars {
		fmt.Fprintf(&s, "  run_layout(dir, \"%s\", k_%s, %d);\n", v.name, v.name, nregs(v.n, v.f16acc))
	}
	s.WriteString("  return 0;\n}\n")
	return os.WriteFile(filepath.Join(dir, "wgmma_probe.cu"), []byte(s.String()), 0o644)
}

func nregs(n int, f16acc bool) int {
	if f16acc {
		return n / 4
	}
	return n / 2
}

func regList(from, n int) string {
	var p []string
	for i := 0; i < n; i++ {
		p = append(p, fmt.Sprintf("%%%d", from+i))
	}
	return "{" + strings.Join(p, ", ") + "}"
}

func dCons(n int, f16acc bool, arr string) string {
	var p []string
	c := "+f"
	if f16acc {
		c = "+r"
	}
	for i := 0; i < n; i++ {
		p = append(p, fmt.Sprintf("\"%s\"(%s[%d])", c, arr, i))
	}
	return strings.Join(p, ", ")
}

func writeArith(s *strings.Builder, v arithVar) {
	nd := 4
	dt := "float"
	if v.f16acc {
		nd, dt = 2, "unsigned"
	}
	t := 16 / v.eb
	aloc := "row = g + 8*((i>>1)&1); col = 2*t + (i&1) + 8*(i>>2);"
	bloc := "kk = 2*t + (i&1) + 8*(i>>1); nn = g;"
	ea, ebn := 8, 4
	if v.eb == 4 {
		aloc = "row = g + 8*(i&1); col = t + 4*(i>>1);"
		bloc = "kk = t + 4*i; nn = g;"
		ea, ebn = 4, 2
	}
	trans := ", 0"
	transAB := ", 0, 0"
	if v.eb == 4 {
		trans, transAB = "", ""
	}
	ins := fmt.Sprintf("wgmma.mma_async.sync.aligned.m64n8k%d.%s", v.k, v.types)
	fmt.Fprintf(s, `
// %[1]s: the mma.sync case file %[2]s through wgmma m64n8k%[3]d, A from registers and from shared memory.
__global__ void __launch_bounds__(128) k_A_%[1]s(const unsigned* in, unsigned* out, int per) {
  __shared__ __align__(1024) unsigned char sm[4096];
  int cs = blockIdx.x, tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
  const unsigned* p = in + 2 + ((size_t)cs * 32 + lane) * per;
  unsigned a[4], b[2];
  %[4]s d1[%[5]d], d2[%[5]d];
  for (int i = 0; i < 4; i++) a[i] = p[i];
  for (int i = 0; i < 2; i++) b[i] = p[4 + i];
  for (int i = 0; i < %[5]d; i++) { unsigned c = p[6 + i]; d1[i] = *(%[4]s*)&c; d2[i] = *(%[4]s*)&c; }
  for (int i = 0; i < %[6]d; i++) { // A (64 x K) K-major, no swizzle: LBO 128, SBO 256
    int row, col; %[7]s row += 16 * warp;
    int off = (row & 7) * 16 + (row >> 3) * 256 + (col / %[8]d) * 128 + (col %% %[8]d) * %[9]d;
    if (%[9]d == 2) *(unsigned short*)(sm + off) = (unsigned short)(a[i / 2] >> (16 * (i & 1)));
    else *(unsigned*)(sm + off) = a[i];
  }
  if (warp == 0) for (int i = 0; i < %[10]d; i++) { // B (K x 8) K-major at 2048
    int kk, nn; %[11]s
    int off = 2048 + nn * 16 + (kk / %[8]d) * 128 + (kk %% %[8]d) * %[9]d;
    if (%[9]d == 2) *(unsigned short*)(sm + off) = (unsigned short)(b[i / 2] >> (16 * (i & 1)));
    else *(unsigned*)(sm + off) = b[i];
  }
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  unsigned base = (unsigned)__cvta_generic_to_shared(sm);
  unsigned long long dA = ((base >> 4) & 0x3fff) | (8ull << 16) | (16ull << 32);
  unsigned long long dB = (((base + 2048) >> 4) & 0x3fff) | (8ull << 16) | (16ull << 32);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{\n.reg .pred sd;\nsetp.ne.b32 sd, %%%[19]d, 0;\n%[12]s %[13]s, {%%%[14]d, %%%[15]d, %%%[16]d, %%%[17]d}, %%%[18]d, sd, 1, 1%[24]s;\n}"
    : %[20]s : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dB), "r"(1));
  asm volatile("{\n.reg .pred sd;\nsetp.ne.b32 sd, %%%[16]d, 0;\n%[12]s %[13]s, %%%[14]d, %%%[15]d, sd, 1, 1%[21]s;\n}"
    : %[22]s : "l"(dA), "l"(dB), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  unsigned* o = out + ((size_t)cs * 128 + tid) * %[23]d;
  for (int i = 0; i < %[5]d; i++) { o[i] = *(unsigned*)&d1[i]; o[%[5]d + i] = *(unsigned*)&d2[i]; }
}
`, v.name, v.cases, v.k, dt, nd, ea, aloc, t, v.eb, ebn, bloc, ins, regList(0, nd), nd, nd+1, nd+2, nd+3, nd+4, nd+5,
		dCons(nd, v.f16acc, "d1"), transAB, dCons(nd, v.f16acc, "d2"), 2*nd, trans)
}

func writeLayout(s *strings.Builder, v layoutVar) {
	nd := nregs(v.n, v.f16acc)
	dt := "float"
	if v.f16acc {
		dt = "unsigned"
	}
	tr := ""
	if v.transA >= 0 {
		tr = fmt.Sprintf(", %d, %d", v.transA, v.transB)
	}
	ins := fmt.Sprintf("wgmma.mma_async.sync.aligned.m64n%dk%d.%s", v.n, v.k, v.types)
	fmt.Fprintf(s, `
// %[1]s: %[2]s on hashed shared memory, descriptors from the case.
__global__ void __launch_bounds__(128) k_%[1]s(const unsigned* cases, unsigned* out) {
  __shared__ __align__(1024) unsigned char sm[%[3]d];
  int cs = blockIdx.x, tid = threadIdx.x;
  const unsigned* q = cases + 1 + cs * 8;
  fill_smem(sm, %[3]d, %[4]d, q[5], tid);
  %[5]s d[%[6]d];
  for (int i = 0; i < %[6]d; i++) { unsigned c = %[7]s; d[i] = *(%[5]s*)&c; }
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  unsigned base = (unsigned)__cvta_generic_to_shared(sm) >> 4;
  unsigned long long dA = ((unsigned long long)q[1] << 32 | q[0]) + base;
  unsigned long long dB = ((unsigned long long)q[3] << 32 | q[2]) + base;
  unsigned scd = q[4];
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{\n.reg .pred sd;\nsetp.ne.b32 sd, %%%[8]d, 0;\n%[9]s %[10]s, %%%[11]d, %%%[12]d, sd, %[13]d, %[14]d%[15]s;\n}"
    : %[16]s : "r"(scd), "l"(dA), "l"(dB));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  unsigned* o = out + ((size_t)cs * 128 + tid) * %[6]d;
  for (int i = 0; i < %[6]d; i++) o[i] = *(unsigned*)&d[i];
}
`, v.name, ins, SmemBytes, v.kind, dt, nd, cInit(v), nd, ins, regList(0, nd), nd+1, nd+2, v.scaleA, v.scaleB, tr, dCons(nd, v.f16acc, "d"))
}

func cInit(v layoutVar) string {
	if v.f16acc {
		return "nice16(hash32(q[6] + tid * 977u + i), 0) | nice16(hash32(q[6] + tid * 977u + i + 500u), 0) << 16"
	}
	return "nice32(hash32(q[6] + tid * 977u + i))"
}

// Desc builds a descriptor with the start field relative to the shared image (the kernel adds its base).
func Desc(start, lbo, sbo, swz int) uint64 {
	return uint64(start>>4)&0x3fff | uint64(lbo>>4&0x3fff)<<16 | uint64(sbo>>4&0x3fff)<<32 | uint64(swz)<<62
}

// layoutCases: per case descA, descB (2 words each), scale-d, fill seed, C seed, 0.
// Swizzle mode s (0 none, 1 128B, 2 64B, 3 32B) cycles; LBO/SBO are canonical in the
// first half of each mode's cases and random multiples of 16 in the other; start
// addresses are pattern-aligned or shifted by multiples of 16.
func layoutCases(v layoutVar, seed int64) []byte {
	r := rand.New(rand.NewSource(seed))
	w := []uint32{uint32(v.cases)}
	eb := [5]int{2, 2, 4, 1, 1}[v.kind]
	for c := 0; c < v.cases; c++ {
		swz := c % 4
		canon := (c/4)%2 == 0
		width := [4]int{16, 128, 64, 32}[swz]
		mk := func(mn int, trans bool) (start, lbo, sbo int) {
			kbytes := v.k * eb
			if canon {
				if !trans {
					// K-major: 8-row groups of `width`-byte rows (no swizzle: 8 x 16-byte core matrices)
					if swz == 0 {
						lbo, sbo = 128, 128*(kbytes/16)
					} else {
						lbo, sbo = 16*(1+r.Intn(8)), 8*width
					}
				} else {
					// MN-major: `width` bytes of MN contiguous, 8 K rows per core block
					if swz == 0 {
						lbo, sbo = 128*(mn*eb/16), 128
					} else {
						lbo, sbo = 8*width*(v.k/8), 8*width
					}
				}
				start = 1024 * r.Intn(4)
				if !trans && swz != 0 && r.Intn(2) == 0 {
					start += 32 * r.Intn(width/32+0)
				}
			} else {
				lbo, sbo = 16*(1+r.Intn(160)), 16*(1+r.Intn(160))
				start = 16 * r.Intn(256)
			}
			return
		}
		ta, tb := v.transA == 1, v.transB == 1
		var sa, la, ssa, sb, lb, ssb int
		for {
			sa, la, ssa = mk(64, ta)
			if Extent(sa, la, ssa, swz, ta, 64, v.k, eb) < SmemBytes {
				break
			}
		}
		for {
			sb, lb, ssb = mk(v.n, tb)
			sb += 16384
			if v.n > 64 {
				sb = 8192 + sb%4096
			}
			if Extent(sb, lb, ssb, swz, tb, v.n, v.k, eb) < SmemBytes {
				break
			}
		}
		da, db := Desc(sa, la, ssa, swz), Desc(sb, lb, ssb, swz)
		scd := uint32(1)
		if r.Intn(6) == 0 {
			scd = 0
		}
		w = append(w, uint32(da), uint32(da>>32), uint32(db), uint32(db>>32), scd, r.Uint32(), r.Uint32(), 0)
	}
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// Extent is one past the last byte an operand of mn x k elements reads (the layout of
// docs/tensor-cores.md, "wgmma"; the swizzle stays inside a 128-byte row).
func Extent(start, lbo, sbo, swz int, mnMajor bool, mn, k, eb int) int {
	hi := 0
	for i := 0; i < mn; i++ {
		for j := 0; j < k; j++ {
			hi = max(hi, start+Offset(i, j, lbo, sbo, swz, mnMajor, eb)+eb)
		}
	}
	return (hi + 127) &^ 127
}

// Offset is the unswizzled byte offset of element (mn, k) from the start address.
func Offset(mn, k, lbo, sbo, swz int, mnMajor bool, eb int) int {
	t := 16 / eb
	w := [4]int{16, 128, 64, 32}[swz]
	switch {
	case !mnMajor && swz == 0:
		return (mn%8)*16 + (mn/8)*sbo + (k/t)*lbo + (k%t)*eb
	case !mnMajor:
		return (mn%8)*w + (mn/8)*sbo + k*eb
	case swz == 0:
		return (mn%t)*eb + (mn/t)*sbo + (k%8)*16 + (k/8)*lbo
	}
	return (mn%(w/eb))*eb + (mn/(w/eb))*lbo + (k%8)*w + (k/8)*sbo
}

// writeLatency writes k_latency: one or more warpgroups issuing chains of wgmma
// m64n64k16 (dependent through the accumulator), timed with clock64 (timing model).
func writeLatency(s *strings.Builder) {
	ins := "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"
	fmt.Fprintf(s, `
// k_latency: mode 0: each wgmma waited for (wait_group 0) before the next (latency);
// mode 1: ITER wgmmas committed back to back then one wait (throughput of one warpgroup).
__global__ void __launch_bounds__(512) k_latency(unsigned long long* cyc, int mode, int iters) {
  __shared__ __align__(1024) unsigned char sm[8192];
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) ((unsigned short*)sm)[i] = 0x3c00;
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  unsigned base = (unsigned)__cvta_generic_to_shared(sm);
  unsigned long long dA = ((base >> 4) & 0x3fff) | (8ull << 16) | (16ull << 32);
  unsigned long long dB = (((base + 4096) >> 4) & 0x3fff) | (8ull << 16) | (16ull << 32);
  float d[32];
  for (int i = 0; i < 32; i++) d[i] = 0.f;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  long long t0 = clock64();
  for (int it = 0; it < iters; it++) {
    asm volatile("{\n.reg .pred sd;\nsetp.ne.b32 sd, %%34, 0;\n%[1]s %[2]s, %%32, %%33, sd, 1, 1, 0, 0;\n}"
      : %[3]s : "l"(dA), "l"(dB), "r"(1));
    if (mode == 0) {
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }
  }
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  long long t1 = clock64();
  float acc = 0.f;
  for (int i = 0; i < 32; i++) acc += d[i];
  if (threadIdx.x %% 128 == 0) { cyc[2 * (threadIdx.x / 128)] = t1 - t0; cyc[2 * (threadIdx.x / 128) + 1] = (unsigned long long)__float_as_uint(acc); }
}
`, ins, regList(0, 32), dCons(32, false, "d"))
}
