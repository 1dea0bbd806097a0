// Package launch describes a kernel launch as the cell language gives it (the
// kernel, its arguments and their initialisers, what to trace) and turns
// initialisers and literals into the bytes a launch needs. It knows nothing of
// PTX, the simulator or Jupyter.
package launch

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Launch chooses the kernel and its arguments (the %launch magic) and the
// rest of the launch configuration the cell gives.
type Launch struct {
	Kernel       string
	TemplateArgs string // "16" of MatrixMul<16>(...); "" when none were given
	Args         []Arg  // by name when every Name is set, else by position

	Grid, Block [3]int      // from NAME<<<grid, block[, shared]>>>(...); zero when not given
	Shared      int         // dynamic shared memory per block in bytes (<<<g, b, N>>>, %shared N, --dynamic-smem N)
	SharedSet   bool        // Shared was given (0 included)
	Cluster     [3]int      // blocks per cluster (<<<g, b, shmem, cluster(2,1,1)>>>); zero when not given
	Cooperative bool        // a cooperative launch (<<<g, b, shmem, cooperative>>>, cudaLaunchCooperativeKernel)
	Symbols     []Symbol    // __constant__ / __device__ variables the launch sets (%symbol)
	TensorMaps  []TensorMap // tensor maps for CUtensorMap parameters (%tensormap, --tensormap)
}

// TensorMap is a tiled tensor map for a CUtensorMap parameter, as cuTensorMapEncodeTiled
// takes it: %tensormap tmA = tiled(A, dims=[1024, 1024], box=[64, 64], swizzle=128B).
type TensorMap struct {
	Name        string   // the kernel parameter (or %launch argument) that receives it
	Buffer      string   // the buffer parameter holding the tensor
	DType       string   // element type; "" = the buffer's
	Dims        []uint64 // innermost first
	Strides     []uint64 // bytes, dimensions 1..; nil = packed
	Box         []uint32
	ElemStrides []uint32 // nil = all 1
	Swizzle     int      // 0, 32, 64, 128
	OOBNaN      bool     // oob=nan
	Interleave  string   // "" or "none"; others are refused by the simulator
}

// Symbol sets a module-scope __constant__ or __device__ variable before the
// launch, as cudaMemcpyToSymbol would: %symbol c_Kernel = rand(17).
type Symbol struct {
	Name string
	Init Init
}

// Clone returns a deep copy of l.
func (l *Launch) Clone() *Launch {
	if l == nil {
		return nil
	}
	c := *l
	c.Args = append([]Arg(nil), l.Args...)
	for i := range c.Args {
		if in := c.Args[i].Init; in != nil {
			cp := *in
			c.Args[i].Init = &cp
		}
	}
	c.Symbols = append([]Symbol(nil), l.Symbols...)
	c.TensorMaps = append([]TensorMap(nil), l.TensorMaps...)
	return &c
}

// Arg is one argument: a buffer initialiser or a scalar literal.
type Arg struct {
	Name   string
	Init   *Init  // buffer; nil for a scalar
	Scalar string // scalar literal ("2.5f", "1000", "0x10")
}

// Init is a buffer initialiser: zeros(n), ones(n), arange(n), rand(n[, lo, hi[, seed]]), fill(n, v), file("path").
type Init struct {
	Func     string
	N        int
	Lo, Hi   float64
	Seed     int64
	HasRange bool
	HasSeed  bool
	Fill     string
	Path     string
	Type     string // element type suffix; "" = inferred from the kernel
}

// Trace selects what the stepping widget records (the %trace magic).
type Trace struct {
	Block          int // linear block index
	WarpLo, WarpHi int // inclusive
	Steps          int // 0 = 5000
}

// ElemSizes maps the cell language's element types to their sizes in bytes.
var ElemSizes = map[string]int{
	"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8,
	"f16": 2, "bf16": 2, "f32": 4, "f64": 8,
}

