package program

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/launch"
	gmem "github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// DevBase is where device memory is mapped in the program (KSRT_DEVBASE in ksrt.c).
const DevBase = 0x2000_0000_0000

// maxRequest is the largest request payload the server reads (a symbol copy is the largest).
const maxRequest = 256 << 20

// DefaultHeap is the device memory a program may allocate (the file is sparse).
const DefaultHeap = 4 << 30

// Protocol operations (the OP_ constants of ksrt.c).
const (
	opMalloc = 1 + iota
	opFree
	opMemcpy
	opMemset
	opLaunch
	opSymSet
	opSymGet
	opTime
	opProps
	opOccupancy
	opFuncAttr
	opParams
	opSync
	opUnsupported
	opMemInfo
	opFuncInfo
	opBlockSize
)

// CUDA runtime error codes (cudaError_t values of the CUDA runtime API).
const (
	cudaSuccess                    = 0
	cudaErrorInvalidValue          = 1
	cudaErrorMemoryAllocation      = 2
	cudaErrorInvalidConfiguration  = 9
	cudaErrorInvalidSymbol         = 13
	cudaErrorInvalidDevicePointer  = 17
	cudaErrorInvalidDeviceFunction = 98
	cudaErrorIllegalAddress        = 700
	cudaErrorLaunchOutOfResources  = 701
	cudaErrorAssert                = 710
	cudaErrorMisalignedAddress     = 716
	cudaErrorLaunchFailure         = 719
)

// RunOptions are how a built program runs.
type RunOptions struct {
	Args   []string  // argv[1:]
	Stdin  io.Reader // nil: empty
	Stdout io.Writer // the program's standard output, written as it runs
	Stderr io.Writer
	Timing bool // run the cycle-level timing model for each launch
	// NoCaches: with Timing, time without the time-aware caches (%timing on nocaches);
	// by default they run, as for a single launch.
	NoCaches bool
	Budget   int64 // thread-instructions per launch; 0 = the default
	HeapSize int64 // 0 = DefaultHeap
	// Checks are the correctness checks of every launch (race, init, sync); the
	// order check is never run on a program (it would run the kernel twice on the
	// program's memory).
	Checks analysis.Checks
	// Trace is what the stepping widget records for the first TraceLaunches
	// launches (none when TraceLaunches is 0).
	Trace         launch.Trace
	TraceLaunches int
	// OnLaunch is called after each launch with its report (for streaming).
	OnLaunch func(Launch)
	// LineBuffered makes the program's stdout line-buffered (a notebook streams
	// each line as it is printed; a pipe is otherwise fully buffered).
	LineBuffered bool
	// CachePool and ShadowPool lend every launch the cache models' arrays and
	// the race checker's global shadow (an engine passes its own); nil: the
	// run makes pools of its own, which its launches share.
	CachePool  *gmem.CachePool
	ShadowPool *sim.ShadowPool
}

// Result is what a program run produced.
type Result struct {
	ExitCode int       `json:"exit_code"`
	Signal   string    `json:"signal,omitempty"` // the signal that killed it
	Message  string    `json:"message,omitempty"`
	Events   []Event   `json:"timeline"`
	Launches []*Launch `json:"-"`
}

// Event is one entry of the program's device timeline.
type Event struct {
	Kind    string  `json:"kind"` // "launch", "memcpy", "memset", "malloc", "free", "symbol"
	Detail  string  `json:"detail"`
	Bytes   int64   `json:"bytes,omitempty"`
	Micros  float64 `json:"modelled_us,omitempty"` // modelled time (launches and copies)
	StartUs float64 `json:"start_us"`              // modelled device clock at the start
	Model   string  `json:"model,omitempty"`       // where a copy's time comes from
}

// Launch is one kernel launch of the program and its report.
type Launch struct {
	Index  int            `json:"index"`
	Kernel string         `json:"kernel"`
	Grid   [3]int         `json:"grid"`
	Block  [3]int         `json:"block"`
	Shared int            `json:"dynamic_shared"`
	Micros float64        `json:"modelled_us"`
	Error  string         `json:"error,omitempty"`
	Code   int            `json:"cuda_error"`
	Report *report.Report `json:"report"`
}

