package sim

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// builtins are the extern device functions of the CUDA runtime that the
// simulator implements itself: device printf and assert.
const (
	builtinNone uint8 = iota
	builtinVprintf
	builtinAssert
)

// builtinByName maps an extern function name to its builtin.
func builtinByName(name string) uint8 {
	switch name {
	case "vprintf":
		return builtinVprintf
	case "__assertfail":
		return builtinAssert
	}
	return builtinNone
}

// maxStdout bounds the device printf output kept per launch.
const maxStdout = 1 << 20

// argValue reads argument i of a builtin call for a lane.
func (l *launcher) argValue(w *warp, ci *callInfo, i, lane int) uint64 {
	if i >= len(ci.args) {
		return 0
	}
	a := ci.args[i]
	if a.param {
		pm := w.params[lane]
		off := w.paramBase + a.off
		if off+a.size > len(pm) || a.size > 8 {
			return 0
		}
		return loadLE(pm[off:], a.size)
	}
	return a.v.get(w.regs[w.regBase:], lane)
}

// setRet writes a builtin's return value for a lane.
func (l *launcher) setRet(w *warp, ci *callInfo, lane int, v uint64) {
	if len(ci.rets) == 0 {
		return
	}
	a := ci.rets[0]
	if a.param {
		pm := w.params[lane]
		off := w.paramBase + a.off
		if off+a.size <= len(pm) && a.size <= 8 {
			storeLE(pm[off:], a.size, v)
		}
		return
	}
	if a.v.reg >= 0 {
		w.regs[w.regBase+int(a.v.reg)*32+lane] = v & a.dmask
	}
}

// readGeneric reads n bytes at a generic address for a lane.
func (l *launcher) readGeneric(w *warp, pc int32, lane int, a uint64, n int) ([]byte, error) {
	sp, off := classify(a)
	return l.bytesAt(w, pc, lane, sp, off, n, mem.Load)
}

// cString reads a NUL-terminated string at a generic address (at most 4096 bytes).
func (l *launcher) cString(w *warp, pc int32, lane int, a uint64) (string, error) {
	var b strings.Builder
	for i := 0; i < 4096; i++ {
		c, err := l.readGeneric(w, pc, lane, a+uint64(i), 1)
		if err != nil {
			return "", err
		}
		if c[0] == 0 {
			break
		}
		b.WriteByte(c[0])
	}
	return b.String(), nil
}

// builtin executes a call to a runtime builtin for the lanes in exec.
func (l *launcher) builtin(w *warp, o *op, pc int32, exec uint32) error {
	ci := o.call
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros32(m)
		switch ci.builtin {
		case builtinVprintf:
			f := l.argValue(w, ci, 0, lane)
			if f == 0 {
				l.setRet(w, ci, lane, uint64(math.MaxUint64)) // -1: no format string
				continue
			}
			format, err := l.cString(w, pc, lane, f)
			if err != nil {
				return err
			}
			text, nargs, err := l.format(w, pc, lane, format, l.argValue(w, ci, 1, lane))
			if err != nil {
				return err
			}
			if l.stdout.Len()+len(text) <= maxStdout {
				l.stdout.WriteString(text)
			} else {
				l.stdoutTruncated = true
			}
			l.setRet(w, ci, lane, uint64(nargs))
		case builtinAssert:
			msg, err := l.cString(w, pc, lane, l.argValue(w, ci, 0, lane))
			if err != nil {
				return err
			}
			file, _ := l.cString(w, pc, lane, l.argValue(w, ci, 1, lane))
			line := uint32(l.argValue(w, ci, 2, lane))
			fn, _ := l.cString(w, pc, lane, l.argValue(w, ci, 3, lane))
			e := l.laneError(w, pc, lane, Trap, 0, fmt.Sprintf("assertion `%s` failed", msg),
				fmt.Sprintf("%s:%d in %s", file, line, fn))
			if l.stderr.Len() < maxStdout {
				fmt.Fprintf(&l.stderr, "%s:%d: %s: block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `%s` failed.\n", file, line, fn,
					e.Block[0], e.Block[1], e.Block[2], e.Thread[0], e.Thread[1], e.Thread[2], msg)
			}
			return e
		}
	}
	return nil
}