// ParseScalar turns a literal ("2.5f", "1000", "-3", "0x10") into raw bits of the type.
func ParseScalar(text, typ string) (uint64, error) {
	t := strings.TrimSpace(text)
	isFloat := strings.HasPrefix(typ, "f") || typ == "bf16"
	if isFloat {
		t = strings.TrimSuffix(strings.TrimSuffix(t, "f"), "F")
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, fmt.Errorf("expected a number, found %q", text)
		}
		switch typ {
		case "f32":
			return uint64(math.Float32bits(float32(v))), nil
		case "f64":
			return math.Float64bits(v), nil
		case "f16":
			return uint64(F16Bits(float32(v))), nil
		case "bf16":
			return uint64(math.Float32bits(float32(v)) >> 16), nil
		}
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "u"), "U")
	v, err := strconv.ParseInt(t, 0, 64)
	if err != nil {
		u, uerr := strconv.ParseUint(t, 0, 64)
		if uerr != nil {
			if f, ferr := strconv.ParseFloat(t, 64); ferr == nil && f == math.Trunc(f) {
				return uint64(int64(f)), nil
			}
			return 0, fmt.Errorf("expected an integer, found %q", text)
		}
		return u, nil
	}
	return uint64(v), nil
}

// Materialise builds a buffer from an initialiser; it returns the bytes and a description.
// Without an explicit seed, rand uses defaultSeed (the argument's position),
// so two rand() buffers of one launch differ.
func Materialise(in Init, elem string, size int, baseDir string, defaultSeed int64) ([]byte, string, error) {
	const maxBytes = 1 << 30
	if in.Func == "file" {
		path := in.Path
		if !filepath.IsAbs(path) && baseDir != "" {
			path = filepath.Join(baseDir, path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, "", fmt.Errorf("file(%q): %w", in.Path, err)
		}
		if len(b)%size != 0 {
			b = append(b, make([]byte, size-len(b)%size)...)
		}
		return b, fmt.Sprintf("file(%q):%s", in.Path, elem), nil
	}
	if in.N <= 0 {
		return nil, "", fmt.Errorf("%s: the element count must be positive, found %d", in.Func, in.N)
	}
	if int64(in.N)*int64(size) > maxBytes {
		return nil, "", fmt.Errorf("%s(%d): %d bytes is more than the 1 GiB a buffer may have", in.Func, in.N, int64(in.N)*int64(size))
	}
	buf := make([]byte, in.N*size)
	desc := fmt.Sprintf("%s(%d)", in.Func, in.N)
	isFloat := strings.HasPrefix(elem, "f") || elem == "bf16"
	put := func(i int, v float64) {
		putElem(buf[i*size:], elem, v)
	}
	switch in.Func {
	case "zeros":
	case "empty":
		// No initialiser: the bytes are undefined (zero in the simulator);
		// initcheck reports reads of bytes the kernel did not write.
	case "ones":
		for i := 0; i < in.N; i++ {
			put(i, 1)
		}
	case "arange":
		for i := 0; i < in.N; i++ {
			put(i, float64(i))
		}
	case "fill":
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(in.Fill), "f"), 64)
		if err != nil {
			iv, ierr := strconv.ParseInt(strings.TrimSpace(in.Fill), 0, 64)
			if ierr != nil {
				return nil, "", fmt.Errorf("fill(%d, %s): expected a number", in.N, in.Fill)
			}
			v = float64(iv)
		}
		for i := 0; i < in.N; i++ {
			put(i, v)
		}
		desc = fmt.Sprintf("fill(%d, %s)", in.N, in.Fill)
	case "rand":
		lo, hi := 0.0, 1.0
		if !isFloat {
			hi = 100
		}
		if in.HasRange {
			lo, hi = in.Lo, in.Hi
		}
		seed := defaultSeed
		if in.HasSeed {
			seed = in.Seed
		}
		if !(hi >= lo) {
			return nil, "", fmt.Errorf("rand(%d, %g, %g): the upper bound is below the lower bound", in.N, lo, hi)
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x4b53))
		for i := 0; i < in.N; i++ {
			if isFloat {
				put(i, lo+(hi-lo)*r.Float64())
			} else {
				span := int64(hi - lo)
				if span <= 0 {
					put(i, lo)
				} else {
					put(i, lo+float64(r.Int64N(span)))
				}
			}
		}
		desc = fmt.Sprintf("rand(%d, %g, %g, seed=%d)", in.N, lo, hi, seed)
	default:
		return nil, "", fmt.Errorf("unknown initialiser %q (valid: zeros ones arange rand fill file empty)", in.Func)
	}
	return buf, desc + ":" + elem, nil
}