type allocation struct {
	base, size uint64
	capacity   uint64 // bytes reserved at base (a freed allocation is reused when it fits)
	managed    bool   // open to host code (cudaMallocManaged, cudaMallocHost)
	live       bool
	api        string // the call that made it
}

var allocAPI = [...]string{"cudaMalloc", "cudaMallocManaged", "cudaMallocHost"}

// alloc reserves size bytes: a freed block that fits (the smallest), else fresh
// space after a gap of at least 256 bytes, so one past the end is unallocated.
// Managed allocations are whole pages, which the program maps for host access.
func (s *server) alloc(size uint64, managed bool) *allocation {
	need := size
	if managed {
		need = (size + 4095) &^ 4095
	}
	var best *allocation
	for _, a := range s.allocs {
		if !a.live && a.managed == managed && a.capacity >= need && (best == nil || a.capacity < best.capacity) {
			best = a
		}
	}
	if best != nil {
		best.size, best.live = size, true
		return best
	}
	base := s.next
	if managed {
		base = (base + 4095) &^ 4095
	}
	if base+need > uint64(len(s.heap)) {
		return nil
	}
	// Reserve the pages now: a sparse page that cannot be backed later (a full
	// /dev/shm) would be a SIGBUS in the simulator instead of cudaErrorMemoryAllocation.
	if need > 0 {
		if err := syscall.Fallocate(s.fd, 0, int64(base), int64(need)); err != nil {
			return nil
		}
	}
	s.next = base + (need+256+255)&^255
	a := &allocation{base: DevBase + base, size: size, capacity: need, managed: managed, live: true}
	s.allocs = append(s.allocs, a)
	return a
}

// server answers one program's calls.
type server struct {
	ctx      context.Context
	p        *Program
	o        RunOptions
	spec     *arch.Spec
	mod      *ptx.Module
	heap     []byte // the parent's mapping of device memory
	fd       int    // the device memory file
	next     uint64
	allocs   []*allocation
	symbols  map[string][]byte
	maxDyn   map[string]int
	clockUs  float64
	res      *Result
	launches []*Launch
}

// Run runs a built program to its end and serves its CUDA calls.
func Run(ctx context.Context, p *Program, o RunOptions) (*Result, error) {
	spec, err := arch.Lookup(p.Opts.Arch)
	if err != nil {
		return nil, err
	}
	mod, err := ptx.Parse("prog.ptx", p.PTX)
	if err != nil {
		return nil, fmt.Errorf("program: parse device code: %w", err)
	}
	size := o.HeapSize
	if size <= 0 {
		size = DefaultHeap
	}
	if o.CachePool == nil {
		o.CachePool = &gmem.CachePool{}
	}
	if o.ShadowPool == nil {
		o.ShadowPool = &sim.ShadowPool{}
	}
	mem, err := deviceFile()
	if err != nil {
		return nil, err
	}
	defer mem.Close()
	fd := int(mem.Fd())
	if err := mem.Truncate(size); err != nil {
		return nil, fmt.Errorf("program: size device memory: %w", err)
	}
	heap, err := syscall.Mmap(fd, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("program: map device memory: %w", err)
	}
	defer syscall.Munmap(heap)
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("program: pipe: %w", err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("program: pipe: %w", err)
	}
	cmd := exec.CommandContext(ctx, p.Exe, o.Args...)
	cmd.Dir = p.Opts.BaseDir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = o.Stdin, o.Stdout, o.Stderr
	cmd.ExtraFiles = []*os.File{mem, reqW, repR} // fds 3, 4, 5
	cmd.Env = append(os.Environ(), "KSRT_HEAP_SIZE="+strconv.FormatInt(size, 10))
	if o.LineBuffered {
		cmd.Env = append(cmd.Env, "KSRT_LINE_BUFFERED=1")
	}
	cmd.WaitDelay = 2 * time.Second // a grandchild holding stdout open does not hold the run
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		repR.Close()
		repW.Close()
		return nil, fmt.Errorf("program: start: %w", err)
	}
	reqW.Close()
	repR.Close()
	s := &server{ctx: ctx, p: p, o: o, spec: spec, mod: mod, heap: heap, fd: fd, symbols: map[string][]byte{}, maxDyn: map[string]int{}, res: &Result{}}
	done := make(chan error, 1)
	go func() { done <- s.serve(reqR, repW) }()
	waitErr := cmd.Wait()
	repW.Close()
	reqR.Close()
	serveErr := <-done
	res := s.res
	res.Launches = s.launches
	if ctx.Err() != nil {
		res.ExitCode, res.Message = 130, "the program was interrupted"
		return res, nil
	}
	if waitErr != nil {
		var ee *exec.ExitError
		if !errors.As(waitErr, &ee) {
			return res, fmt.Errorf("program: %w", waitErr)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			sig := ws.Signal()
			res.Signal = sig.String()
			res.ExitCode = 128 + int(sig)
			res.Message = fmt.Sprintf("the program was killed by signal %d (%s) in host code", int(sig), sig)
		} else {
			res.ExitCode = ee.ExitCode()
		}
	}
	if serveErr != nil && res.Message == "" {
		res.Message = "protocol error: " + serveErr.Error()
	}
	return res, nil
}

