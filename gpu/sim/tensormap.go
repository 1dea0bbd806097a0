package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// Tensor maps (CUtensorMap, tiled mode) for the TMA instructions of tma.go. A map is
// given in the launch (Arg.TensorMap) with cuTensorMapEncodeTiled's arguments; the
// launch checks them against that function's documented constraints and writes the
// map's 128 bytes in this simulator's own encoding (the hardware's is opaque): only the
// tensor instructions read it, and they refuse bytes that are not an intact map.

// TensorMapBytes is the size of a CUtensorMap.
const TensorMapBytes = 128

// TensorMap is a tiled tensor map: cuTensorMapEncodeTiled's arguments. The global
// tensor is the allocation of argument Of (or, with Of < 0, the address Base).
type TensorMap struct {
	Name        string   // for messages ("tmA")
	Of          int      // index of the buffer argument holding the tensor; -1: Base
	Base        uint64   // the tensor's address when Of < 0
	DType       string   // element type: u8 u16 u32 i32 u64 i64 f16 bf16 f32 f64 tf32
	Dims        []uint64 // globalDim, innermost first (1 to 5)
	Strides     []uint64 // globalStrides in bytes of dimensions 1.., len(Dims)-1 of them; nil: packed
	Box         []uint32 // boxDim, innermost first
	ElemStrides []uint32 // elementStrides; nil: all 1
	Interleave  int      // 0 (CU_TENSOR_MAP_INTERLEAVE_NONE); others are not modelled
	Swizzle     int      // 0, 32, 64 or 128 (bytes)
	OOBNaN      bool     // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
}

// tmapTypes lists the element types a map may have: code in the encoding, size, float.
var tmapTypes = map[string]struct {
	code, size uint8
	float      bool
}{
	"u8": {0, 1, false}, "u16": {1, 2, false}, "u32": {2, 4, false}, "i32": {3, 4, false}, "u64": {4, 8, false},
	"i64": {5, 8, false}, "f16": {6, 2, true}, "f32": {7, 4, true}, "f64": {8, 8, true}, "bf16": {9, 2, true},
	"tf32": {11, 4, true},
}

// TensorMapTypes lists the element types of TensorMap.DType.
func TensorMapTypes() []string {
	return []string{"u8", "u16", "u32", "i32", "u64", "i64", "f16", "bf16", "f32", "f64", "tf32"}
}

// tmap is a decoded map.
type tmap struct {
	dtype, rank, swizzle uint8 // swizzle in bytes / 16 (0, 2, 4, 8)
	es                   uint64
	oobNaN, float        bool
	base                 uint64
	dims                 [5]uint64
	strides              [5]uint64 // byte stride of each dimension (strides[0] = es)
	box                  [5]uint32
	estr                 [5]uint32
}

const tmapMagic = 0x4d54534b // "KSTM"