// putElem stores v as one element of the given type (integers wrap like a C cast of an integral value).
func putElem(b []byte, elem string, v float64) {
	switch elem {
	case "i8", "u8":
		b[0] = byte(int64(v))
	case "i16", "u16":
		binary.LittleEndian.PutUint16(b, uint16(int64(v)))
	case "i32", "u32":
		binary.LittleEndian.PutUint32(b, uint32(int64(v)))
	case "i64":
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	case "u64":
		binary.LittleEndian.PutUint64(b, uint64(v))
	case "f16":
		binary.LittleEndian.PutUint16(b, F16Bits(float32(v)))
	case "bf16":
		binary.LittleEndian.PutUint16(b, uint16(math.Float32bits(float32(v))>>16))
	case "f32":
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case "f64":
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	}
}

// F16Bits converts to IEEE half precision, rounding to nearest even.
func F16Bits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b >> 23) & 0xff)
	man := b & 0x7fffff
	switch {
	case exp == 0xff:
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127+15 >= 0x1f:
		return sign | 0x7c00
	case exp-127+15 <= 0:
		// A half subnormal counts units of 2^-24: the value m*2^(exp-150) is
		// m >> (126-exp) units, rounded to nearest even.
		shift := uint(126 - exp)
		if shift > 24 {
			return sign
		}
		m := man | 0x800000
		half := uint32(1) << (shift - 1)
		r := m >> shift
		rem := m & (1<<shift - 1)
		if rem > half || (rem == half && r&1 == 1) {
			r++
		}
		return sign | uint16(r)
	}
	e := uint16(exp - 127 + 15)
	r := man >> 13
	rem := man & 0x1fff
	v := uint32(e)<<10 | r
	if rem > 0x1000 || (rem == 0x1000 && r&1 == 1) {
		v++
	}
	return sign | uint16(v)
}

// FormatElem formats element i of a buffer.
func FormatElem(b []byte, elem string) string {
	switch elem {
	case "i8":
		return strconv.Itoa(int(int8(b[0])))
	case "u8":
		return strconv.Itoa(int(b[0]))
	case "i16":
		return strconv.Itoa(int(int16(binary.LittleEndian.Uint16(b))))
	case "u16":
		return strconv.Itoa(int(binary.LittleEndian.Uint16(b)))
	case "i32":
		return strconv.Itoa(int(int32(binary.LittleEndian.Uint32(b))))
	case "u32":
		return strconv.FormatUint(uint64(binary.LittleEndian.Uint32(b)), 10)
	case "i64":
		return strconv.FormatInt(int64(binary.LittleEndian.Uint64(b)), 10)
	case "u64":
		return strconv.FormatUint(binary.LittleEndian.Uint64(b), 10)
	case "f16":
		return strconv.FormatFloat(float64(F16ToF32(binary.LittleEndian.Uint16(b))), 'g', 5, 32)
	case "bf16":
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b))<<16)), 'g', 4, 32)
	case "f32":
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 'g', 7, 32)
	case "f64":
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', 10, 64)
	}
	return "?"
}

// ElemValue reads element bytes as a float64 for sums.
func ElemValue(b []byte, elem string) float64 {
	v, _ := strconv.ParseFloat(FormatElem(b, elem), 64)
	return v
}

func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(man) / 1024 / 16384
		if sign != 0 {
			return -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}