// deviceFile makes the shared-memory file of device memory: a file in a private
// directory (under /dev/shm where there is one), unlinked once open.
func deviceFile() (*os.File, error) {
	base := ""
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		base = "/dev/shm"
	}
	dir, err := os.MkdirTemp(base, "kernelscope-dev-")
	if err != nil {
		return nil, fmt.Errorf("program: device memory directory: %w", err)
	}
	defer os.RemoveAll(dir)
	f, err := os.OpenFile(dir+"/memory", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("program: device memory file: %w", err)
	}
	return f, nil
}

// serve reads requests until the program closes its end.
func (s *server) serve(r io.Reader, w io.Writer) error {
	var h [8]byte
	for {
		if _, err := io.ReadFull(r, h[:]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrClosed) {
				return nil
			}
			return err
		}
		op, n := binary.LittleEndian.Uint32(h[:4]), binary.LittleEndian.Uint32(h[4:])
		if n > maxRequest {
			return fmt.Errorf("request %d of %d bytes exceeds the %d-byte limit", op, n, maxRequest)
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			return fmt.Errorf("request %d: %w", op, err)
		}
		status, out := s.handle(op, &reader{b: payload})
		var rh [8]byte
		binary.LittleEndian.PutUint32(rh[:4], uint32(int32(status)))
		binary.LittleEndian.PutUint32(rh[4:], uint32(len(out)))
		if _, err := w.Write(append(rh[:], out...)); err != nil {
			return nil // the program has gone
		}
	}
}

// reader decodes a request payload.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) u32() uint32 {
	if len(r.b) < 4 {
		r.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}