// Check reports the first of cuTensorMapEncodeTiled's constraints that m breaks, as
// "tensor map NAME: RULE"; base is the tensor's address and size the bytes there.
func (m *TensorMap) Check(base uint64, size int64) error {
	e := func(format string, a ...any) error {
		return fmt.Errorf("tensor map %s: %s", m.Name, fmt.Sprintf(format, a...))
	}
	t, ok := tmapTypes[m.DType]
	if !ok {
		return e("unknown element type %q (valid: %s)", m.DType, strings.Join(TensorMapTypes(), " "))
	}
	rank := len(m.Dims)
	if rank < 1 || rank > 5 {
		return e("%d dimensions; a tiled map has 1 to 5", rank)
	}
	if m.Interleave != 0 {
		return e("interleaved layouts are not modelled (interleave=none only)")
	}
	if base%16 != 0 {
		return e("the global address %#x is not a multiple of 16", base)
	}
	if len(m.Strides) != 0 && len(m.Strides) != rank-1 {
		return e("%d strides given; a %d-dimensional map takes %d (the byte strides of dimensions 1..%d)", len(m.Strides), rank, rank-1, rank-1)
	}
	if len(m.Box) != rank {
		return e("box has %d dimensions, the tensor %d", len(m.Box), rank)
	}
	if m.ElemStrides != nil && len(m.ElemStrides) != rank {
		return e("element strides have %d dimensions, the tensor %d", len(m.ElemStrides), rank)
	}
	es := uint64(t.size)
	stride := es
	var reach uint64 = es // one past the last byte of the tensor
	for i := 0; i < rank; i++ {
		if m.Dims[i] == 0 || m.Dims[i] > 1<<32 {
			return e("dims[%d] = %d; each must be 1 to 2^32", i, m.Dims[i])
		}
		if i > 0 {
			if len(m.Strides) > 0 {
				stride = m.Strides[i-1]
			}
			if stride%16 != 0 || stride == 0 || stride >= 1<<40 {
				return e("strides[%d] = %d bytes; each must be a non-zero multiple of 16 below 2^40", i-1, stride)
			}
		}
		reach += (m.Dims[i] - 1) * stride
		if len(m.Strides) == 0 {
			stride *= m.Dims[i]
		}
		if m.Box[i] == 0 || m.Box[i] > 256 {
			return e("box[%d] = %d; each must be 1 to 256", i, m.Box[i])
		}
		if m.ElemStrides != nil && (m.ElemStrides[i] == 0 || m.ElemStrides[i] > 8) {
			return e("element_strides[%d] = %d; each must be 1 to 8", i, m.ElemStrides[i])
		}
	}
	if inner := uint64(m.Box[0]) * es; inner%16 != 0 {
		return e("box[0] x element size = %d bytes; with interleave=none it must be a multiple of 16", inner)
	}
	switch m.Swizzle {
	case 0:
	case 32, 64, 128:
		if inner := uint64(m.Box[0]) * es; inner > uint64(m.Swizzle) {
			return e("box[0] x element size = %d bytes, more than the %dB swizzle span", inner, m.Swizzle)
		}
	default:
		return e("swizzle %d; valid: none, 32B, 64B, 128B", m.Swizzle)
	}
	if m.OOBNaN && !t.float {
		return e("oob=nan needs a floating-point element type, not %s", m.DType)
	}
	if size >= 0 && reach > uint64(size) {
		return e("the tensor reaches %d bytes from its address, past the %d bytes of its buffer", reach, size)
	}
	return nil
}

// Encode checks m and returns its 128 bytes for a tensor at base with size bytes.
func (m *TensorMap) Encode(base uint64, size int64) ([TensorMapBytes]byte, error) {
	var b [TensorMapBytes]byte
	if err := m.Check(base, size); err != nil {
		return b, err
	}
	t := tmapTypes[m.DType]
	rank := len(m.Dims)
	binary.LittleEndian.PutUint32(b[0:], tmapMagic)
	b[4], b[5], b[6], b[7] = 1, t.code, uint8(rank), uint8(m.Swizzle/16)
	b[8], b[9], b[10] = 0, b2byte(m.OOBNaN), t.size
	binary.LittleEndian.PutUint64(b[16:], base)
	stride := uint64(t.size)
	for i := 0; i < rank; i++ {
		binary.LittleEndian.PutUint64(b[24+8*i:], m.Dims[i])
		if i > 0 {
			if len(m.Strides) > 0 {
				stride = m.Strides[i-1]
			}
			binary.LittleEndian.PutUint64(b[64+8*(i-1):], stride)
		}
		if len(m.Strides) == 0 {
			stride *= m.Dims[i]
		}
		binary.LittleEndian.PutUint16(b[96+2*i:], uint16(m.Box[i]))
		es := uint32(1)
		if m.ElemStrides != nil {
			es = m.ElemStrides[i]
		}
		b[106+i] = uint8(es)
	}
	binary.LittleEndian.PutUint32(b[120:], tmapSumNoAlloc(b[:120]))
	return b, nil
}

func b2byte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// errNotTensorMap is returned for bytes that are not an intact tensor map.
var errNotTensorMap = errors.New("these 128 bytes are not a tensor map given in the launch (%tensormap or --tensormap), or the kernel changed them")

// decodeTensorMap reads a map written by Encode into t.
func decodeTensorMap(b []byte, t *tmap) error {
	if len(b) < TensorMapBytes || binary.LittleEndian.Uint32(b) != tmapMagic || b[4] != 1 ||
		binary.LittleEndian.Uint32(b[120:]) != tmapSumNoAlloc(b[:120]) {
		return errNotTensorMap
	}
	*t = tmap{dtype: b[5], rank: b[6], swizzle: b[7], oobNaN: b[9] == 1, es: uint64(b[10]), base: binary.LittleEndian.Uint64(b[16:])}
	for _, x := range tmapTypes {
		if x.code == t.dtype {
			t.float = x.float
		}
	}
	t.strides[0] = t.es
	for i := 0; i < int(t.rank); i++ {
		t.dims[i] = binary.LittleEndian.Uint64(b[24+8*i:])
		if i > 0 {
			t.strides[i] = binary.LittleEndian.Uint64(b[64+8*(i-1):])
		}
		t.box[i] = uint32(binary.LittleEndian.Uint16(b[96+2*i:]))
		t.estr[i] = uint32(b[106+i])
	}
	return nil
}

