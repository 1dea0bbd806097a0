package magics

import (
	"html"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// magicDoc documents one magic.
type magicDoc struct {
	Name    string
	Syntax  string
	Summary string
}

// magicTable is the table behind %help, %lsmagic, completion and inspection.
func magicTable() []magicDoc {
	return []magicDoc{
		{"%%ptx", "%%ptx", "First line of a cell of PTX instead of CUDA: the PTX is parsed and simulated as written."},
		{"%%writefile", "%%writefile [-a] vec.cuh", "First line of a cell whose other lines are written to a file beside the notebook (-a appends), e.g. a header to #include; in sandbox mode only under the notebook's directory."},
		{"%%cuda_define", "%%cuda_define helpers", "First line of a cell of device functions, types, __constant__/__device__ variables and macros kept in the session: it is compiled at once, and later CUDA cells are compiled as if it were written above them (errors name the definition and its line). Running it again replaces it; restarting the kernel forgets it."},
		{"%arch", "%arch sm_90", "Target architecture: " + strings.Join(arch.Names(), ", ") + " (default sm_80)."},
		{"%grid", "%grid 4 | 4,2 | 4x2 | auto", "Grid size in blocks, 1 to 3 dimensions; auto picks enough blocks for the buffers."},
		{"%block", "%block 256 | 32,8 | auto", "Block size in threads, 1 to 3 dimensions, at most 1024 threads."},
		{"%launch", "%launch NAME(a=rand(1000), b=zeros(1000):f32, n=1000, alpha=2.5f)",
			"Chooses the kernel and its arguments. Buffers: zeros(n), ones(n), arange(n), rand(n[, lo, hi[, seed]]), fill(n, v), file(\"x.bin\"); " +
				"element type from the kernel or a suffix :i8 :u8 :i16 :u16 :i32 :u32 :i64 :u64 :f16 :bf16 :f32 :f64. Scalars are literals; a left-out argument takes its CUDA default. " +
				"A template kernel is named with its arguments, MatrixMul<16>(...); NAME<<<grid, block, shared_bytes>>>(...) also sets the launch configuration; " +
				"after them, cluster(x, y, z) launches thread-block clusters of that shape (distributed shared memory, cluster.sync()) and cooperative makes a cooperative launch " +
				"(cudaLaunchCooperativeKernel: grid.sync(); every block must fit on the GPU at once), e.g. k<<<8, 128, 0, cluster(2)>>>(...), k<<<264, 256, cooperative>>>(...)."},
		{"%shared", "%shared 4096 | 256*sizeof(float) | auto",
			"Dynamic shared memory per block for extern __shared__ arrays (the third <<<grid, block, bytes>>> value; %launch k<<<4, 256, 1024>>>(...) sets it too); auto: none given."},
		{"%symbol", "%symbol c_Kernel = rand(17) | file(\"k.bin\"):f32 | 2.5f | clear",
			"Sets a __constant__ or __device__ variable before the launch (like cudaMemcpyToSymbol); initialisers as in %launch, a number is one element; shown with the outputs. clear forgets them."},
		{"%tensormap", "%tensormap tmA = tiled(A, dims=[1024, 1024], box=[64, 64], swizzle=128B) | clear",
			"A tiled tensor map (cuTensorMapEncodeTiled) for the kernel's const __grid_constant__ CUtensorMap parameter (or CUtensorMap* argument) named tmA, over buffer parameter A, for cp.async.bulk.tensor: dims and box innermost first; optional dtype= (default A's type), strides=[bytes of dims 1..] (default packed), element_strides=[...], swizzle=none|32B|64B|128B, oob=zero|nan, interleave=none. In %launch the map's place may be given as its name. clear forgets them."},
		{"%compiler", "%compiler auto | clang | nvcc", "Compiler for CUDA cells; auto uses nvcc when installed, else the newest clang."},
		{"%flags", "%flags -O3 -use_fast_math", "Extra compiler flags from an allow-list: -O0..-O3, -DNAME[=V], -UNAME, -std=c++17, -Wall -Wno-NAME -Werror, -w, -ffast-math, -use_fast_math, -ftz= -prec-div= -prec-sqrt= -fmad=, -lineinfo, -maxrregcount=N, -I DIR (see the README). Refused in sandbox mode."},
		{"%trace", "%trace block=0 warps=0-3 steps=5000", "What the stepping widget records: one block (linear index), a range of its warps, at most this many steps."},
		{"%show", "%show source,ptx,sass,memory,occupancy,timeline,trace,hints,outputs | all", "Shows these sections of the answer."},
		{"%hide", "%hide sass,timeline | all", "Hides these sections of the answer."},
		{"%sample", "%sample NAME", "Runs a bundled sample kernel; its PTX is pre-built, so it works with no compiler installed."},
		{"%samples", "%samples", "Lists the bundled sample kernels."},
		{"%budget", "%budget 2e9", "The most thread-instructions one launch may simulate (default 2e9)."},
		{"%timing", "%timing on | off | all [nocaches] [sass | ptx] [interleaved | replay]", "Turns the timing model (cycles, stalls, timeline) on or off (default on); a launch of more than 16 waves is timed on 16 of them and extrapolated (the report gives the estimated error); all times every block. Time-aware L1/L2 caches (fills complete after their latency, a hit on an in-flight sector waits, MSHR and pending-request limits) and same-address atomics serialised at the H200's measured rate are on by default (caches names them); nocaches: turns them off (the functional-order cache counters and no atomic serialisation); sass (the default): each PTX instruction issues as the SASS instructions it becomes (from the nvdisasm listing when nvcc built the cell, else the modelled ptxas lowering), each on its own pipe; ptx: one issue slot per PTX instruction (the stream of earlier versions); the report's timing.stream says which timed the launch; interleaved: execution-driven, the simulator runs each instruction when the model issues it, so resident blocks interleave (CAS loops, spin-waits between blocks; the default for kernels with global atomics or volatile/acquire global loads); replay: trace-driven, blocks simulated to completion on every core, then timed (the default otherwise)."},
		{"%check", "%check race,init,sync,order | all | off", "Correctness checks: shared/global races, reads of unwritten memory, barrier and warp-sync misuse (race, init, sync: on by default); order reruns the launch in reverse block and warp order and compares the outputs."},
		{"%expect", "%expect out == a + b | out ~= file(\"ref.bin\") ulp=2 | sum(hist) == n", "An expectation checked after the launch over its buffers and scalars; the report says whether each holds, with the first failing index."},
		{"%defines", "%defines", "Lists the kept definitions (%%cuda_define) with the names they declare."},
		{"%undefine", "%undefine helpers [more ...]", "Drops kept definitions; later cells no longer see them."},
		{"%compare", "%compare [A B]", "Compares the last two reports, or the two named A and B, side by side."},
		{"%program", "%program", "Marks the cell as a whole CUDA program (host code with main(), cudaMalloc/cudaMemcpy, launches): it is built and run, its output streamed, then one report per launch and a timeline. A cell with a line starting int main( is a program without it."},
		{"%name", "%name NAME", "Names this cell's report for a later %compare."},
		{"%help", "%help", "Shows this help."},
		{"%lsmagic", "%lsmagic", "Lists the magics."},
	}
}

// Names lists every magic, %%ptx first, then the line magics in help order.
func Names() []string {
	out := make([]string, len(magicTable()))
	for i, m := range magicTable() {
		out[i] = m.Name
	}
	return out
}

func lookupMagic(name string) (magicDoc, bool) {
	for _, m := range magicTable() {
		if m.Name == name {
			return m, true
		}
	}
	return magicDoc{}, false
}

const helpIntro = "KernelScope cells hold CUDA C++ (or PTX after %%ptx). Lines starting with % are magics: " +
	"a cell of magics only sets the defaults for later cells; magics in a code cell apply to that cell only."

// HelpText is %help as plain text.
func HelpText() string {
	var b strings.Builder
	b.WriteString(helpIntro)
	b.WriteString("\n\n")
	w := 0
	for _, m := range magicTable() {
		w = max(w, len(m.Name))
	}
	for _, m := range magicTable() {
		b.WriteString(m.Name)
		b.WriteString(strings.Repeat(" ", w-len(m.Name)+2))
		b.WriteString(m.Summary)
		b.WriteString("\n")
		b.WriteString(strings.Repeat(" ", w+2))
		b.WriteString("e.g. ")
		b.WriteString(m.Syntax)
		b.WriteString("\n")
	}
	return b.String()
}

// HelpHTML is %help as a self-contained HTML table.
func HelpHTML() string {
	var b strings.Builder
	b.WriteString(`<div class="kernelscope-help" style="font-family:sans-serif;font-size:13px"><p>`)
	b.WriteString(html.EscapeString(helpIntro))
	b.WriteString(`</p><table style="border-collapse:collapse;margin:0"><tr><th style="text-align:left;padding:2px 8px">magic</th>` +
		`<th style="text-align:left;padding:2px 8px">example</th><th style="text-align:left;padding:2px 8px">what it does</th></tr>`)
	for _, m := range magicTable() {
		b.WriteString(`<tr><td style="text-align:left;padding:2px 8px"><code>`)
		b.WriteString(html.EscapeString(m.Name))
		b.WriteString(`</code></td><td style="text-align:left;padding:2px 8px"><code>`)
		b.WriteString(html.EscapeString(m.Syntax))
		b.WriteString(`</code></td><td style="text-align:left;padding:2px 8px">`)
		b.WriteString(html.EscapeString(m.Summary))
		b.WriteString("</td></tr>")
	}
	b.WriteString("</table></div>")
	return b.String()
}