func (r *reader) u64() uint64 {
	if len(r.b) < 8 {
		r.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}
func (r *reader) bytes(n int) []byte {
	if n < 0 || len(r.b) < n {
		r.bad = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}
func (r *reader) str() string { return string(r.bytes(int(r.u32()))) }

func (s *server) event(kind, detail string, bytes int64, us float64) {
	s.res.Events = append(s.res.Events, Event{Kind: kind, Detail: detail, Bytes: bytes, Micros: us, StartUs: s.clockUs})
	s.clockUs += us
}

func (s *server) handle(op uint32, r *reader) (int, []byte) {
	switch op {
	case opMalloc:
		size, kind := r.u64(), r.u32() // 0 cudaMalloc, 1 cudaMallocManaged, 2 cudaMallocHost
		a := s.alloc(size, kind != 0)
		if a == nil {
			return cudaErrorMemoryAllocation, nil
		}
		a.api = allocAPI[min(kind, 2)]
		s.event("malloc", fmt.Sprintf("%s of %d bytes at %#x", a.api, size, a.base), int64(size), 0)
		return cudaSuccess, binary.LittleEndian.AppendUint64(nil, a.base)
	case opFree:
		a := r.u64()
		for _, al := range s.allocs {
			if al.base == a && al.live {
				al.live = false
				clear(s.heap[a-DevBase : a-DevBase+al.size])
				s.event("free", fmt.Sprintf("%#x", a), 0, 0)
				return cudaSuccess, nil
			}
		}
		return cudaErrorInvalidDevicePointer, nil
	case opMemcpy:
		dst, src, n, kind := r.u64(), r.u64(), r.u64(), r.u64()
		if kind > 4 {
			return 21, nil // cudaErrorInvalidMemcpyDirection
		}
		for _, p := range []uint64{dst, src} {
			if s.isDevice(p) && !s.inLive(p, n) {
				return cudaErrorInvalidValue, nil
			}
		}
		if s.isDevice(dst) && s.isDevice(src) {
			copy(s.heap[dst-DevBase:dst-DevBase+n], s.heap[src-DevBase:src-DevBase+n])
		}
		k := s.copyKindOf(dst, src)
		s.copyEvent("memcpy", copyDetail[k], k, int64(n))
		return cudaSuccess, nil
	case opMemset:
		p, v, n := r.u64(), r.u64(), r.u64()
		if !s.inLive(p, n) {
			return cudaErrorInvalidValue, nil
		}
		b := s.heap[p-DevBase : p-DevBase+n]
		for i := range b {
			b[i] = byte(v)
		}
		s.copyEvent("memset", fmt.Sprintf("%#x", p), copyMemset, int64(n))
		return cudaSuccess, nil
	case opSymSet:
		name, off, size := r.str(), r.u64(), r.u64()
		data := r.b
		b := s.symbols[name]
		if b == nil {
			b = make([]byte, size)
			if v := s.initial(name); v != nil {
				copy(b, v)
			}
		}
		if off+uint64(len(data)) > uint64(len(b)) {
			return cudaErrorInvalidValue, nil
		}
		copy(b[off:], data)
		s.symbols[name] = b
		s.copyEvent("symbol", "to "+name, copyH2DPageable, int64(len(data)))
		return cudaSuccess, nil
	case opSymGet:
		name, off, n, size := r.str(), r.u64(), r.u64(), r.u64()
		b := s.symbols[name]
		if b == nil {
			b = make([]byte, size)
			copy(b, s.initial(name))
		}
		if off+n > uint64(len(b)) {
			return cudaErrorInvalidValue, nil
		}
		s.copyEvent("symbol", "from "+name, copyD2HPageable, int64(n))
		return cudaSuccess, append([]byte(nil), b[off:off+n]...)
	case opTime:
		return cudaSuccess, binary.LittleEndian.AppendUint64(nil, math.Float64bits(s.clockUs/1000))
	case opProps:
		return cudaSuccess, s.props()
	case opParams:
		k := s.kernel(r.str())
		if k == nil {
			return cudaErrorInvalidDeviceFunction, nil
		}
		var out []byte
		for _, p := range k.Params {
			out = binary.LittleEndian.AppendUint32(out, uint32(p.Size()))
		}
		return cudaSuccess, out
	case opFuncAttr:
		name, attr, v := r.str(), r.u32(), int(int32(r.u32()))
		if s.kernel(name) == nil {
			return cudaErrorInvalidDeviceFunction, nil
		}
		if attr == 8 { // cudaFuncAttributeMaxDynamicSharedMemorySize
			if v < 0 || v > s.spec.SharedPerBlockOptIn {
				return cudaErrorInvalidValue, nil
			}
			s.maxDyn[name] = v
		}
		return cudaSuccess, nil
	case opOccupancy:
		name, block, smem := r.str(), int(r.u32()), int(r.u64())
		k := s.kernel(name)
		if k == nil {
			return cudaErrorInvalidDeviceFunction, nil
		}
		occ, err := occupancy.Compute(s.spec, occupancy.Input{BlockSize: block, RegsPerThread: ptx.EstimateRegisters(k),
			StaticShared: staticShared(s.mod, k), DynamicShared: smem, OptIn: s.maxDyn[name] > s.spec.SharedPerBlock})
		if err != nil {
			return cudaErrorInvalidValue, nil
		}
		return cudaSuccess, binary.LittleEndian.AppendUint32(nil, uint32(occ.ActiveBlocks))
	case opLaunch:
		return s.launch(r)
	case opMemInfo:
		var used uint64
		for _, a := range s.allocs {
			if a.live {
				used += a.capacity
			}
		}
		out := binary.LittleEndian.AppendUint64(nil, uint64(len(s.heap))-used)
		return cudaSuccess, binary.LittleEndian.AppendUint64(out, uint64(len(s.heap)))
	case opFuncInfo:
		k := s.kernel(r.str())
		if k == nil {
			return cudaErrorInvalidDeviceFunction, nil
		}
		return cudaSuccess, s.funcInfo(k)
	case opBlockSize:
		name, smem, limit := r.str(), int(r.u64()), int(int32(r.u32()))
		k := s.kernel(name)
		if k == nil {
			return cudaErrorInvalidDeviceFunction, nil
		}
		grid, block, err := s.potentialBlockSize(k, name, smem, limit)
		if err != nil {
			return cudaErrorInvalidValue, nil
		}
		out := binary.LittleEndian.AppendUint32(nil, uint32(grid))
		return cudaSuccess, binary.LittleEndian.AppendUint32(out, uint32(block))
	case opUnsupported:
		s.event("unsupported", r.str(), 0, 0)
		return cudaSuccess, nil
	}
	return cudaErrorInvalidValue, nil
}

// copyEvent records a copy in the timeline with its modelled time, which advances
// the device clock (copies on the default stream are ordered with kernels).
func (s *server) copyEvent(kind, detail string, k copyKind, n int64) {
	us, note := copyMicros(s.spec, k, n)
	s.event(kind, detail, n, us)
	s.res.Events[len(s.res.Events)-1].Model = note
}

// copyKindOf classifies a copy for the copy-time model: device memory (cudaMalloc,
// cudaMallocManaged), pinned host memory (cudaMallocHost) or pageable host memory.
func (s *server) copyKindOf(dst, src uint64) copyKind {
	side := func(p uint64) int { // 0 pageable, 1 pinned, 2 device
		if !s.isDevice(p) {
			return 0
		}
		for _, a := range s.allocs {
			if a.live && p >= a.base && p < a.base+a.size && a.api == allocAPI[2] {
				return 1
			}
		}
		return 2
	}
	d, sr := side(dst), side(src)
	switch {
	case d == 2 && sr == 2:
		return copyD2D
	case d == 2 && sr == 1:
		return copyH2DPinned
	case d == 2:
		return copyH2DPageable
	case sr == 2 && d == 1:
		return copyD2HPinned
	case sr == 2:
		return copyD2HPageable
	}
	return copyHostOnly
}

// copyDetail names each copy kind in the timeline.
var copyDetail = [...]string{"HtoD", "HtoD pinned", "DtoH", "DtoH pinned", "DtoD", "memset", "HtoH"}

func (s *server) isDevice(p uint64) bool { return p >= DevBase && p < DevBase+uint64(len(s.heap)) }

func (s *server) inLive(p, n uint64) bool {
	for _, a := range s.allocs {
		if a.live && p >= a.base && p+n <= a.base+a.size {
			return true
		}
	}
	return false
}

// initial is a variable's initial bytes before the program sets it: its
// initialiser from the PTX, or zeros.
func (s *server) initial(name string) []byte {
	b, _, err := sim.InitialBytes(s.mod, name)
	if err != nil {
		return nil // an address initialiser: the launch resolves it; a partial copy starts from zeros
	}
	return b
}

func (s *server) kernel(name string) *ptx.Func {
	for _, k := range s.mod.Kernels() {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func staticShared(m *ptx.Module, f *ptx.Func) int {
	total := 0
	for _, v := range f.Vars {
		if v.Space == ptx.SpaceShared {
			total += v.Size()
		}
	}
	return total
}

// props answers cudaGetDeviceProperties: a 64-byte name, then the figures in ksrt.c's P_ order.
func (s *server) props() []byte {
	name := make([]byte, 64)
	copy(name, "KernelScope model of "+s.spec.Part+" ("+s.spec.Name+")")
	sp := s.spec
	vals := []int64{int64(sp.SMs), int64(sp.WarpSize), int64(sp.MaxThreadsPerBlock), int64(sp.MaxThreadsPerSM), int64(sp.MaxBlocksPerSM),
		int64(sp.RegistersPerSM), int64(sp.MaxRegsPerBlock), int64(sp.SharedPerBlock), int64(sp.SharedPerBlockOptIn), int64(sp.SharedPerSM),
		int64(sp.ClockMHz) * 1000, int64(sp.Major), int64(sp.Minor), int64(sp.L2Bytes), int64(len(s.heap)), 0, 0}
	out := name
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint64(out, uint64(v))
	}
	return out
}

// launch simulates one kernel launch on the program's device memory.
func (s *server) launch(r *reader) (int, []byte) {
	name := r.str()
	var grid, block [3]int
	for i := range grid {
		grid[i] = int(r.u32())
	}
	for i := range block {
		block[i] = int(r.u32())
	}
	shmem := int(r.u64())
	np := int(r.u32())
	params := make([][]byte, 0, np)
	for range np {
		params = append(params, append([]byte(nil), r.bytes(int(r.u32()))...))
	}
	if r.bad {
		return cudaErrorInvalidValue, nil
	}
	k := s.kernel(name)
	if k == nil {
		return cudaErrorInvalidDeviceFunction, nil
	}
	threads := block[0] * block[1] * block[2]
	if threads == 0 || grid[0]*grid[1]*grid[2] == 0 || threads > s.spec.MaxThreadsPerBlock || block[2] > 64 {
		return s.launchRejected(name, grid, block, shmem, cudaErrorInvalidConfiguration, fmt.Sprintf("invalid configuration: grid %v block %v", grid, block))
	}
	limit := s.spec.SharedPerBlock
	if v, ok := s.maxDyn[name]; ok && v > limit {
		limit = v
	}
	if shmem > limit {
		return s.launchRejected(name, grid, block, shmem, cudaErrorInvalidValue,
			fmt.Sprintf("%d bytes of dynamic shared memory exceed the %d allowed (cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize) raises it)", shmem, limit))
	}
	var regions []sim.Region
	for i, a := range s.allocs {
		if a.live {
			off := a.base - DevBase
			regions = append(regions, sim.Region{Base: a.base, Data: s.heap[off : off+a.size : off+a.size], Name: fmt.Sprintf("allocation %d (%s of %d bytes)", i+1, a.api, a.size)})
		}
	}
	sort.Slice(regions, func(i, j int) bool { return regions[i].Base < regions[j].Base })
	syms := map[string][]byte{}
	for n, b := range s.symbols {
		syms[n] = b
	}
	req := analysis.Request{
		Source: []byte(s.p.Source), SourceFile: s.p.Opts.File, Cell: s.p.Opts.Cell, Arch: s.p.Opts.Arch, Prebuilt: s.p.PTX,
		Launch: &launch.Launch{Kernel: name, Shared: shmem, SharedSet: true}, Grid: grid, Block: block,
		Budget: s.o.Budget, Timing: s.o.Timing, TimedCaches: s.o.Timing && !s.o.NoCaches, Trace: s.traceFor(len(s.launches)), BaseDir: s.p.Opts.BaseDir,
		Checks:    analysis.Checks{Race: s.o.Checks.Race, Init: s.o.Checks.Init, Sync: s.o.Checks.Sync},
		CachePool: s.o.CachePool, ShadowPool: s.o.ShadowPool,
		Program: &analysis.ProgramLaunch{Params: params, Memory: regions, Symbols: syms, After: func(res *sim.Result) {
			for _, v := range res.Variables {
				if _, set := s.symbols[v.Name]; set || v.Space == "global" {
					s.symbols[v.Name] = append([]byte(nil), v.Data...)
				}
			}
		}},
	}
	rep, err := analysis.Run(s.ctx, req)
	l := &Launch{Index: len(s.launches), Kernel: name, Grid: grid, Block: block, Shared: shmem, Report: rep}
	if rep != nil {
		s.nameArgs(rep)
		l.Kernel = rep.Kernel
		rep.Toolchain = "program (clang host and device)"
		if rep.Timing != nil && s.spec.ClockMHz > 0 {
			l.Micros = float64(rep.Timing.Cycles) / float64(s.spec.ClockMHz)
		}
	}
	fault := cudaSuccess
	if err != nil {
		l.Error = err.Error()
		fault = faultCode(err, s.p.Source)
		l.Code = fault
	}
	s.launches = append(s.launches, l)
	s.event("launch", fmt.Sprintf("%s<<<%s, %s>>>", l.Kernel, dimText(grid), dimText(block)), 0, l.Micros)
	if s.o.OnLaunch != nil {
		s.o.OnLaunch(*l)
	}
	// The reply: the fault, then the device printf output (the program's stdout)
	// and what CUDA's driver writes to stderr (failed device asserts), each with
	// its length.
	out := binary.LittleEndian.AppendUint32(nil, uint32(int32(fault)))
	var stdout, stderr string
	if rep != nil {
		stdout, stderr = rep.Stdout, rep.Stderr
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(len(stdout)))
	out = append(out, stdout...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(stderr)))
	out = append(out, stderr...)
	return cudaSuccess, out
}

// traceFor is the trace configuration of launch i.
func (s *server) traceFor(i int) launch.Trace {
	if i < s.o.TraceLaunches {
		return s.o.Trace
	}
	return launch.Trace{Steps: -1}
}

func (s *server) launchRejected(name string, grid, block [3]int, shmem, code int, msg string) (int, []byte) {
	l := &Launch{Index: len(s.launches), Kernel: name, Grid: grid, Block: block, Shared: shmem, Error: msg, Code: code}
	s.launches = append(s.launches, l)
	s.event("launch", name+" not launched: "+msg, 0, 0)
	if s.o.OnLaunch != nil {
		s.o.OnLaunch(*l)
	}
	return code, nil
}

var assertRE = regexp.MustCompile(`\bassert\s*\(`)

// faultCode is the CUDA error a failed launch leaves for the next synchronising call.
// A trap on a line that calls assert( is a failed device assert (cudaErrorAssert).
func faultCode(err error, source string) int {
	var f *analysis.Failure
	if errors.As(err, &f) {
		switch f.Err.Kind {
		case "trap":
			lines := strings.Split(source, "\n")
			if l := f.Err.CUDALine; l >= 1 && l <= len(lines) && assertRE.MatchString(lines[l-1]) {
				return cudaErrorAssert
			}
		case "out_of_bounds", "shared_out_of_range":
			return cudaErrorIllegalAddress
		case "misaligned":
			return cudaErrorMisalignedAddress
		case "launch", "args":
			return cudaErrorLaunchOutOfResources
		}
	}
	return cudaErrorLaunchFailure
}

func dimText(d [3]int) string {
	if d[1] <= 1 && d[2] <= 1 {
		return strconv.Itoa(d[0])
	}
	return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2])
}

