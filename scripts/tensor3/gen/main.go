// Command gen writes the TMA probe's cases (KernelScope issue 21, scripts/tensor3):
// tma_cases.h for the device harness tma_probe.cu and tma_cases.json for the tests that
// replay the recorded outputs (gpu/sim TestTMAH200). Usage: go run ./scripts/tensor3/gen DIR
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Map is one tensor map of the probe and the launches made with it.
type Map struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"` // load, load_gptr, load_risky, store, reduce
	DType    string   `json:"dtype"`
	Rank     int      `json:"rank"`
	Dims     []int64  `json:"dims"`
	Strides  []int64  `json:"strides"` // bytes, rank-1 of them
	Box      []int    `json:"box"`
	EStr     []int    `json:"estr"`
	Swizzle  int      `json:"swizzle"` // 0, 32, 64, 128
	OOBNaN   bool     `json:"oob_nan"`
	BufBytes int      `json:"buf_bytes"`
	Seed     uint32   `json:"seed"`
	Cases    [][6]int `json:"cases"` // coords[0..rank), [5] = shared offset (loads) or reduce op
	Bytes    int      `json:"bytes"` // transaction bytes the load kernel expects
}

// cuType is CUtensorMapDataType's value for a dtype name; ElemSize its size.
var cuType = map[string]int{"u8": 0, "u16": 1, "u32": 2, "i32": 3, "f16": 6, "f32": 7, "bf16": 9}
var elemSize = map[string]int{"u8": 1, "u16": 2, "u32": 4, "i32": 4, "f16": 2, "f32": 4, "bf16": 2}

func c2(x, y int) [6]int     { return [6]int{x, y} }
func c2o(x, y, o int) [6]int { return [6]int{x, y, 0, 0, 0, o} }
func c3(x, y, z int) [6]int  { return [6]int{x, y, z} }
func ones(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = 1
	}
	return r
}
func red(x, y, op int) [6]int { return [6]int{x, y, 0, 0, 0, op} }

func maps() []Map {
	edge := [][6]int{c2(0, 0), c2(64, 16), c2(150, 0), c2(0, 120), c2(-8, -4), c2(190, 125), c2(300, 0), c2(8, 3)}
	m := []Map{
		{Name: "L_u16_sw128", Kind: "load", DType: "u16", Rank: 2, Dims: []int64{200, 130}, Strides: []int64{400}, Box: []int{64, 16}, EStr: ones(2), Swizzle: 128, Cases: edge},
		{Name: "L_u16_sw64", Kind: "load", DType: "u16", Rank: 2, Dims: []int64{200, 130}, Strides: []int64{400}, Box: []int{32, 16}, EStr: ones(2), Swizzle: 64, Cases: edge},
		{Name: "L_u16_sw32", Kind: "load", DType: "u16", Rank: 2, Dims: []int64{200, 130}, Strides: []int64{400}, Box: []int{16, 16}, EStr: ones(2), Swizzle: 32, Cases: edge},
		{Name: "L_u16_none", Kind: "load", DType: "u16", Rank: 2, Dims: []int64{200, 130}, Strides: []int64{400}, Box: []int{40, 16}, EStr: ones(2), Swizzle: 0, Cases: edge},
		{Name: "L_u16_sw128_narrow", Kind: "load", DType: "u16", Rank: 2, Dims: []int64{200, 130}, Strides: []int64{400}, Box: []int{32, 16}, EStr: ones(2), Swizzle: 128, Cases: edge},
		{Name: "L_f32_3d_estr", Kind: "load", DType: "f32", Rank: 3, Dims: []int64{50, 20, 6}, Strides: []int64{256, 6144}, Box: []int{8, 4, 3}, EStr: []int{2, 1, 1}, OOBNaN: true,
			Cases: [][6]int{c3(0, 0, 0), c3(44, 17, 4), c3(-3, -1, -1), c3(7, 5, 2), c3(49, 19, 5)}},
		{Name: "L_f32_1d", Kind: "load", DType: "f32", Rank: 1, Dims: []int64{1000}, Box: []int{64}, EStr: ones(1), Cases: [][6]int{{0}, {960}, {-16}, {500}, {1000}}},
		{Name: "L_u8_5d", Kind: "load", DType: "u8", Rank: 5, Dims: []int64{20, 3, 3, 2, 2}, Strides: []int64{32, 96, 288, 576}, Box: []int{16, 2, 2, 2, 1}, EStr: ones(5),
			Cases: [][6]int{{0, 0, 0, 0, 0}, {8, 2, 2, 1, 1}, {-4, 1, 0, 0, 1}, {4, 1, 1, 1, 0}}},
		{Name: "L_f32_sw128_nan", Kind: "load", DType: "f32", Rank: 2, Dims: []int64{70, 33}, Strides: []int64{288}, Box: []int{32, 8}, EStr: ones(2), Swizzle: 128, OOBNaN: true,
			Cases: [][6]int{c2(0, 0), c2(50, 30), c2(-5, -2), c2(64, 0), c2(3, 25)}},
		{Name: "L_f16_sw128_nan", Kind: "load", DType: "f16", Rank: 2, Dims: []int64{100, 40}, Strides: []int64{224}, Box: []int{64, 8}, EStr: ones(2), Swizzle: 128, OOBNaN: true,
			Cases: [][6]int{c2(0, 0), c2(60, 36), c2(-10, 0)}},
		{Name: "L_u32_estr", Kind: "load", DType: "u32", Rank: 2, Dims: []int64{30, 10}, Strides: []int64{128}, Box: []int{8, 8}, EStr: []int{1, 2},
			Cases: [][6]int{c2(0, 0), c2(24, 5), c2(-2, -3)}},
		{Name: "G_bf16_sw128", Kind: "load_gptr", DType: "bf16", Rank: 2, Dims: []int64{72, 20}, Strides: []int64{160}, Box: []int{64, 4}, EStr: ones(2), Swizzle: 128,
			Cases: [][6]int{c2(0, 0), c2(40, 18), c2(-8, 2)}},
		{Name: "X_u16_sw128_offset", Kind: "load_risky", DType: "u16", Rank: 2, Dims: []int64{200, 130}, Strides: []int64{400}, Box: []int{64, 16}, EStr: ones(2), Swizzle: 128,
			Cases: [][6]int{c2o(0, 0, 128), c2o(0, 0, 512), c2o(8, 3, 384)}},
		{Name: "S_u16_sw128", Kind: "store", DType: "u16", Rank: 2, Dims: []int64{200, 130}, Strides: []int64{400}, Box: []int{64, 16}, EStr: ones(2), Swizzle: 128,
			Cases: [][6]int{c2(0, 0), c2(150, 120), c2(-8, -4), c2(8, 3), c2(150, 0), c2(0, 120), c2(-8, 0), c2(0, -4)}},
		{Name: "S_f32_none", Kind: "store", DType: "f32", Rank: 2, Dims: []int64{70, 33}, Strides: []int64{288}, Box: []int{32, 8}, EStr: ones(2),
			Cases: [][6]int{c2(0, 0), c2(50, 30), c2(-5, -2)}},
		{Name: "S_f32_3d", Kind: "store", DType: "f32", Rank: 3, Dims: []int64{50, 20, 6}, Strides: []int64{256, 6144}, Box: []int{8, 4, 3}, EStr: ones(3),
			Cases: [][6]int{c3(0, 0, 0), c3(46, 18, 4)}},
		{Name: "R_u32", Kind: "reduce", DType: "u32", Rank: 2, Dims: []int64{40, 20}, Strides: []int64{160}, Box: []int{16, 8}, EStr: ones(2),
			Cases: [][6]int{red(0, 0, 0), red(30, 15, 0), red(8, 4, 1), red(20, 10, 2)}},
		{Name: "R_i32", Kind: "reduce", DType: "i32", Rank: 2, Dims: []int64{40, 20}, Strides: []int64{160}, Box: []int{16, 8}, EStr: ones(2),
			Cases: [][6]int{red(0, 0, 1), red(12, 6, 2), red(30, 15, 0)}},
		{Name: "R_f32_add", Kind: "reduce", DType: "f32", Rank: 2, Dims: []int64{40, 20}, Strides: []int64{160}, Box: []int{16, 8}, EStr: ones(2),
			Cases: [][6]int{red(0, 0, 0), red(30, 15, 0), red(4, 2, 0)}},
	}
	for i := range m {
		x := &m[i]
		x.Seed = uint32(i + 1)
		es := elemSize[x.DType]
		if x.Rank == 1 {
			x.BufBytes = int(x.Dims[0]) * es
		} else {
			x.BufBytes = int(x.Strides[x.Rank-2] * x.Dims[x.Rank-1])
		}
		n := es
		for d := 0; d < x.Rank; d++ {
			n *= (x.Box[d] + x.EStr[d] - 1) / x.EStr[d]
		}
		x.Bytes = n
	}
	return m
}

