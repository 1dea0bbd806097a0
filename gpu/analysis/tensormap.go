package analysis

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// Tensor-map arguments (%tensormap, docs/tensor-cores.md): a CUtensorMap parameter,
// by value or by pointer, gets the launch's tiled map of the same name (or the one a
// positional %launch argument names); the map's tensor is another buffer argument.

var tmapIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// tensorMapArg reports whether parameter i takes a tensor map and which; ok is false
// for an ordinary parameter.
func tensorMapArg(spec *launch.Launch, f *ptx.Func, cparams []cudaParam, i int, short string, g *launch.Arg) (*launch.TensorMap, bool, error) {
	var maps []launch.TensorMap
	if spec != nil {
		maps = spec.TensorMaps
	}
	find := func(name string) *launch.TensorMap {
		for k := range maps {
			if maps[k].Name == name {
				return &maps[k]
			}
		}
		return nil
	}
	isMapParam := cparams != nil && strings.Contains(cparams[i].ctype, "CUtensorMap")
	if g != nil && g.Init == nil && tmapIdent.MatchString(g.Scalar) {
		if m := find(g.Scalar); m != nil {
			return m, true, nil
		}
		return nil, false, fmt.Errorf("%s: %q is neither a number nor a %%tensormap name (tensor maps: %s)", short, g.Scalar, tmapNames(maps))
	}
	if g == nil || isMapParam {
		if m := find(short); m != nil {
			return m, true, nil
		}
		if m := find(f.Params[i].Name); m != nil {
			return m, true, nil
		}
	}
	if isMapParam {
		return nil, false, fmt.Errorf("%s is a CUtensorMap parameter: give its map with %%tensormap %s = tiled(BUFFER, dims=[...], box=[...]) (or --tensormap)", short, short)
	}
	return nil, false, nil
}

func tmapNames(maps []launch.TensorMap) string {
	if len(maps) == 0 {
		return "none"
	}
	var n []string
	for _, m := range maps {
		n = append(n, m.Name)
	}
	return strings.Join(n, ", ")
}

// bindTensorMaps resolves each tensor-map argument's buffer and element type.
func bindTensorMaps(args []launchArg, names []string, f *ptx.Func) error {
	for i := range args {
		m := args[i].lmap
		if m == nil {
			continue
		}
		of := -1
		for j, n := range names {
			if n == m.Buffer || f.Params[j].Name == m.Buffer {
				of = j
			}
		}
		if of < 0 || args[of].buffer == nil || args[of].lmap != nil {
			return fmt.Errorf("tensor map %s: %s is not a buffer parameter of the kernel (parameters: %s)", m.Name, m.Buffer, strings.Join(names, ", "))
		}
		dt := m.DType
		if dt == "" {
			dt = args[of].info.Type
		}
		if dt == "i8" || dt == "i16" {
			return fmt.Errorf("tensor map %s: element type %s has no CUtensorMapDataType; give dtype=u8 or u16", m.Name, dt)
		}
		if m.Interleave != "" && m.Interleave != "none" {
			return fmt.Errorf("tensor map %s: interleave %s is not modelled", m.Name, m.Interleave)
		}
		args[i].tmap = &sim.TensorMap{Name: m.Name, Of: of, DType: dt, Dims: m.Dims, Strides: m.Strides, Box: m.Box,
			ElemStrides: m.ElemStrides, Swizzle: m.Swizzle, OOBNaN: m.OOBNaN}
		// The launch checks it with the buffer's address; check what can be checked now.
		if err := args[i].tmap.Check(0, int64(len(args[of].buffer))); err != nil {
			return err
		}
		args[i].info = report.ArgInfo{Name: args[i].info.Name, Type: "CUtensorMap", Init: tensorMapDesc(m, dt)}
	}
	return nil
}

func tensorMapDesc(m *launch.TensorMap, dt string) string {
	s := fmt.Sprintf("tiled(%s, dtype=%s, dims=%v, box=%v", m.Buffer, dt, m.Dims, m.Box)
	if m.Strides != nil {
		s += fmt.Sprintf(", strides=%v", m.Strides)
	}
	if m.ElemStrides != nil {
		s += fmt.Sprintf(", element_strides=%v", m.ElemStrides)
	}
	if m.Swizzle != 0 {
		s += fmt.Sprintf(", swizzle=%dB", m.Swizzle)
	}
	if m.OOBNaN {
		s += ", oob=nan"
	}
	return s + ")"
}