// maxThreads is the most threads per block a kernel may be launched with.
func (s *server) maxThreads(k *ptx.Func) int {
	n := s.spec.MaxThreadsPerBlock
	if k.MaxNTid != [3]int{} {
		m := 1
		for _, v := range k.MaxNTid {
			m *= max(v, 1)
		}
		n = min(n, m)
	}
	return n
}

// funcInfo answers cudaFuncGetAttributes: the int64 fields in ksrt.c's order.
func (s *server) funcInfo(k *ptx.Func) []byte {
	local := 0
	for _, v := range k.Vars {
		if v.Space == ptx.SpaceLocal {
			local += v.Size()
		}
	}
	ptxVersion := 0
	if maj, min, ok := strings.Cut(s.mod.Version, "."); ok {
		a, _ := strconv.Atoi(maj)
		b, _ := strconv.Atoi(min)
		ptxVersion = a*10 + b
	}
	static := staticShared(s.mod, k)
	dyn := s.spec.SharedPerBlock - static
	if v, ok := s.maxDyn[k.Name]; ok {
		dyn = v
	}
	vals := []int64{int64(static), 0, int64(local), int64(s.maxThreads(k)), int64(ptx.EstimateRegisters(k)), int64(ptxVersion),
		int64(s.spec.Major*10 + s.spec.Minor), int64(dyn)}
	var out []byte
	for _, v := range vals {
		out = binary.LittleEndian.AppendUint64(out, uint64(v))
	}
	return out
}