func list64(v []int64, n int) string {
	s := make([]string, n)
	for i := range s {
		if i < len(v) {
			s[i] = fmt.Sprint(v[i])
		} else {
			s[i] = "1"
		}
	}
	return strings.Join(s, ", ")
}

func listInt(v []int, n int) string {
	w := make([]int64, len(v))
	for i, x := range v {
		w[i] = int64(x)
	}
	return list64(w, n)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	ms := maps()
	var h strings.Builder
	h.WriteString("// Generated by scripts/tensor3/gen: the TMA probe's tensor maps and cases.\n")
	h.WriteString("struct ProbeMap { const char* name; const char* kind; int dtype, esize, rank; unsigned long long dims[5], strides[4]; unsigned box[5], estr[5]; int swizzle, oobNaN, bufBytes; unsigned seed; int ncases; int cases[16][6]; unsigned bytes; };\n")
	fmt.Fprintf(&h, "static const ProbeMap probeMaps[%d] = {\n", len(ms))
	for _, x := range ms {
		sw := map[int]int{0: 0, 32: 1, 64: 2, 128: 3}[x.Swizzle]
		var cs []string
		for _, c := range x.Cases {
			cs = append(cs, fmt.Sprintf("{%d, %d, %d, %d, %d, %d}", c[0], c[1], c[2], c[3], c[4], c[5]))
		}
		fmt.Fprintf(&h, "  {\"%s\", \"%s\", %d, %d, %d, {%s}, {%s}, {%s}, {%s}, %d, %d, %d, %du, %d, {%s}, %du},\n",
			x.Name, x.Kind, cuType[x.DType], elemSize[x.DType], x.Rank, list64(x.Dims, 5), list64(x.Strides, 4), listInt(x.Box, 5), listInt(x.EStr, 5),
			sw, b2i(x.OOBNaN), x.BufBytes, x.Seed, len(x.Cases), strings.Join(cs, ", "), x.Bytes)
	}
	h.WriteString("};\n")
	if err := os.WriteFile(filepath.Join(dir, "tma_cases.h"), []byte(h.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	j, _ := json.MarshalIndent(ms, "", " ")
	if err := os.WriteFile(filepath.Join(dir, "tma_cases.json"), j, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