// format renders a device printf: C conversions read their arguments from
// the argument buffer at args, each aligned to its size (CUDA's vprintf
// layout: integers 4 bytes, or 8 with l/ll/z/j/t; floating point as double;
// strings and pointers 8 bytes). It returns the text and the number of
// arguments read.
func (l *launcher) format(w *warp, pc int32, lane int, f string, args uint64) (string, int, error) {
	var out strings.Builder
	off := uint64(0)
	nargs := 0
	next := func(size int) (uint64, error) {
		off = (off + uint64(size) - 1) &^ uint64(size-1)
		b, err := l.readGeneric(w, pc, lane, args+off, size)
		if err != nil {
			return 0, err
		}
		off += uint64(size)
		nargs++
		return loadLE(b, size), nil
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			out.WriteByte(f[i])
			continue
		}
		start := i
		j := i + 1
		spec := []byte{'%'}
		for j < len(f) && strings.IndexByte("-+ #0", f[j]) >= 0 {
			spec = append(spec, f[j])
			j++
		}
		for pass := 0; pass < 2; pass++ { // width, then precision
			if pass == 1 {
				if j >= len(f) || f[j] != '.' {
					break
				}
				spec = append(spec, '.')
				j++
			}
			if j < len(f) && f[j] == '*' {
				v, err := next(4)
				if err != nil {
					return "", 0, err
				}
				spec = append(spec, fmt.Sprint(int32(v))...)
				j++
				continue
			}
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				spec = append(spec, f[j])
				j++
			}
		}
		long := false
		for j < len(f) && strings.IndexByte("hlLzjt", f[j]) >= 0 {
			if f[j] != 'h' {
				long = true
			}
			j++
		}
		if j >= len(f) {
			out.WriteString(f[i:])
			break
		}
		conv := f[j]
		i = j
		isize := 4
		if long {
			isize = 8
		}
		switch conv {
		case '%':
			out.WriteByte('%')
		case 'd', 'i':
			v, err := next(isize)
			if err != nil {
				return "", 0, err
			}
			out.WriteString(fmt.Sprintf(string(append(spec, 'd')), int64(signExtend(v, isize))))
		case 'u', 'x', 'X', 'o':
			v, err := next(isize)
			if err != nil {
				return "", 0, err
			}
			verb := conv
			if conv == 'u' {
				verb = 'd'
			}
			out.WriteString(fmt.Sprintf(string(append(spec, verb)), v))
		case 'c':
			v, err := next(4)
			if err != nil {
				return "", 0, err
			}
			out.WriteString(fmt.Sprintf(string(append(spec, 'c')), rune(byte(v))))
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			v, err := next(8)
			if err != nil {
				return "", 0, err
			}
			verb := conv
			switch conv {
			case 'F':
				verb = 'f'
			case 'a':
				verb = 'x'
			case 'A':
				verb = 'X'
			}
			x := math.Float64frombits(v)
			s := fmt.Sprintf(string(append(spec, verb)), x)
			if math.IsInf(x, 0) || math.IsNaN(x) {
				s = strings.NewReplacer("+Inf", "inf", "-Inf", "-inf", "Inf", "inf", "NaN", "nan").Replace(s)
				if conv >= 'A' && conv <= 'Z' {
					s = strings.ToUpper(s)
				}
			}
			out.WriteString(s)
		case 's':
			v, err := next(8)
			if err != nil {
				return "", 0, err
			}
			str := "(null)"
			if v != 0 {
				if str, err = l.cString(w, pc, lane, v); err != nil {
					return "", 0, err
				}
			}
			out.WriteString(fmt.Sprintf(string(append(spec, 's')), str))
		case 'p':
			v, err := next(8)
			if err != nil {
				return "", 0, err
			}
			out.WriteString(fmt.Sprintf("0x%x", v))
		default:
			out.WriteString(f[start : j+1])
		}
	}
	return out.String(), nargs, nil
}