// potentialBlockSize answers cudaOccupancyMaxPotentialBlockSize: the block size (a
// multiple of the warp size, or the limit) with the most resident threads per SM,
// the largest such when several tie, and the grid that fills every SM at it.
func (s *server) potentialBlockSize(k *ptx.Func, name string, smem, limit int) (grid, block int, err error) {
	maxBlock := s.maxThreads(k)
	if limit > 0 {
		maxBlock = min(maxBlock, limit)
	}
	warp := s.spec.WarpSize
	best, bestBlocks := 0, 0
	for try := (maxBlock + warp - 1) / warp * warp; try > 0; try -= warp {
		b := min(try, maxBlock)
		occ, err := occupancy.Compute(s.spec, occupancy.Input{BlockSize: b, RegsPerThread: ptx.EstimateRegisters(k),
			StaticShared: staticShared(s.mod, k), DynamicShared: smem, OptIn: s.maxDyn[name] > s.spec.SharedPerBlock})
		if err != nil {
			continue
		}
		if b*occ.ActiveBlocks > best*bestBlocks {
			best, bestBlocks = b, occ.ActiveBlocks
		}
		if best*bestBlocks == s.spec.MaxThreadsPerSM {
			break
		}
	}
	if best == 0 {
		return 0, 0, fmt.Errorf("no block size fits")
	}
	return bestBlocks * s.spec.SMs, best, nil
}