// tmapSumNoAlloc is the map's checksum: FNV-1a, 32 bits.
func tmapSumNoAlloc(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

// boxCount is the number of elements of the box along dimension d in shared memory:
// ceil(box/elementStride), except that dimension 0 takes box[0] consecutive elements
// whatever its element stride (measured on the H200, testdata/measured/tensor3).
func (t *tmap) boxCount(d int) uint64 {
	if d >= int(t.rank) {
		return 1
	}
	if d == 0 {
		return uint64(t.box[0])
	}
	return uint64((t.box[d] + t.estr[d] - 1) / t.estr[d])
}

// boxBytes is the box's element bytes: the transaction bytes of a load.
func (t *tmap) boxBytes() uint64 {
	n := t.es
	for d := 0; d < int(t.rank); d++ {
		n *= t.boxCount(d)
	}
	return n
}

// rowPitch is the shared-memory distance between the box's rows (dimension 0 runs):
// dense without a swizzle, the swizzle span with one (a 64-byte row of a 128B-swizzled
// box takes 128 bytes; measured).
func (t *tmap) rowPitch() uint64 {
	if t.swizzle != 0 {
		return uint64(t.swizzle) * 16
	}
	return t.boxCount(0) * t.es
}

// smemBytes is the box's footprint in shared memory.
func (t *tmap) smemBytes() uint64 {
	n := t.rowPitch()
	for d := 1; d < int(t.rank); d++ {
		n *= t.boxCount(d)
	}
	return n
}

// swizzle applies the map's shared-memory swizzle to a shared address: bits [4, 4+b)
// are XORed with bits [7, 7+b), b = 3, 2, 1 for 128B, 64B, 32B.
func (t *tmap) swizzleAddr(a uint64) uint64 {
	switch t.swizzle {
	case 8:
		return a ^ (a>>7&7)<<4
	case 4:
		return a ^ (a>>7&3)<<4
	case 2:
		return a ^ (a>>7&1)<<4
	}
	return a
}

// nanBits is the fill of an out-of-bounds element with oob=nan: 0x7ff7 in every 16
// bits (measured for f32: 0x7ff77ff7; f16, bf16 and f64 assumed the same pattern).
func (t *tmap) nanBits() uint64 {
	return 0x7ff77ff77ff77ff7 & (1<<(8*t.es) - 1)
}

// placeTensorMaps writes the launch's tensor maps: into a 128-byte by-value parameter,
// or into a global allocation whose address goes into an 8-byte parameter.
func placeTensorMaps(p *program, args []Arg, bufs []*alloc, h *heap, names func(int) string) error {
	for i, a := range args {
		m := a.TensorMap
		if m == nil {
			continue
		}
		base, size := m.Base, int64(-1)
		if m.Of >= 0 {
			if m.Of >= len(bufs) || bufs[m.Of] == nil {
				return launchError(InvalidLaunch, "tensor map %s (argument %d) refers to argument %d, which is not a buffer", m.Name, i, m.Of)
			}
			base, size = bufs[m.Of].base, int64(len(bufs[m.Of].data))
		} else if al, ok := h.find(base, 1); ok {
			size = int64(al.base + uint64(len(al.data)) - base)
		}
		enc, err := m.Encode(base, size)
		if err != nil {
			return launchError(InvalidLaunch, "%v", err)
		}
		s := p.paramSlots[i]
		switch s.size {
		case TensorMapBytes:
			if s.off%64 != 0 {
				return launchError(InvalidLaunch, "parameter %s holds tensor map %s but is not 64-byte aligned (declare it const __grid_constant__ CUtensorMap)", names(i), m.Name)
			}
			copy(p.params[s.off:], enc[:])
		case 8:
			al := h.add(TensorMapBytes, enc[:], fmt.Sprintf("tensor map %s (argument %d, %s)", m.Name, i, names(i)))
			bufs[i] = al
			storeLE(p.params[s.off:], 8, al.base)
		default:
			return launchError(InvalidLaunch, "parameter %s is %d bytes; tensor map %s needs a 128-byte CUtensorMap parameter or a pointer", names(i), s.size, m.Name)
		}
	}
	return nil
}
