package magics

import (
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/launch"
)

// TensorMap is a tiled tensor map given to the launch (%tensormap, --tensormap).
type TensorMap = launch.TensorMap

// TensorMapKeys lists the keyword arguments of tiled(...).
func TensorMapKeys() []string {
	return []string{"dtype", "dims", "strides", "box", "element_strides", "swizzle", "oob", "interleave"}
}

// ParseTensorMap reads `NAME = tiled(BUFFER, dims=[...], box=[...], key=value...)`:
// dtype (default: the buffer's element type), dims and box (innermost first), strides
// (bytes of dimensions 1.., default packed), element_strides, swizzle (none, 32B, 64B,
// 128B), oob (zero, nan), interleave (none).
func ParseTensorMap(s string) (TensorMap, error) {
	p := &launchParser{s: s}
	var m TensorMap
	m.Name = p.ident()
	if m.Name == "" {
		return m, p.errf("expected the tensor map's name (the CUtensorMap parameter), found %s", p.found())
	}
	if !p.eat('=') {
		return m, p.errf("expected = after %s, found %s", m.Name, p.found())
	}
	if fn := p.ident(); fn != "tiled" {
		if fn == "im2col" {
			return m, p.errf("im2col tensor maps are not modelled (tiled only)")
		}
		return m, p.errf("expected tiled(BUFFER, dims=[...], box=[...], ...), found %q", fn)
	}
	if !p.eat('(') {
		return m, p.errf("expected ( after tiled, found %s", p.found())
	}
	if m.Buffer = p.ident(); m.Buffer == "" {
		return m, p.errf("tiled: the first argument is the buffer parameter holding the tensor, found %s", p.found())
	}
	seen := map[string]bool{}
	for p.eat(',') {
		key := p.ident()
		if key == "" || !p.eat('=') {
			return m, p.errf("tiled: expected key=value (%s), found %s", strings.Join(TensorMapKeys(), ", "), p.found())
		}
		if seen[key] {
			return m, p.errf("tiled: %s given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "dims", "strides":
			var v []uint64
			if v, err = p.list(key, 1<<40); err == nil {
				if key == "dims" {
					m.Dims = v
				} else {
					m.Strides = v
				}
			}
		case "box", "element_strides":
			var v []uint64
			if v, err = p.list(key, 1<<16); err == nil {
				w := make([]uint32, len(v))
				for i, x := range v {
					w[i] = uint32(x)
				}
				if key == "box" {
					m.Box = w
				} else {
					m.ElemStrides = w
				}
			}
		case "dtype":
			m.DType = p.token()
			if _, ok := launch.ElemSizes[m.DType]; !ok && m.DType != "tf32" {
				err = p.errf("tiled: unknown dtype %q (valid: u8 u16 u32 i32 u64 i64 f16 bf16 f32 f64 tf32)", m.DType)
			}
		case "swizzle":
			switch v := strings.ToUpper(p.token()); v {
			case "NONE", "0":
			case "32B", "64B", "128B":
				m.Swizzle, _ = strconv.Atoi(strings.TrimSuffix(v, "B"))
			default:
				err = p.errf("tiled: swizzle must be none, 32B, 64B or 128B, found %q", v)
			}
		case "oob":
			switch v := p.token(); v {
			case "zero":
			case "nan":
				m.OOBNaN = true
			default:
				err = p.errf("tiled: oob must be zero or nan, found %q", v)
			}
		case "interleave":
			m.Interleave = p.token()
			if m.Interleave != "none" {
				err = p.errf("tiled: interleave %q is not modelled (none only)", m.Interleave)
			}
		default:
			err = p.errf("tiled: unknown key %q (valid: %s)", key, strings.Join(TensorMapKeys(), ", "))
		}
		if err != nil {
			return m, err
		}
	}
	if !p.eat(')') {
		return m, p.errf("tiled: expected , or ) found %s", p.found())
	}
	if err := p.end(); err != nil {
		return m, err
	}
	if m.Dims == nil || m.Box == nil {
		return m, p.errf("tiled: dims=[...] and box=[...] are required")
	}
	return m, nil
}

// list reads [n, n, ...] of positive integers below max.
func (p *launchParser) list(key string, max uint64) ([]uint64, error) {
	if !p.eat('[') {
		return nil, p.errf("tiled: %s expects a list like [64, 64], found %s", key, p.found())
	}
	var v []uint64
	for {
		p.skip()
		start := p.pos
		for p.pos < len(p.s) && (p.s[p.pos] >= '0' && p.s[p.pos] <= '9' || isLetter(p.s[p.pos])) {
			p.pos++
		}
		tok := p.s[start:p.pos]
		n, err := strconv.ParseUint(tok, 0, 64)
		if err != nil || n >= max {
			return nil, p.errf("tiled: %s: expected a non-negative integer below %d, found %q", key, max, tok)
		}
		v = append(v, n)
		if p.eat(']') {
			return v, nil
		}
		if !p.eat(',') {
			return nil, p.errf("tiled: %s: expected , or ] found %s", key, p.found())
		}
	}
}

// setTensorMap replaces or adds m in maps (by name).
func setTensorMap(maps []TensorMap, m TensorMap) []TensorMap {
	kept := maps[:0:0]
	for _, x := range maps {
		if x.Name != m.Name {
			kept = append(kept, x)
		}
	}
	return append(kept, m)
}