// nameArgs says which allocation each pointer argument points into.
func (s *server) nameArgs(rep *report.Report) {
	for i := range rep.Args {
		v, err := strconv.ParseUint(rep.Args[i].Init, 0, 64)
		if err != nil {
			continue
		}
		if !strings.Contains(rep.Args[i].Type, "*") {
			rep.Args[i].Init = scalarText(rep.Args[i].Type, v)
			continue
		}
		if !s.isDevice(v) {
			continue
		}
		for j, a := range s.allocs {
			if a.live && v >= a.base && v <= a.base+a.size {
				rep.Args[i].Address = v
				rep.Args[i].Init = fmt.Sprintf("allocation %d + %d (%s of %d bytes)", j+1, v-a.base, a.api, a.size)
				break
			}
		}
	}
}

// scalarText shows a scalar argument's bits as its C type reads them.
func scalarText(ctype string, v uint64) string {
	t := strings.Fields(strings.ReplaceAll(ctype, "const", ""))
	switch {
	case len(t) == 1 && t[0] == "float":
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(v))), 'g', -1, 32)
	case len(t) == 1 && t[0] == "double":
		return strconv.FormatFloat(math.Float64frombits(v), 'g', -1, 64)
	case strings.Contains(ctype, "unsigned") || strings.Contains(ctype, "size_t") || strings.HasPrefix(ctype, "uint"):
		return strconv.FormatUint(v, 10)
	case strings.Contains(ctype, "long") || strings.Contains(ctype, "int64"):
		return strconv.FormatInt(int64(v), 10)
	case strings.Contains(ctype, "short"):
		return strconv.FormatInt(int64(int16(v)), 10)
	case strings.Contains(ctype, "char"):
		return strconv.FormatInt(int64(int8(v)), 10)
	case strings.Contains(ctype, "int"):
		return strconv.FormatInt(int64(int32(v)), 10)
	}
	return fmt.Sprintf("%#x", v)
}
